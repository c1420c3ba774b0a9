package io.memorychain.projector.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.ProposalStatus;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ViewSnapshot;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pending-proposals view and the audit trail of proposals (docs/architecture.md §10). */
class ProposalViewsTest {

    private static final String SPACE = "acme-main";
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor CODER = Requests.actor(ActorType.SUBAGENT, "coder");
    private static final Actor MAIN = Requests.actor(ActorType.AGENT, "main");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String propose(Actor actor, String content) {
        MemoryOutcome o = h.submit(Requests.propose(SPACE, actor, content));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private MemoryOutcome resolve(String id, ProposalDecision decision, String reason) {
        MemoryOutcome o = h.submit(Requests.resolve(SPACE, MAIN, id, decision, reason));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    @Test
    void thePendingViewListsPendingAndDeferredProposalsOldestFirstAndDropsResolvedOnes() {
        String academic = propose(RESEARCHER, "User prefers academic sources over blog posts");
        String tests = propose(CODER, "When refactoring, user wants tests written first");
        String deadline = propose(RESEARCHER, "Project deadline is March 15");
        String duplicate = propose(CODER, "User prefers academic sources over blog posts");
        h.submit(Requests.propose("other-space", RESEARCHER, "elsewhere"));

        assertThat(h.views.openProposals(SPACE))
                .extracting(Proposal::getId)
                .containsExactly(academic, tests, deadline, duplicate);
        Proposal pending = h.views.proposal(SPACE, academic).orElseThrow();
        assertThat(pending.getStatus()).isEqualTo(ProposalStatus.PENDING);
        assertThat(pending.getProposer()).isEqualTo(RESEARCHER);
        assertThat(pending.getVersion()).isEqualTo(1);
        assertThat(pending.getSubmittedAt()).isEqualTo(h.now);

        String memoryId = resolve(academic, ProposalDecision.COMMIT, "accepted").getMemoryId();
        resolve(duplicate, ProposalDecision.REJECT, "duplicate");
        resolve(deadline, ProposalDecision.DEFER, "ask the user");

        assertThat(h.views.openProposals(SPACE)).extracting(Proposal::getId).containsExactly(tests, deadline);
        assertThat(h.views.proposal(SPACE, deadline).orElseThrow()).satisfies(p -> {
            assertThat(p.getStatus()).isEqualTo(ProposalStatus.DEFERRED);
            assertThat(p.getVersion()).isEqualTo(2);
            assertThat(p.getReason()).isEqualTo("ask the user");
            assertThat(p.getResolvedBy()).isEqualTo(MAIN);
        });
        assertThat(h.views.proposal(SPACE, academic).orElseThrow()).satisfies(p -> {
            assertThat(p.getStatus()).isEqualTo(ProposalStatus.COMMITTED);
            assertThat(p.getMemoryId()).isEqualTo(memoryId);
        });
        assertThat(h.views.proposal(SPACE, duplicate).orElseThrow().getStatus()).isEqualTo(ProposalStatus.REJECTED);
        assertThat(h.views.proposal(SPACE, "p0000zzz0000")).isEmpty();
        assertThat(h.views.proposal("other-space", academic)).isEmpty();
        assertThat(h.views.openProposals("other-space")).hasSize(1);
    }

    @Test
    void aCommittedProposalIsAnActiveMemoryWhoseHistoryAndAuditNameTheSubAgent() {
        String pid = propose(RESEARCHER, "User prefers academic sources over blog posts");
        String rejected = propose(CODER, "User prefers blogs");
        h.submit(Requests.request(
                SPACE,
                MAIN,
                ResolveProposal.newBuilder()
                        .setProposalId(rejected)
                        .setDecision(ProposalDecision.REJECT)
                        .setReason("contradicts an accepted proposal")
                        .setConflictsWith(List.of(pid))
                        .build()));
        String memoryId = resolve(pid, ProposalDecision.COMMIT, null).getMemoryId();

        assertThat(h.views.memory(SPACE, memoryId).orElseThrow().getContent())
                .isEqualTo("User prefers academic sources over blog posts");
        assertThat(h.views.history(SPACE, memoryId)).singleElement().satisfies((HistoryEntry e) -> {
            assertThat(e.getEventType()).isEqualTo("MemoryCreated");
            assertThat(e.getActor()).isEqualTo(Requests.actor(ActorType.AGENT, "commit-from:researcher"));
        });
        List<AuditEntry> audit = h.views.audit(SPACE, 0, 100);
        assertThat(audit)
                .extracting(a -> a.getActor().getType() + ":" + a.getActor().getId() + " " + a.getDescription())
                .containsExactly(
                        "SUBAGENT:researcher proposed " + pid + ": User prefers academic sources over blog posts",
                        "SUBAGENT:coder proposed " + rejected + ": User prefers blogs",
                        "AGENT:main rejected proposal " + rejected + " (conflicts with " + pid
                                + "): contradicts an accepted proposal",
                        "AGENT:main committed proposal " + pid + " as " + memoryId,
                        "AGENT:commit-from:researcher created " + memoryId
                                + ": User prefers academic sources over blog posts");
        assertThat(audit.get(2).getEventType()).isEqualTo("ProposalResolved");
        assertThat(audit.get(3).getRequestId()).isEqualTo(audit.get(4).getRequestId());
        assertThat(h.views.proposal(SPACE, rejected).orElseThrow().getConflictsWith())
                .containsExactly(pid);
    }

    @Test
    void replayingTheChainIntoAFreshProjectionRebuildsTheSameProposalViews() {
        String a = propose(RESEARCHER, "A");
        String b = propose(CODER, "B");
        propose(CODER, "C");
        resolve(a, ProposalDecision.COMMIT, null);
        resolve(b, ProposalDecision.DEFER, null);
        try (ChainHarness fresh = new ChainHarness()) {
            for (MemoryEvent e : h.chain()) {
                fresh.replayIntoProjection(e);
            }
            assertThat(fresh.views.openProposals(SPACE)).isEqualTo(h.views.openProposals(SPACE));
            for (String id : List.of(a, b)) {
                assertThat(fresh.views.proposal(SPACE, id)).isEqualTo(h.views.proposal(SPACE, id));
            }
            assertThat(ViewSnapshot.of(fresh.views, SPACE)).isEqualTo(ViewSnapshot.of(h.views, SPACE));
        }
    }
}
