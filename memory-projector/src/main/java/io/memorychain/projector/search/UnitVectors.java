package io.memorychain.projector.search;

/**
 * Validation and L2 normalisation of embeddings. The index stores unit vectors and compares them by dot product, which
 * is their cosine: the same ranking as Lucene's COSINE similarity, about twice as fast to build and search because
 * norms are not recomputed on every comparison.
 */
final class UnitVectors {

    private UnitVectors() {}

    /**
     * A normalised copy of {@code vector}, or null for null.
     *
     * @throws IllegalArgumentException for the wrong dimensions, a non-finite component or the zero vector
     */
    static float[] unitCopy(float[] vector, int dimensions, String what) {
        if (vector == null) {
            return null;
        }
        if (vector.length != dimensions) {
            throw new IllegalArgumentException(what + " has " + vector.length + " dimensions, the index " + dimensions);
        }
        double sum = 0;
        for (float v : vector) {
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException(what + " has a non-finite component");
            }
            sum += (double) v * v;
        }
        if (sum == 0) {
            throw new IllegalArgumentException(what + " is the zero vector (no cosine)");
        }
        double inverse = 1 / Math.sqrt(sum);
        float[] unit = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            unit[i] = (float) (vector[i] * inverse);
        }
        return unit;
    }
}
