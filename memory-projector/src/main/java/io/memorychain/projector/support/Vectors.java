package io.memorychain.projector.support;

import java.util.List;

/** Embedding vectors as the Avro records carry them ({@code List<Float>}) and as the index and scorers take them. */
public final class Vectors {

    private Vectors() {}

    public static float[] toArray(List<Float> vector) {
        float[] out = new float[vector.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = vector.get(i);
        }
        return out;
    }
}
