package io.memorychain.projector.linker;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;

/**
 * What the linker keeps of one memory: enough to tell whether it can be linked, and its vector.
 *
 * @param kind the memory's kind; null while only its embedding has arrived
 * @param state the memory's state; null while only its embedding has arrived
 * @param contentHash content hash of the memory's current version; null while only its embedding has arrived
 * @param vectorHash content hash the stored vector belongs to; null without a vector
 * @param vectorSeq chain seq of the embedded version (a later embedding replaces an earlier one); 0 without a vector
 * @param vector unit-length embedding of the configured model, or null
 */
record LinkerEntry(
        MemoryKind kind, MemoryState state, String contentHash, String vectorHash, long vectorSeq, float[] vector) {

    LinkerEntry {
        if ((vector == null) != (vectorHash == null)) {
            throw new IllegalArgumentException("a vector comes with the content hash it belongs to");
        }
    }

    static LinkerEntry ofMemory(MemoryKind kind, MemoryState state, String contentHash) {
        return new LinkerEntry(kind, state, contentHash, null, 0, null);
    }

    static LinkerEntry ofVector(String vectorHash, long seq, float[] vector) {
        return new LinkerEntry(null, null, null, vectorHash, seq, vector);
    }

    /** A semantic, active memory whose vector belongs to its current content. */
    boolean linkable() {
        return kind == MemoryKind.SEMANTIC
                && state == MemoryState.ACTIVE
                && vector != null
                && vectorHash.equals(contentHash);
    }

    /** This memory's kind, state and content with the vector kept (a vector of other content no longer matches). */
    LinkerEntry withMemory(MemoryKind newKind, MemoryState newState, String newContentHash) {
        return new LinkerEntry(newKind, newState, newContentHash, vectorHash, vectorSeq, vector);
    }

    LinkerEntry withState(MemoryState newState) {
        return new LinkerEntry(kind, newState, contentHash, vectorHash, vectorSeq, vector);
    }

    LinkerEntry withVector(String newVectorHash, long seq, float[] newVector) {
        return new LinkerEntry(kind, state, contentHash, newVectorHash, seq, newVector);
    }

    /** Cosine similarity of the two vectors; NaN when their dimensions differ. */
    static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            return Double.NaN;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
