package io.memorychain.api.markdown;

import io.memorychain.events.chain.Canonical;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * One rendered file of a space's Markdown view.
 *
 * @param path where it lives
 * @param category for a facts file: the memories' category (null for {@code facts/general.md}); otherwise null
 * @param summary the derived {@code > Summary:} text
 * @param entries its entries in file order
 * @param text the whole file
 */
public record MarkdownFile(
        MarkdownPath path, String category, String summary, List<MarkdownEntry> entries, String text) {

    public MarkdownFile {
        entries = List.copyOf(entries);
    }

    /** The entity tag of the text ({@code "<first 16 bytes of its SHA-256 in hex>"}), for If-Match on writes. */
    public String etag() {
        return etag(text);
    }

    static String etag(String text) {
        return "\"" + HexFormat.of().formatHex(Canonical.sha256(text.getBytes(StandardCharsets.UTF_8)), 0, 16) + "\"";
    }

    /** Size in UTF-8 bytes. */
    public int size() {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
