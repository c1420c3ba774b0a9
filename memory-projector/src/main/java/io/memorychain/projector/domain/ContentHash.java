package io.memorychain.projector.domain;

import io.memorychain.events.chain.Canonical;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** SHA-256 of normalized content (trimmed, whitespace collapsed, lower-cased): content-blind exact-duplicate detection. */
public final class ContentHash {

    private ContentHash() {
    }

    public static String of(String content) {
        String normalized = content.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        return Canonical.hex(Canonical.sha256(normalized.getBytes(StandardCharsets.UTF_8)));
    }
}
