package io.memorychain.projector.search;

import java.util.Random;

/** Deterministic synthetic embeddings. */
final class TestVectors {

    private TestVectors() {}

    static float[] randomUnit(Random random, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return normalize(v);
    }

    /** The unit vector along one axis. */
    static float[] axis(int dims, int axis) {
        float[] v = new float[dims];
        v[axis] = 1;
        return v;
    }

    /** {@code base * cos + orthogonal-ish noise * sin}: cosine to base close to {@code cos} for random noise. */
    static float[] near(float[] base, double cos, Random random) {
        float[] noise = randomUnit(random, base.length);
        double dot = dot(noise, base);
        for (int i = 0; i < noise.length; i++) {
            noise[i] -= (float) (dot * base[i]);
        }
        normalize(noise);
        double sin = Math.sqrt(1 - cos * cos);
        float[] v = new float[base.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (cos * base[i] + sin * noise[i]);
        }
        return normalize(v);
    }

    static double cosine(float[] a, float[] b) {
        return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static float[] normalize(float[] v) {
        double norm = Math.sqrt(dot(v, v));
        for (int i = 0; i < v.length; i++) {
            v[i] /= (float) norm;
        }
        return v;
    }
}
