package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;

class ReciprocalRankFusionTest {

    private static ScoreDoc[] list(int... docs) {
        ScoreDoc[] out = new ScoreDoc[docs.length];
        for (int i = 0; i < docs.length; i++) {
            out[i] = new ScoreDoc(docs[i], 10f - i);
        }
        return out;
    }

    @Test
    void scoreIsTheSumOfReciprocalRanks() {
        List<ReciprocalRankFusion.Fused> fused = ReciprocalRankFusion.fuse(list(1, 2, 3), list(3, 4), 60, 10);

        assertThat(fused).extracting(ReciprocalRankFusion.Fused::doc).containsExactly(3, 1, 2, 4);
        ReciprocalRankFusion.Fused three = fused.get(0);
        assertThat(three.score()).isCloseTo((float) (1.0 / 63 + 1.0 / 61), within(1e-7f));
        assertThat(three.bm25()).isEqualTo(new Hit.Signal(3, 8f));
        assertThat(three.vector()).isEqualTo(new Hit.Signal(1, 10f));
        assertThat(fused.get(1).vector()).isNull();
        assertThat(fused.get(3).bm25()).isNull();
    }

    @Test
    void equalFusedScoresPreferTheBetterKeywordRankThenTheBetterVectorRank() {
        List<ReciprocalRankFusion.Fused> fused = ReciprocalRankFusion.fuse(list(1, 2), list(3, 4), 60, 10);
        assertThat(fused).extracting(ReciprocalRankFusion.Fused::doc).containsExactly(1, 3, 2, 4);
    }

    @Test
    void resultIsCutToTheLimitAndEmptyListsFuseToNothing() {
        assertThat(ReciprocalRankFusion.fuse(list(1, 2, 3), list(4, 5, 6), 60, 2))
                .hasSize(2);
        assertThat(ReciprocalRankFusion.fuse(list(), list(), 60, 5)).isEmpty();
        assertThat(ReciprocalRankFusion.fuse(list(), list(7, 8), 60, 5))
                .extracting(ReciprocalRankFusion.Fused::doc)
                .containsExactly(7, 8);
    }
}
