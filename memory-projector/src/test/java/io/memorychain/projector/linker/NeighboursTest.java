package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NeighboursTest {

    @Test
    void keepsTheBestKAtOrAboveTheMinimumBestFirstTiesById() {
        Neighbours n = new Neighbours(3, 0.5);
        n.offer("low", 0.49);
        n.offer("nan", Double.NaN);
        n.offer("b", 0.8);
        n.offer("a", 0.8);
        n.offer("edge", 0.5);
        n.offer("top", 0.95);
        n.offer("mid", 0.6);
        assertThat(n.best()).extracting(Neighbours.Neighbour::id).containsExactly("top", "a", "b");
    }

    @Test
    void cosineIsNaNForDifferentDimensions() {
        assertThat(LinkerEntry.cosine(new float[] {1, 0}, new float[] {1, 0, 0}))
                .isNaN();
        assertThat(LinkerEntry.cosine(new float[] {3, 4}, new float[] {6, 8}))
                .isEqualTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    }
}
