package io.memorychain.api.checkpoints;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys of the checkpoint topic and of its view. Ids never hold NUL (the API refuses control characters), so NUL
 * separates the parts unambiguously and a thread's keys share the prefix {@code space NUL user NUL thread NUL}.
 *
 * <p>The view keeps two kinds of entry: {@code D prefix position' id} holds the record (position' = Long.MAX_VALUE -
 * position, big-endian, so a forward scan of a thread's prefix gives newest first) and {@code I prefix id} holds the
 * id's position (to find and replace or delete its D entry).
 */
final class CheckpointKeys {

    static final byte DATA = 'D';
    static final byte INDEX = 'I';
    private static final char SEP = '\0';

    private CheckpointKeys() {}

    /** The topic's record key. */
    static byte[] topicKey(Checkpoint.ThreadRef thread, String id) {
        return (threadPrefix(thread) + id).getBytes(StandardCharsets.UTF_8);
    }

    /** The thread and id of a topic key; null when it is not one of ours. */
    static Parsed parse(byte[] topicKey) {
        String text = new String(topicKey, StandardCharsets.UTF_8);
        String[] parts = text.split(String.valueOf(SEP), -1);
        if (parts.length != 4) {
            return null;
        }
        return new Parsed(new Checkpoint.ThreadRef(parts[0], parts[1], parts[2]), parts[3]);
    }

    record Parsed(Checkpoint.ThreadRef thread, String id) {}

    static String threadPrefix(Checkpoint.ThreadRef thread) {
        return thread.space() + SEP + thread.userId() + SEP + thread.threadId() + SEP;
    }

    /** {@code kind prefix}: where a thread's entries of one kind start. */
    static byte[] scanPrefix(byte kind, Checkpoint.ThreadRef thread) {
        byte[] prefix = threadPrefix(thread).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[prefix.length + 1];
        out[0] = kind;
        System.arraycopy(prefix, 0, out, 1, prefix.length);
        return out;
    }

    static byte[] data(Checkpoint.ThreadRef thread, long position, String id) {
        byte[] prefix = scanPrefix(DATA, thread);
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(prefix.length + Long.BYTES + idBytes.length)
                .put(prefix)
                .putLong(Long.MAX_VALUE - position)
                .put(idBytes)
                .array();
    }

    /** The data key that sorts first at or after {@code position} newest-first: the start of a page. */
    static byte[] dataFrom(Checkpoint.ThreadRef thread, long position) {
        byte[] prefix = scanPrefix(DATA, thread);
        return ByteBuffer.allocate(prefix.length + Long.BYTES)
                .put(prefix)
                .putLong(Long.MAX_VALUE - position)
                .array();
    }

    static byte[] index(Checkpoint.ThreadRef thread, String id) {
        byte[] prefix = scanPrefix(INDEX, thread);
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(prefix, prefix.length + idBytes.length);
        System.arraycopy(idBytes, 0, out, prefix.length, idBytes.length);
        return out;
    }

    static String idOfIndex(byte[] indexKey, int prefixLength) {
        return new String(indexKey, prefixLength, indexKey.length - prefixLength, StandardCharsets.UTF_8);
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    static long longOf(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }
}
