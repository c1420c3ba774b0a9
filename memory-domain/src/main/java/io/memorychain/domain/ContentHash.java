package io.memorychain.domain;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * SHA-256 of normalized content (trimmed, whitespace collapsed, lower-cased): content-blind exact-duplicate detection.
 */
public final class ContentHash {

    private ContentHash() {}

    public static String of(String content) {
        return Hashes.hex(Hashes.sha256(normalize(content).getBytes(StandardCharsets.UTF_8)));
    }

    /** Trimmed, runs of whitespace collapsed to one space, lower-cased. */
    static String normalize(String content) {
        return collapseWhitespace(content).toLowerCase(Locale.ROOT);
    }

    /** Trimmed, with every run of whitespace (newlines included) replaced by one space. */
    public static String collapseWhitespace(String content) {
        StringBuilder sb = new StringBuilder(content.length());
        boolean pendingSpace = false;
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (Character.isWhitespace(c)) {
                pendingSpace = sb.length() > 0;
            } else {
                if (pendingSpace) {
                    sb.append(' ');
                    pendingSpace = false;
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
