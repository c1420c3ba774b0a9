package io.memorychain.domain.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts cl100k_base tokens of ordinary text (special tokens are text) with ~2 MB of tables: the 100,256 ranked byte
 * strings of jtokkit's {@code cl100k_base.tiktoken} in one byte array, found through an open-addressing int table.
 * jtokkit's own encoding holds them in hash maps of boxed entries, ~17 MB of heap (docs/benchmarks.md "Memory of the
 * embedded service"). Text is split by cl100k's pre-tokenizing pattern and each piece is merged pair by pair, lowest
 * rank first and leftmost on ties, as tiktoken does; {@code Cl100kCounterTest} compares every count with jtokkit's.
 */
final class Cl100kCounter {

    private static final String RANKS = "/com/knuddels/jtokkit/cl100k_base.tiktoken";
    private static final Pattern PIECES = Pattern.compile(
            "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}+"
                    + "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
            Pattern.UNICODE_CHARACTER_CLASS);

    private final byte[] bytes;
    private final int[] starts;
    private final int[] slots;
    private final int mask;

    private Cl100kCounter(byte[] bytes, int[] starts) {
        this.bytes = bytes;
        this.starts = starts;
        int size = Integer.highestOneBit(starts.length * 2 - 1) << 1;
        this.slots = new int[size];
        this.mask = size - 1;
        Arrays.fill(slots, -1);
        for (int rank = 0; rank < starts.length - 1; rank++) {
            int slot = hash(bytes, starts[rank], starts[rank + 1]) & mask;
            while (slots[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = rank;
        }
    }

    /** The counter of jtokkit's cl100k_base ranks (read from its jar). */
    static Cl100kCounter load() {
        InputStream in = Cl100kCounter.class.getResourceAsStream(RANKS);
        if (in == null) {
            throw new IllegalStateException(RANKS + " is not on the classpath (com.knuddels:jtokkit)");
        }
        byte[][] tokens = new byte[100_256][];
        int count = 0;
        int total = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                int space = line.indexOf(' ');
                int rank = Integer.parseInt(line.substring(space + 1).trim());
                if (rank != count) {
                    throw new IllegalStateException(RANKS + ": rank " + rank + " out of order at line " + (count + 1));
                }
                if (count == tokens.length) {
                    tokens = Arrays.copyOf(tokens, count * 2);
                }
                tokens[count++] = Base64.getDecoder().decode(line.substring(0, space));
                total += tokens[count - 1].length;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RANKS, e);
        }
        byte[] bytes = new byte[total];
        int[] starts = new int[count + 1];
        for (int rank = 0, at = 0; rank < count; rank++) {
            starts[rank] = at;
            System.arraycopy(tokens[rank], 0, bytes, at, tokens[rank].length);
            at += tokens[rank].length;
        }
        starts[count] = total;
        return new Cl100kCounter(bytes, starts);
    }

    int count(String text) {
        int tokens = 0;
        Matcher pieces = PIECES.matcher(text);
        while (pieces.find()) {
            byte[] piece = pieces.group().getBytes(StandardCharsets.UTF_8);
            tokens += rank(piece, 0, piece.length) >= 0 ? 1 : merged(piece);
        }
        return tokens;
    }

    /** The tokens of a piece that is not one token: byte pairs merged, lowest rank first, leftmost on ties. */
    private int merged(byte[] piece) {
        int parts = piece.length;
        int[] bounds = new int[parts + 1];
        for (int i = 0; i <= parts; i++) {
            bounds[i] = i;
        }
        int[] ranks = new int[parts];
        for (int i = 0; i + 1 < parts; i++) {
            ranks[i] = rank(piece, bounds[i], bounds[i + 2]);
        }
        while (parts > 1) {
            int best = -1;
            for (int i = 0; i + 1 < parts; i++) {
                if (ranks[i] >= 0 && (best < 0 || ranks[i] < ranks[best])) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            // part best absorbs part best + 1
            System.arraycopy(bounds, best + 2, bounds, best + 1, parts - best - 1);
            System.arraycopy(ranks, best + 1, ranks, best, parts - best - 1);
            parts--;
            if (best + 1 < parts) {
                ranks[best] = rank(piece, bounds[best], bounds[best + 2]);
            }
            if (best > 0) {
                ranks[best - 1] = rank(piece, bounds[best - 1], bounds[best + 1]);
            }
        }
        return parts;
    }

    /** The rank of {@code piece[from, to)}, or -1 when it is not a token. */
    private int rank(byte[] piece, int from, int to) {
        int slot = hash(piece, from, to) & mask;
        for (int rank = slots[slot]; rank >= 0; rank = slots[slot]) {
            if (Arrays.equals(bytes, starts[rank], starts[rank + 1], piece, from, to)) {
                return rank;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    private static int hash(byte[] b, int from, int to) {
        int h = 0x811c9dc5;
        for (int i = from; i < to; i++) {
            h = (h ^ (b[i] & 0xff)) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }
}
