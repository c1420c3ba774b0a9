package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.ReviewMode;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.ProposalStatus;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.domain.review.ReviewPolicy;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Review modes of sub-agent proposals on the real sequencer (seed 001 §13.4, docs/architecture.md §10). */
class ReviewModeTest {

    private static final String SPACE = "acme-main";
    private static final String MANUAL_SPACE = "acme-legal";
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor CODER = Requests.actor(ActorType.SUBAGENT, "coder");
    private static final Actor INTERN = Requests.actor(ActorType.SUBAGENT, "intern");
    private static final Actor MAIN = Requests.actor(ActorType.AGENT, "main");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "root");

    /** acme-legal is manual; researcher is trusted and auto-commits; coder auto-commits but is not trusted. */
    private static final ReviewPolicy POLICY = new ReviewPolicy(
            ReviewMode.BATCH,
            Map.of(MANUAL_SPACE, ReviewMode.MANUAL),
            Map.of("researcher", ReviewMode.AUTO_COMMIT, "coder", ReviewMode.AUTO_COMMIT),
            Set.of("researcher"),
            Confidence.HIGH);

    private final ChainHarness h = new ChainHarness(WriteSettings.defaults().withReviews(POLICY));

    @AfterEach
    void close() {
        h.close();
    }

    private MemoryOutcome propose(String space, Actor actor, String content, Confidence confidence) {
        MemoryOutcome o = h.submit(Requests.propose(
                space,
                actor,
                ProposedMemory.newBuilder()
                        .setContent(content)
                        .setConfidence(confidence)
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    @Test
    void trustedHighConfidenceProposalIsCommittedAtOnceAndRecordedAsAutoCommitted() {
        int before = h.chain().size();
        MemoryOutcome o = propose(SPACE, RESEARCHER, "User prefers academic sources", Confidence.HIGH);

        List<MemoryEvent> events = h.chain().subList(before, h.chain().size());
        assertThat(events).hasSize(3);
        assertThat(events)
                .extracting(MemoryEvent::getRequestId)
                .containsOnly(events.get(0).getRequestId());
        ProposalSubmitted submitted = (ProposalSubmitted) events.get(0).getPayload();
        assertThat(submitted.getReviewMode()).isEqualTo(ReviewMode.AUTO_COMMIT);
        assertThat(events.get(0).getActor()).isEqualTo(RESEARCHER);
        assertThat(events.get(1).getPayload()).isInstanceOfSatisfying(ProposalResolved.class, r -> {
            assertThat(r.getDecision()).isEqualTo(ProposalDecision.COMMIT);
            assertThat(r.getAutoCommitted()).isTrue();
            assertThat(r.getReason()).contains("auto-committed", "researcher", "high");
        });
        assertThat(events.get(1).getActor()).isEqualTo(new Actor(ActorType.SYSTEM, "auto-commit"));
        MemoryCreated created = (MemoryCreated) events.get(2).getPayload();
        assertThat(events.get(2).getActor()).isEqualTo(new Actor(ActorType.SYSTEM, "commit-from:researcher"));
        assertThat(o.getMemoryId()).isEqualTo(created.getMemory().getId());
        assertThat(h.views.memory(SPACE, o.getMemoryId()))
                .get()
                .satisfies(m -> assertThat(m.getSource()).isEqualTo("proposal:" + submitted.getProposalId()));
        Proposal proposal = h.views.proposal(SPACE, submitted.getProposalId()).orElseThrow();
        assertThat(proposal.getStatus()).isEqualTo(ProposalStatus.COMMITTED);
        assertThat(proposal.getReviewMode()).isEqualTo(ReviewMode.AUTO_COMMIT);
        assertThat(h.views.openProposals(SPACE)).isEmpty();
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
    }

    @Test
    void autoCommitFallsBackToBatchBelowTheThresholdOrForAnUntrustedKey() {
        MemoryOutcome medium = propose(SPACE, RESEARCHER, "Deadline is maybe March 15", Confidence.MEDIUM);
        MemoryOutcome untrusted = propose(SPACE, CODER, "Tests run with mvn verify", Confidence.HIGH);

        for (MemoryOutcome o : List.of(medium, untrusted)) {
            Proposal p = h.views.proposal(SPACE, o.getMemoryId()).orElseThrow();
            assertThat(p.getStatus()).isEqualTo(ProposalStatus.PENDING);
            assertThat(p.getReviewMode()).isEqualTo(ReviewMode.BATCH);
        }
        assertThat(h.views.openProposals(SPACE)).hasSize(2);
        MemoryOutcome committed =
                h.submit(Requests.resolve(SPACE, MAIN, medium.getMemoryId(), ProposalDecision.COMMIT, "checked"));
        assertThat(committed.getAccepted()).as(committed.getMessage()).isTrue();
        MemoryEvent resolved = h.chain().get(h.chain().size() - 2);
        assertThat(resolved.getActor()).isEqualTo(MAIN);
        assertThat(((ProposalResolved) resolved.getPayload()).getAutoCommitted())
                .isFalse();
    }

    @Test
    void batchIsTheDefaultForOtherKeys() {
        MemoryOutcome o = propose(SPACE, INTERN, "User likes tea", Confidence.HIGH);
        assertThat(h.views.proposal(SPACE, o.getMemoryId()).orElseThrow().getReviewMode())
                .isEqualTo(ReviewMode.BATCH);
        try (ChainHarness plain = new ChainHarness()) {
            MemoryOutcome d = plain.submit(Requests.propose(
                    SPACE,
                    RESEARCHER,
                    ProposedMemory.newBuilder()
                            .setContent("x")
                            .setConfidence(Confidence.HIGH)
                            .build()));
            assertThat(plain.views
                            .proposal(SPACE, d.getMemoryId())
                            .orElseThrow()
                            .getStatus())
                    .isEqualTo(ProposalStatus.PENDING);
        }
    }

    @Test
    void manualProposalsAreDecidedByAUserOnly() {
        MemoryOutcome o = propose(MANUAL_SPACE, INTERN, "Contract renews on June 1", Confidence.HIGH);
        String id = o.getMemoryId();
        assertThat(h.views.proposal(MANUAL_SPACE, id).orElseThrow().getReviewMode())
                .isEqualTo(ReviewMode.MANUAL);

        for (Actor reviewer : List.of(MAIN, ADMIN)) {
            for (ProposalDecision decision : ProposalDecision.values()) {
                MemoryOutcome denied = h.submit(Requests.resolve(MANUAL_SPACE, reviewer, id, decision, null));
                assertThat(denied.getAccepted()).isFalse();
                assertThat(denied.getCode()).isEqualTo("FORBIDDEN");
                assertThat(denied.getMessage()).contains("manual review", "only a user");
            }
        }
        MemoryOutcome decided = h.submit(Requests.resolve(MANUAL_SPACE, USER, id, ProposalDecision.COMMIT, "true"));
        assertThat(decided.getAccepted()).as(decided.getMessage()).isTrue();
        assertThat(h.views.proposal(MANUAL_SPACE, id).orElseThrow().getStatus()).isEqualTo(ProposalStatus.COMMITTED);
    }

    @Test
    void aProposersOwnModeWinsOverItsSpaces() {
        MemoryOutcome o = propose(MANUAL_SPACE, RESEARCHER, "Paper X is peer reviewed", Confidence.HIGH);
        assertThat(h.views.memory(MANUAL_SPACE, o.getMemoryId())).isPresent();
    }
}
