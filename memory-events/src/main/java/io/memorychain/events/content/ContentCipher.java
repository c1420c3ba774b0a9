package io.memorychain.events.content;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for the free text of memory snapshots on the chain (docs/architecture.md §12, erasure) and for wrapping
 * their data keys under the master key. Text is written as {@code enc1:<base64url without padding of nonce(12) ||
 * ciphertext || tag(16)>}, so the Avro field stays a string and the chain's hash and signature cover the ciphertext.
 * The associated data binds a text to its memory: {@code "memorychain-content-v1" NUL space NUL memory id}; a
 * ciphertext moved to another memory, or altered, fails to decrypt. Thread-safe (one {@link Cipher} per thread).
 */
public final class ContentCipher {

    /** Prefix of an encrypted text. */
    public static final String PREFIX = "enc1:";
    /** AES-256 key length in bytes. */
    public static final int KEY_BYTES = 32;

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** One cipher per thread, initialized anew for every text: getInstance is a large part of a short text's cost. */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    });

    private ContentCipher() {}

    /** A fresh random AES-256 key. */
    public static byte[] newKey() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    public static boolean isEncrypted(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    /** The associated data of a memory's texts. */
    public static byte[] contentAad(String space, String memoryId) {
        return ("memorychain-content-v1\0" + space + "\0" + memoryId).getBytes(StandardCharsets.UTF_8);
    }

    /** The associated data of a memory's wrapped data key. */
    public static byte[] keyAad(String space, String memoryId) {
        return ("memorychain-dek-v1\0" + space + "\0" + memoryId).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code enc1:...} of the text; null stays null. */
    public static String encrypt(byte[] key, byte[] aad, String text) {
        if (text == null) {
            return null;
        }
        return PREFIX
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(seal(key, aad, text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The plain text of an {@code enc1:} string; a string without the prefix is returned as is (written with encryption
     * off).
     *
     * @throws ContentCipherException when the text was altered, or the key or associated data do not match
     */
    public static String decrypt(byte[] key, byte[] aad, String text) {
        if (!isEncrypted(text)) {
            return text;
        }
        byte[] sealed;
        try {
            sealed = Base64.getUrlDecoder().decode(text.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new ContentCipherException("not base64url after " + PREFIX, e);
        }
        return new String(open(key, aad, sealed), StandardCharsets.UTF_8);
    }

    /** nonce || ciphertext || tag of the bytes under the key. */
    public static byte[] seal(byte[] key, byte[] aad, byte[] plain) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.ENCRYPT_MODE, aes(key), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(aad);
            byte[] out = new byte[NONCE_BYTES + cipher.getOutputSize(plain.length)];
            System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
            cipher.doFinal(plain, 0, plain.length, out, NONCE_BYTES);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** The bytes sealed by {@link #seal}. */
    public static byte[] open(byte[] key, byte[] aad, byte[] sealed) {
        if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new ContentCipherException("sealed text too short: " + sealed.length + " bytes", null);
        }
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.DECRYPT_MODE, aes(key), new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(aad);
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new ContentCipherException("authentication failed (altered, wrong key or wrong memory)", e);
        } catch (GeneralSecurityException e) {
            throw new ContentCipherException("cannot decrypt: " + e.getMessage(), e);
        }
    }

    /** Bytes of a buffer without moving it. */
    static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    private static SecretKey aes(byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("AES-256 keys have " + KEY_BYTES + " bytes, not " + key.length);
        }
        return new SecretKeySpec(key, "AES");
    }

    /** A text or key that cannot be decrypted: altered, or under another key or memory. */
    public static final class ContentCipherException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ContentCipherException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
