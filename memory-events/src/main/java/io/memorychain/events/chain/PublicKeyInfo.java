package io.memorychain.events.chain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * A chain public key as published ({@code GET /v1/chain/keys}, {@code public-keys.json}; docs/chain-format.md §5): its
 * id, the algorithm, the raw 32-byte key in hex and base64, when it was created (null if unknown) and whether it signs
 * new events.
 */
public record PublicKeyInfo(
        String keyId,
        String algorithm,
        String publicKeyHex,
        String publicKeyBase64,
        Instant createdAt,
        boolean active) {

    public static PublicKeyInfo of(ChainKeys keys, Instant createdAt, boolean active) {
        byte[] raw = keys.publicKeyBytes();
        return new PublicKeyInfo(
                keys.keyId(),
                "Ed25519",
                HexFormat.of().formatHex(raw),
                Base64.getEncoder().encodeToString(raw),
                createdAt,
                active);
    }

    /** Writes {@code {"keys":[...]}} (snake_case fields) to the file, atomically. */
    public static void write(Path file, List<PublicKeyInfo> keys) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        ArrayNode list = root.putArray("keys");
        for (PublicKeyInfo key : keys) {
            ObjectNode node = list.addObject();
            node.put("key_id", key.keyId());
            node.put("algorithm", key.algorithm());
            node.put("public_key_hex", key.publicKeyHex());
            node.put("public_key_base64", key.publicKeyBase64());
            node.put(
                    "created_at",
                    key.createdAt() == null ? null : key.createdAt().toString());
            node.put("active", key.active());
            // as GET /v1/chain/keys serves them before any key event: the file is written at start
            node.put("status", key.active() ? "active" : "retired");
            node.putArray("spaces");
            node.putArray("compromised");
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, json.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the public keys to " + file, e);
        }
    }
}
