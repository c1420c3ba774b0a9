package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.view.Relation;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RelationsTest {

    private static final String SPACE = "graph";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content) {
        return h.submit(Requests.create(SPACE, AGENT, content)).getMemoryId();
    }

    @Test
    void aLinkIsAChainEventAndAppearsInBothDirections() {
        String alex = create("Alex (entity: person)");
        String atlas = create("Atlas billing platform (entity: project)");
        MemoryOutcome linked = h.submit(Requests.link(SPACE, AGENT, alex, atlas, "develops", 1.0));
        assertThat(linked.getAccepted()).isTrue();
        assertThat(h.chain()).hasSize(3);
        assertThat(h.views.relations(SPACE, alex))
                .extracting(Relation::getToId, Relation::getRelationType)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(atlas, "develops"));
        assertThat(h.views.relations(SPACE, atlas))
                .extracting(Relation::getFromId)
                .containsExactly(alex);
        assertThat(h.views.audit(SPACE, 2, 10).get(0).getMemoryIds()).containsExactly(alex, atlas);
    }

    @Test
    void duplicateEdgesAreRejectedAndRelatedToIsSymmetric() {
        String a = create("a");
        String b = create("b");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "related_to", 0.8))
                        .getAccepted())
                .isTrue();
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "uses", 1.0)).getCode())
                .isEqualTo("ALREADY_LINKED");
        assertThat(h.submit(Requests.link(SPACE, AGENT, b, a, "related_to", 0.9))
                        .getCode())
                .isEqualTo("ALREADY_LINKED");
        assertThat(h.submit(Requests.link(SPACE, AGENT, b, a, "depends-on", 1.0))
                        .getAccepted())
                .as("a typed edge in the other direction is a different edge")
                .isTrue();
        assertThat(h.views.relations(SPACE, a)).hasSize(2);
    }

    @Test
    void badLinksAreRejectedWithACode() {
        String a = create("a");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, a, "related_to", 1.0))
                        .getCode())
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, "m0000099xxxx", "related_to", 1.0))
                        .getCode())
                .isEqualTo("NOT_FOUND");
        String b = create("b");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "Related To", 1.0))
                        .getCode())
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "uses", 1.5)).getCode())
                .isEqualTo("INVALID_ARGUMENT");
        h.submit(Requests.delete(SPACE, AGENT, b));
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "uses", 1.0)).getCode())
                .isEqualTo("INVALID_STATE");
        assertThat(h.views.relations(SPACE, a)).isEmpty();
    }

    @Test
    void unlinkRemovesTheEdgeAndASymmetricEdgeCanBeUnlinkedFromEitherEnd() {
        String a = create("a");
        String b = create("b");
        h.submit(Requests.link(SPACE, AGENT, a, b, "related_to", 0.7));
        assertThat(h.submit(Requests.unlink(SPACE, AGENT, b, a)).getAccepted()).isTrue();
        assertThat(h.views.relations(SPACE, a)).isEmpty();
        assertThat(h.views.relations(SPACE, b)).isEmpty();
        assertThat(h.submit(Requests.unlink(SPACE, AGENT, a, b)).getCode()).isEqualTo("NOT_FOUND");
        assertThat(h.submit(Requests.link(SPACE, AGENT, a, b, "related_to", 0.7))
                        .getAccepted())
                .as("can be linked again after unlinking")
                .isTrue();
    }

    @Test
    void theStrongestEdgeOfEachMemoryIsKeptForTheRerank() {
        String a = create("a");
        String b = create("b");
        String c = create("c");
        h.submit(Requests.link(SPACE, AGENT, a, b, "related_to", 0.7));
        h.submit(Requests.link(SPACE, AGENT, c, a, "uses", 0.9));
        assertThat(h.views.relationStrength(SPACE, a)).isEqualTo(0.9);
        assertThat(h.views.relationStrength(SPACE, b)).isEqualTo(0.7);
        h.submit(Requests.unlink(SPACE, AGENT, c, a));
        assertThat(h.views.relationStrength(SPACE, a)).isEqualTo(0.7);
        assertThat(h.views.relationStrength(SPACE, c)).isZero();
    }
}
