package io.memorychain.projector.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memorychain.avro.view.Relation;
import io.memorychain.domain.Relations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The entity channel's graph walk and scores (docs/architecture.md §7), on a hand-built graph. */
class EntityChannelTest {

    private final EntityChannel channel = new EntityChannel(new EntityChannel.Weights(1.0, 0.5, 0.9, 0.5, -1));
    private final Map<String, List<Relation>> edges = new HashMap<>();

    private void edge(String from, String to, String type, double strength) {
        Relation r = Relation.newBuilder()
                .setFromId(from)
                .setToId(to)
                .setRelationType(type)
                .setStrength(strength)
                .setSeq(1L)
                .build();
        edges.computeIfAbsent(from, x -> new ArrayList<>()).add(r);
        edges.computeIfAbsent(to, x -> new ArrayList<>()).add(r);
    }

    private Map<String, Double> walk(Set<String> impassable, String... seeds) {
        return channel.proximity(
                List.of(seeds), id -> edges.getOrDefault(id, List.of()), id -> !impassable.contains(id));
    }

    @Test
    void followsTwoHopsInBothDirectionsWeightedByHopTypeAndStrength() {
        edge("alex", "atlas", "develops", 1.0);
        edge("atlas", "postgres", "depends-on", 1.0);
        edge("postgres", "backups", "uses", 1.0);
        edge("note", "atlas", "relates-to", 0.8);
        edge("atlas", "similar", Relations.SYMMETRIC, 0.7);

        Map<String, Double> near = walk(Set.of(), "alex");

        assertThat(near).containsOnlyKeys("alex", "atlas", "postgres", "note", "similar");
        assertThat(near.get("alex")).isEqualTo(0.5);
        assertThat(near.get("atlas")).isCloseTo(0.9, within(1e-9));
        assertThat(near.get("postgres")).isCloseTo(0.81, within(1e-9));
        assertThat(near.get("note")).isCloseTo(0.81 * 0.8, within(1e-9));
        assertThat(near.get("similar")).isCloseTo(0.81 * 0.7 * 0.5, within(1e-9));
    }

    @Test
    void neverPassesThroughAMemoryTheCallerMayNotSee() {
        edge("atlas", "vault", "depends-on", 1.0);
        edge("vault", "hsm", "uses", 1.0);
        edge("atlas", "postgres", "depends-on", 1.0);

        assertThat(walk(Set.of("vault"), "atlas")).containsOnlyKeys("atlas", "postgres");
        assertThat(walk(Set.of(), "atlas")).containsKeys("vault", "hsm");
    }

    @Test
    void keepsTheBestPathAndScoresByProximityTimesAffinity() {
        edge("a", "x", "uses", 1.0);
        edge("a", "b", "uses", 1.0);
        edge("b", "x", "uses", 1.0);
        Map<String, Double> near = walk(Set.of(), "a", "b");
        assertThat(near.get("x")).isCloseTo(0.9, within(1e-9));

        Map<String, Double> cosines = Map.of("a", 0.1, "b", 0.3, "x", 0.6);
        Map<String, Double> scores = channel.scores(near, cosines::get, List.of(0.2, 0.4, 0.5));
        assertThat(scores.keySet())
                .as("affinity on the scale of the candidates' cosines")
                .containsExactly("x", "b", "a");
        assertThat(scores.get("x")).isCloseTo(0.9, within(1e-9));
        double mean = (0.2 + 0.4 + 0.5) / 3;
        double sd = Math.sqrt((Math.pow(0.2 - mean, 2) + Math.pow(0.4 - mean, 2) + Math.pow(0.5 - mean, 2)) / 3);
        assertThat(scores.get("b"))
                .as("from one deviation below the mean candidate to the best")
                .isCloseTo(0.5 * (0.3 - (mean - sd)) / (0.5 - (mean - sd)), within(1e-9));
        assertThat(scores.get("a")).isZero();
    }
}
