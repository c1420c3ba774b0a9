package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ContradictionFlagged;
import io.memorychain.avro.ContradictionResolution;
import io.memorychain.avro.ContradictionResolved;
import io.memorychain.avro.FlagContradiction;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ResolveContradiction;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.avro.view.ProposalStatus;
import io.memorychain.avro.view.Relation;
import io.memorychain.domain.contradiction.Contradictions;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Contradictions flagged and resolved on the real sequencer and projection (seed 001 §13.6, docs/architecture.md §10).
 */
class ContradictionRulesTest {

    private static final String SPACE = "acme-main";
    private static final Actor MAIN = Requests.actor(ActorType.AGENT, "main");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor WORKER = Requests.actor(ActorType.WORKER, "reflection");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        h.close();
    }

    private String memory(String content) {
        MemoryOutcome o = h.submit(Requests.create(SPACE, MAIN, content));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private String proposal(String content) {
        MemoryOutcome o = h.submit(Requests.propose(SPACE, RESEARCHER, content));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private MemoryOutcome flag(Actor actor, String a, String b) {
        return h.submit(Requests.request(SPACE, actor, new FlagContradiction(a, b, 0.91)));
    }

    private String flagged(String a, String b) {
        MemoryOutcome o = flag(MAIN, a, b);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private MemoryOutcome resolve(Actor actor, String id, ContradictionResolution how, String winner) {
        return h.submit(Requests.request(SPACE, actor, new ResolveContradiction(id, how, winner)));
    }

    private List<MemoryEvent> eventsOf(MemoryOutcome o) {
        return h.chain().stream()
                .filter(e -> e.getRequestId().equals(o.getRequestId()))
                .toList();
    }

    private Contradiction contradiction(String id) {
        return Contradictions.find(h.views.governance(SPACE), id).orElseThrow();
    }

    private static void assertRejected(MemoryOutcome o, String code, String part) {
        assertThat(o.getAccepted()).as(o.getMessage()).isFalse();
        assertThat(o.getCode()).isEqualTo(code);
        assertThat(o.getMessage()).contains(part);
    }

    @Test
    void aFlaggedContradictionIsOpenOnBothSides() {
        String a = memory("Project deadline is March 15");
        String b = memory("Project deadline is April 2");
        String x = flagged(a, b);

        assertThat(x).startsWith("x");
        assertThat(h.chain().get(h.chain().size() - 1).getPayload())
                .isInstanceOfSatisfying(
                        ContradictionFlagged.class,
                        f -> assertThat(f.getSimilarity()).isEqualTo(0.91));
        assertThat(Contradictions.openOf(h.views.governance(SPACE), a))
                .extracting(Contradiction::getId)
                .containsExactly(x);
        assertThat(Contradictions.openOf(h.views.governance(SPACE), b))
                .extracting(Contradiction::getId)
                .containsExactly(x);
        assertRejected(flag(MAIN, b, a), "INVALID_STATE", x);
        assertRejected(flag(MAIN, a, a), "INVALID_ARGUMENT", "itself");
        assertRejected(flag(MAIN, a, "m0000zzz0000"), "NOT_FOUND", "no memory");
        assertRejected(flag(RESEARCHER, a, b), "FORBIDDEN", "sub-agents");
        assertThat(flag(WORKER, a, proposal("Deadline moved to May")).getAccepted())
                .isTrue();
    }

    @Test
    void oneWinsSupersedesTheOtherMemoryInOneAuditedDecision() {
        String a = memory("Project deadline is March 15");
        String b = memory("Project deadline is April 2");
        String x = flagged(a, b);

        assertRejected(
                resolve(MAIN, x, ContradictionResolution.ONE_WINS, "m0000zzz0000"), "INVALID_ARGUMENT", "winner_id");
        assertRejected(resolve(MAIN, x, ContradictionResolution.ONE_WINS, null), "INVALID_ARGUMENT", "winner_id");
        MemoryOutcome o = resolve(MAIN, x, ContradictionResolution.ONE_WINS, b);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();

        List<MemoryEvent> events = eventsOf(o);
        assertThat(events).hasSize(2);
        assertThat(events.get(0).getPayload()).isInstanceOfSatisfying(ContradictionResolved.class, r -> {
            assertThat(r.getResolution()).isEqualTo(ContradictionResolution.ONE_WINS);
            assertThat(r.getWinnerId()).isEqualTo(b);
        });
        assertThat(events.get(1).getPayload()).isInstanceOf(MemoryUpdated.class);
        Memory loser = h.views.memory(SPACE, a).orElseThrow();
        assertThat(loser.getState()).isEqualTo(MemoryState.SUPERSEDED);
        assertThat(loser.getSupersededBy()).isEqualTo(b);
        assertThat(h.views.memory(SPACE, b).orElseThrow().getState()).isEqualTo(MemoryState.ACTIVE);
        assertThat(Contradictions.isOpen(contradiction(x))).isFalse();
        assertThat(h.views.audit(SPACE, 0, 100))
                .anySatisfy(line -> assertThat(line.toString())
                        .contains("contradiction " + x + " resolved: one_wins, " + b + " wins"));
        assertRejected(resolve(USER, x, ContradictionResolution.KEEP_BOTH, null), "ALREADY_RESOLVED", "one_wins");
    }

    @Test
    void oneWinsRejectsALosingProposal() {
        String m = memory("User prefers tea");
        String p = proposal("User prefers coffee");
        String x = flagged(p, m);
        MemoryOutcome o = resolve(USER, x, ContradictionResolution.ONE_WINS, m);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        assertThat(eventsOf(o).get(1).getPayload()).isInstanceOfSatisfying(ProposalResolved.class, r -> {
            assertThat(r.getDecision()).isEqualTo(ProposalDecision.REJECT);
            assertThat(r.getConflictsWith()).containsExactly(m);
        });
        assertThat(h.views.proposal(SPACE, p).orElseThrow().getStatus()).isEqualTo(ProposalStatus.REJECTED);
        assertThat(h.views.memory(SPACE, m).orElseThrow().getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void keepBothLowersConfidenceAndLinksThemAsContradictoryBothWays() {
        String a = memory("Project deadline is March 15");
        String b = memory("Project deadline is April 2");
        String x = flagged(a, b);
        MemoryOutcome o = resolve(MAIN, x, ContradictionResolution.KEEP_BOTH, null);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();

        assertThat(eventsOf(o))
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly(
                        "ContradictionResolved", "MemoryUpdated", "MemoryUpdated", "MemoriesLinked", "MemoriesLinked");
        for (String id : List.of(a, b)) {
            Memory m = h.views.memory(SPACE, id).orElseThrow();
            assertThat(m.getConfidence()).isEqualTo(Confidence.LOW);
            assertThat(m.getState()).isEqualTo(MemoryState.ACTIVE);
        }
        assertThat(h.views.relations(SPACE, a))
                .extracting(Relation::getFromId, Relation::getToId, Relation::getRelationType)
                .contains(
                        org.assertj.core.groups.Tuple.tuple(a, b, "contradicts"),
                        org.assertj.core.groups.Tuple.tuple(b, a, "contradicts"));
    }

    @Test
    void keepBothCommitsAProposalSideAtLowConfidence() {
        String m = memory("The API is versioned v1");
        String p = proposal("The API is versioned v2");
        String x = flagged(m, p);
        MemoryOutcome o = resolve(MAIN, x, ContradictionResolution.KEEP_BOTH, null);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();

        List<MemoryEvent> events = eventsOf(o);
        MemoryCreated created = (MemoryCreated) events.stream()
                .filter(e -> e.getPayload() instanceof MemoryCreated)
                .findFirst()
                .orElseThrow()
                .getPayload();
        assertThat(created.getMemory().getConfidence()).isEqualTo(Confidence.LOW);
        assertThat(created.getMemory().getSource()).isEqualTo("proposal:" + p);
        assertThat(h.views.proposal(SPACE, p).orElseThrow().getStatus()).isEqualTo(ProposalStatus.COMMITTED);
        String committed = created.getMemory().getId();
        assertThat(events)
                .filteredOn(e -> e.getPayload() instanceof MemoriesLinked)
                .extracting(e -> ((MemoriesLinked) e.getPayload()).getFromId() + ">"
                        + ((MemoriesLinked) e.getPayload()).getToId())
                .containsExactly(m + ">" + committed, committed + ">" + m);
    }

    @Test
    void askUserKeepsItOpenAsAQuestionUntilResolvedOtherwise() {
        String a = memory("Standup is at 9");
        String b = memory("Standup is at 10");
        String x = flagged(a, b);
        MemoryOutcome asked = resolve(MAIN, x, ContradictionResolution.ASK_USER, null);
        assertThat(asked.getAccepted()).as(asked.getMessage()).isTrue();
        assertThat(eventsOf(asked)).hasSize(1);
        assertThat(Contradictions.askingUser(h.views.governance(SPACE)))
                .extracting(Contradiction::getId)
                .containsExactly(x);
        assertRejected(resolve(MAIN, x, ContradictionResolution.ASK_USER, null), "INVALID_STATE", "already waits");

        MemoryOutcome answered = resolve(USER, x, ContradictionResolution.ONE_WINS, a);
        assertThat(answered.getAccepted()).as(answered.getMessage()).isTrue();
        assertThat(Contradictions.askingUser(h.views.governance(SPACE))).isEmpty();
        assertThat(contradiction(x).getResolvedBy()).isEqualTo(USER);
        assertThat(h.views.memory(SPACE, b).orElseThrow().getState()).isEqualTo(MemoryState.SUPERSEDED);
    }

    @Test
    void deletingASideClosesItsOpenContradictionsAsMootInTheSameTransaction() {
        String a = memory("Standup is at 9");
        String b = memory("Standup is at 10");
        String c = memory("Standup is at 11");
        String ab = flagged(a, b);
        String ac = flagged(a, c);
        assertThat(resolve(MAIN, ac, ContradictionResolution.ASK_USER, null).getAccepted())
                .isTrue();
        MemoryOutcome edited = h.submit(Requests.updateContent(SPACE, MAIN, b, "Standup is at 10:00"));
        assertThat(edited.getAccepted()).as(edited.getMessage()).isTrue();
        assertThat(eventsOf(edited)).hasSize(1);
        assertThat(Contradictions.isOpen(contradiction(ab)))
                .as("an edit that keeps the memory active")
                .isTrue();

        MemoryOutcome deleted = h.submit(Requests.delete(SPACE, USER, a));
        assertThat(deleted.getAccepted()).as(deleted.getMessage()).isTrue();
        assertThat(deleted.getMemoryId())
                .as("the outcome still names the deleted memory")
                .isEqualTo(a);
        List<MemoryEvent> events = eventsOf(deleted);
        assertThat(events)
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly("MemoryDeleted", "ContradictionResolved", "ContradictionResolved");
        assertThat(events.subList(1, 3)).allSatisfy(e -> {
            assertThat(e.getActor()).isEqualTo(Requests.actor(ActorType.SYSTEM, "contradictions"));
            assertThat(((ContradictionResolved) e.getPayload()).getResolution())
                    .isEqualTo(ContradictionResolution.MOOT);
        });
        for (String x : List.of(ab, ac)) {
            assertThat(contradiction(x).getResolution()).isEqualTo(ContradictionResolution.MOOT);
            assertRejected(resolve(MAIN, x, ContradictionResolution.KEEP_BOTH, null), "ALREADY_RESOLVED", "moot");
        }
        assertThat(Contradictions.open(h.views.governance(SPACE))).isEmpty();
        assertThat(Contradictions.askingUser(h.views.governance(SPACE))).isEmpty();
        assertThat(h.views.audit(SPACE, 0, 100))
                .anySatisfy(line -> assertThat(line.toString()).contains("contradiction " + ab + " resolved: moot"));
    }

    @Test
    void aLoserSupersededByOneContradictionClosesItsOtherOnesAsMoot() {
        String a = memory("Deadline is March 15");
        String b = memory("Deadline is April 2");
        String p = proposal("Deadline is May 1");
        String ab = flagged(a, b);
        String ap = flagged(a, p);
        MemoryOutcome o = resolve(MAIN, ab, ContradictionResolution.ONE_WINS, b);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        assertThat(eventsOf(o))
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly("ContradictionResolved", "MemoryUpdated", "ContradictionResolved");
        assertThat(contradiction(ab).getResolution()).isEqualTo(ContradictionResolution.ONE_WINS);
        assertThat(contradiction(ap).getResolution()).isEqualTo(ContradictionResolution.MOOT);
    }

    @Test
    void aProposalSideDecidedOtherwiseClosesItsContradictionAsMoot() {
        String m = memory("User prefers tea");
        String p = proposal("User prefers coffee");
        String x = flagged(m, p);
        MemoryOutcome rejected = h.submit(Requests.resolve(SPACE, MAIN, p, ProposalDecision.REJECT, "not now"));
        assertThat(rejected.getAccepted()).as(rejected.getMessage()).isTrue();
        assertThat(contradiction(x).getResolution()).isEqualTo(ContradictionResolution.MOOT);
        assertThat(h.views.memory(SPACE, m).orElseThrow().getState()).isEqualTo(MemoryState.ACTIVE);
    }

    @Test
    void nobodyResolvesAContradictionAsMoot() {
        String x = flagged(memory("Standup is at 9"), memory("Standup is at 10"));
        assertRejected(resolve(USER, x, ContradictionResolution.MOOT, null), "INVALID_ARGUMENT", "sequencer");
        assertThat(Contradictions.isOpen(contradiction(x))).isTrue();
    }
}
