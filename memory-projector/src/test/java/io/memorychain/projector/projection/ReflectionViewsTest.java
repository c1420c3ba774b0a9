package io.memorychain.projector.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ViewSnapshot;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reflection log through the sequencer and the projection (docs/architecture.md §18). */
class ReflectionViewsTest {

    private static final String SPACE = "acme-main";
    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "main");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final Actor REFLECT = Requests.actor(ActorType.WORKER, "reflect");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private MemoryOutcome accepted(MemoryOutcome o) {
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    private String proposeReflection(String fact) {
        ReflectionDocument doc = ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.THRESHOLD)
                .setTriggerDetail("2 unprocessed episodes")
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(2)
                .setSummary("# Reflection 1")
                .setEvolutionInsights(List.of("Ana decides quickly"))
                .setChanges(List.of(
                        ReflectionChange.newBuilder()
                                .setChangeId("c1")
                                .setType(ReflectionChangeType.CREATE_MEMORY)
                                .setContent("Ana prefers Friday launches")
                                .setReason("two episodes")
                                .build(),
                        ReflectionChange.newBuilder()
                                .setChangeId("c2")
                                .setType(ReflectionChangeType.UPDATE_MEMORY)
                                .setMemoryId(fact)
                                .setImportance(5)
                                .setReason("decided twice")
                                .build()))
                .build();
        return accepted(h.submit(Requests.proposeReflection(SPACE, REFLECT, doc)))
                .getMemoryId();
    }

    @Test
    void aPartialApprovalAppliesItsChangesAndTheLogShowsBoth() {
        accepted(h.submit(Requests.create(SPACE, AGENT, "Launch moved to Friday")));
        String fact = accepted(h.submit(Requests.create(SPACE, AGENT, "Launch day is Friday")))
                .getMemoryId();
        String id = proposeReflection(fact);

        Reflection pending = h.views.reflection(SPACE, id).orElseThrow();
        assertThat(pending.getStatus()).isEqualTo(ReflectionStatus.PENDING);
        assertThat(pending.getProposedBy()).isEqualTo(REFLECT);
        assertThat(h.views.memory(SPACE, fact).orElseThrow().getImportance()).isEqualTo(3);

        MemoryOutcome decided = accepted(h.submit(Requests.decideReflection(
                SPACE, USER, id, ReflectionDecisionType.PARTIAL, "only the new fact", List.of("c1"), List.of())));
        Reflection r = h.views.reflection(SPACE, id).orElseThrow();
        assertThat(r.getStatus()).isEqualTo(ReflectionStatus.PARTIALLY_APPROVED);
        assertThat(r.getDecidedBy()).isEqualTo(USER);
        assertThat(r.getAppliedChangeIds()).containsExactly("c1");
        assertThat(decided.getMemoryId()).isEqualTo(r.getMemoryIds().get(0));
        assertThat(h.views.memory(SPACE, r.getMemoryIds().get(0)).orElseThrow().getContent())
                .isEqualTo("Ana prefers Friday launches");
        assertThat(h.views.memory(SPACE, fact).orElseThrow().getImportance()).isEqualTo(3);
        assertThat(h.views.reflections(SPACE)).extracting(Reflection::getId).containsExactly(id);

        List<AuditEntry> audit = h.views.audit(SPACE, 0, 100);
        assertThat(audit.subList(2, audit.size()))
                .extracting(AuditEntry::getEventType)
                .containsExactly("ReflectionProposed", "ReflectionDecided", "MemoryCreated");
        assertThat(audit.get(4).getActor()).isEqualTo(Requests.actor(ActorType.USER, "reflection:" + id));

        MemoryOutcome again = h.submit(Requests.decideReflection(
                SPACE, AGENT, id, ReflectionDecisionType.APPROVE, null, List.of(), List.of()));
        assertThat(again.getCode()).isEqualTo("ALREADY_RESOLVED");

        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain())
                .filteredOn(e -> e.getSpace().equals(SPACE))
                .allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        try (ChainHarness fresh = new ChainHarness()) {
            for (MemoryEvent e : h.chain()) {
                fresh.replayIntoProjection(e);
            }
            assertThat(fresh.views.reflections(SPACE)).isEqualTo(h.views.reflections(SPACE));
            assertThat(ViewSnapshot.of(fresh.views, SPACE)).isEqualTo(ViewSnapshot.of(h.views, SPACE));
        }
    }

    @Test
    void aManualRequestIsOnTheChain() {
        MemoryOutcome o = accepted(h.submit(Requests.requestReflection(SPACE, USER, "reflect on your memories")));
        assertThat(h.chain().get(h.chain().size() - 1).getPayload().getClass().getSimpleName())
                .isEqualTo("ReflectionRequested");
        assertThat(o.getMemoryId()).isNull();
    }
}
