package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.Tier;
import io.memorychain.domain.Rules;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sub-agent proposals on the real sequencer (docs/architecture.md §10): who proposes, who reviews, what a commit
 * writes.
 */
class ProposalRulesTest {

    private static final String SPACE = "acme-main";
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor CODER = Requests.actor(ActorType.SUBAGENT, "coder");
    private static final Actor MAIN = Requests.actor(ActorType.AGENT, "main");
    private static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "root");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final Actor WORKER = Requests.actor(ActorType.WORKER, "reflection");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private static ProposedMemory.Builder proposal(String content) {
        return ProposedMemory.newBuilder().setContent(content);
    }

    private String propose(Actor actor, ProposedMemory proposal) {
        MemoryOutcome o = h.submit(Requests.propose(SPACE, actor, proposal));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private String propose(String content) {
        return propose(RESEARCHER, proposal(content).build());
    }

    private MemoryOutcome resolve(Actor actor, String id, ProposalDecision decision) {
        return h.submit(Requests.resolve(SPACE, actor, id, decision, null));
    }

    private MemoryOutcome resolve(Actor actor, ResolveProposal.Builder op) {
        return h.submit(Requests.request(SPACE, actor, op.build()));
    }

    private void assertRejected(MemoryOutcome outcome, String code, String... messageParts) {
        assertThat(outcome.getAccepted()).as(outcome.getMessage()).isFalse();
        assertThat(outcome.getCode()).isEqualTo(code);
        assertThat(outcome.getMessage()).isNotBlank();
        for (String part : messageParts) {
            assertThat(outcome.getMessage()).contains(part);
        }
        assertThat(outcome.getSeq()).isNull();
    }

    @Test
    void subAgentsCannotWriteDirectlyOnlyPropose() {
        MemoryOutcome created = h.submit(Requests.create(SPACE, MAIN, "User prefers academic sources"));
        String id = created.getMemoryId();
        int chainBefore = h.chain().size();
        List<MemoryRequest> direct = List.of(
                Requests.create(SPACE, RESEARCHER, "sneaky").build(),
                Requests.updateContent(SPACE, RESEARCHER, id, "changed").build(),
                Requests.delete(SPACE, RESEARCHER, id).build(),
                Requests.restore(SPACE, RESEARCHER, id).build(),
                Requests.flag(SPACE, RESEARCHER, id, MemoryFlag.PINNED, true).build(),
                Requests.block(SPACE, RESEARCHER, "persona", "I am the researcher")
                        .build(),
                Requests.consolidate(SPACE, RESEARCHER, List.of(id), "merged", null)
                        .build(),
                Requests.link(SPACE, RESEARCHER, id, id, "related_to", 1.0).build());
        for (MemoryRequest request : direct) {
            assertRejected(h.submit(request), "FORBIDDEN", "sub-agents cannot change memory directly");
        }
        assertThat(h.chain()).hasSize(chainBefore);

        MemoryOutcome proposed = h.submit(Requests.propose(SPACE, RESEARCHER, "User prefers papers over blog posts"));
        assertThat(proposed.getAccepted()).isTrue();
        assertThat(proposed.getMemoryId()).startsWith("p");
        MemoryEvent event = h.chain().get(h.chain().size() - 1);
        assertThat(event.getActor()).isEqualTo(RESEARCHER);
        assertThat(event.getPayload()).isInstanceOfSatisfying(ProposalSubmitted.class, p -> {
            assertThat(p.getProposalId()).isEqualTo(proposed.getMemoryId());
            assertThat(p.getProposal().getContent()).isEqualTo("User prefers papers over blog posts");
        });
        assertThat(h.views.memory(SPACE, proposed.getMemoryId())).isEmpty();
    }

    @Test
    void aCommitAppendsTheResolutionByTheReviewerThenTheMemoryByCommitFromTheProposer() {
        Instant proposedAt = h.now;
        String pid = propose(
                RESEARCHER,
                proposal("User prefers academic sources over blog posts for technical topics")
                        .setKind(MemoryKind.SEMANTIC)
                        .setCategory("preferences")
                        .setTags(List.of("sources"))
                        .setEntities(List.of("preference--source-quality", "sources"))
                        .setConfidence(Confidence.HIGH)
                        .setImportance(4)
                        .setCoreWorthy(true)
                        .setTrigger("auto-detect during research task")
                        .build());
        h.advance(Duration.ofHours(1));

        MemoryOutcome committed = h.submit(Requests.resolve(SPACE, MAIN, pid, ProposalDecision.COMMIT, "useful"));

        assertThat(committed.getAccepted()).as(committed.getMessage()).isTrue();
        List<MemoryEvent> chain = h.chain();
        MemoryEvent resolution = chain.get(chain.size() - 2);
        MemoryEvent creation = chain.get(chain.size() - 1);
        assertThat(committed.getSeq()).isEqualTo(creation.getSeq()).isEqualTo(resolution.getSeq() + 1);
        assertThat(creation.getRequestId()).isEqualTo(resolution.getRequestId());
        assertThat(resolution.getActor()).isEqualTo(MAIN);
        assertThat(creation.getActor()).isEqualTo(Requests.actor(ActorType.AGENT, "commit-from:researcher"));
        assertThat(resolution.getPayload()).isInstanceOfSatisfying(ProposalResolved.class, r -> {
            assertThat(r.getDecision()).isEqualTo(ProposalDecision.COMMIT);
            assertThat(r.getMemoryId()).isEqualTo(committed.getMemoryId());
            assertThat(r.getReason()).isEqualTo("useful");
        });
        Memory memory = ((MemoryCreated) creation.getPayload()).getMemory();
        assertThat(memory.getId()).isEqualTo(committed.getMemoryId());
        assertThat(memory.getContent()).isEqualTo("User prefers academic sources over blog posts for technical topics");
        assertThat(memory.getCategory()).isEqualTo("preferences");
        assertThat(memory.getTags()).containsExactly("sources", "preference--source-quality");
        assertThat(memory.getTier()).as("core-worthy").isEqualTo(Tier.CORE);
        assertThat(memory.getConfidence()).isEqualTo(Confidence.HIGH);
        assertThat(memory.getImportance()).isEqualTo(4);
        assertThat(memory.getSource()).isEqualTo("proposal:" + pid);
        assertThat(memory.getActorId()).isEqualTo("researcher");
        assertThat(memory.getCreatedAt()).as("origin: when it was proposed").isEqualTo(proposedAt);
        assertThat(memory.getUpdatedAt()).isEqualTo(h.now);
        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(chain).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        assertThat(Canonical.toArray(creation.getPrevHash())).isEqualTo(Canonical.toArray(resolution.getHash()));
    }

    @Test
    void theReviewerOverridesStoreAndClassificationOnCommit() {
        String pid = propose(
                RESEARCHER,
                proposal("When refactoring, write the tests first")
                        .setCoreWorthy(true)
                        .setTags(List.of("refactoring"))
                        .setEntities(List.of("procedure--refactoring"))
                        .build());

        MemoryOutcome o = resolve(
                ADMIN,
                ResolveProposal.newBuilder()
                        .setProposalId(pid)
                        .setDecision(ProposalDecision.COMMIT)
                        .setKind(MemoryKind.PROCEDURAL)
                        .setTier(Tier.WORKING)
                        .setCategory("procedures")
                        .setTags(List.of("workflow"))
                        .setConfidence(Confidence.LOW)
                        .setImportance(2)
                        .setPinned(true)
                        .setSummary("tests first"));

        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        Memory m = h.views.memory(SPACE, o.getMemoryId()).orElseThrow();
        assertThat(m.getKind()).isEqualTo(MemoryKind.PROCEDURAL);
        assertThat(m.getTier()).isEqualTo(Tier.WORKING);
        assertThat(m.getCategory()).isEqualTo("procedures");
        assertThat(m.getTags()).containsExactly("workflow");
        assertThat(m.getConfidence()).isEqualTo(Confidence.LOW);
        assertThat(m.getImportance()).isEqualTo(2);
        assertThat(m.getPinned()).isTrue();
        assertThat(m.getSummary()).isEqualTo("tests first");
        assertThat(h.chain().get(h.chain().size() - 1).getActor())
                .isEqualTo(Requests.actor(ActorType.ADMIN, "commit-from:researcher"));
    }

    @Test
    void rejectingOrDeferringWritesNoMemoryAndADeferredProposalStaysReviewable() {
        String rejected = propose("Project deadline is March 15");
        String deferred =
                propose(CODER, proposal("Project deadline is March 30").build());
        long memoriesBefore = h.chain().stream()
                .filter(e -> e.getPayload() instanceof MemoryCreated)
                .count();

        MemoryOutcome r = resolve(MAIN, rejected, ProposalDecision.REJECT);
        MemoryOutcome d = resolve(MAIN, deferred, ProposalDecision.DEFER);

        assertThat(r.getAccepted()).isTrue();
        assertThat(r.getMemoryId()).isEqualTo(rejected);
        assertThat(r.getVersion()).isEqualTo(2);
        assertThat(d.getAccepted()).isTrue();
        assertThat(d.getVersion()).isEqualTo(2);
        assertThat(h.chain().stream()
                        .filter(e -> e.getPayload() instanceof MemoryCreated)
                        .count())
                .isEqualTo(memoriesBefore);

        MemoryOutcome deferredAgain = resolve(USER, deferred, ProposalDecision.DEFER);
        assertThat(deferredAgain.getAccepted()).as(deferredAgain.getMessage()).isTrue();
        assertThat(deferredAgain.getVersion()).isEqualTo(3);
        MemoryOutcome committed = resolve(MAIN, deferred, ProposalDecision.COMMIT);
        assertThat(committed.getAccepted()).as(committed.getMessage()).isTrue();
        assertThat(h.views.memory(SPACE, committed.getMemoryId()).orElseThrow().getContent())
                .isEqualTo("Project deadline is March 30");
    }

    @Test
    void resolvingACommittedOrRejectedProposalAgainIsAlreadyResolved() {
        String committed = propose("User's name is Ana");
        String rejected = propose("User's name is Anna");
        MemoryOutcome c = resolve(MAIN, committed, ProposalDecision.COMMIT);
        resolve(MAIN, rejected, ProposalDecision.REJECT);
        int chainBefore = h.chain().size();

        for (ProposalDecision decision : ProposalDecision.values()) {
            assertRejected(
                    resolve(MAIN, committed, decision),
                    "ALREADY_RESOLVED",
                    committed,
                    "already committed as memory " + c.getMemoryId(),
                    "agent:main");
            assertRejected(resolve(ADMIN, rejected, decision), "ALREADY_RESOLVED", rejected, "already rejected");
        }
        assertThat(h.chain()).hasSize(chainBefore);
    }

    @Test
    void onlyAgentsUsersAndAdminsResolveAndUsersAndAdminsDoNotPropose() {
        String pid = propose("User works at Acme");
        assertRejected(resolve(RESEARCHER, pid, ProposalDecision.COMMIT), "FORBIDDEN", "sub-agents");
        assertRejected(resolve(WORKER, pid, ProposalDecision.COMMIT), "FORBIDDEN", "worker:reflection cannot resolve");
        assertRejected(resolve(Requests.actor(ActorType.SYSTEM, "x"), pid, ProposalDecision.REJECT), "FORBIDDEN");
        assertRejected(h.submit(Requests.propose(SPACE, USER, "x")), "FORBIDDEN", "user:ana cannot propose");
        assertRejected(h.submit(Requests.propose(SPACE, ADMIN, "x")), "FORBIDDEN", "admin:root cannot propose");

        assertThat(h.submit(Requests.propose(SPACE, WORKER, "User works remotely"))
                        .getAccepted())
                .isTrue();
        assertThat(h.submit(Requests.propose(SPACE, MAIN, "User works in Berlin"))
                        .getAccepted())
                .isTrue();
        assertThat(resolve(USER, pid, ProposalDecision.COMMIT).getAccepted())
                .as("manual review by the user")
                .isTrue();
    }

    @Test
    void invalidProposalsAndResolutionsAreRejectedWithoutTouchingTheChain() {
        String pid = propose("Valid proposal");
        int chainBefore = h.chain().size();

        assertRejected(h.submit(Requests.propose(SPACE, RESEARCHER, " ")), "INVALID_ARGUMENT", "content");
        assertRejected(
                h.submit(Requests.propose(
                        SPACE,
                        RESEARCHER,
                        proposal("x").setKind(MemoryKind.BLOCK).build())),
                "INVALID_ARGUMENT",
                "blocks cannot be proposed");
        assertRejected(
                h.submit(Requests.propose(
                        SPACE, RESEARCHER, proposal("x").setImportance(9).build())),
                "INVALID_ARGUMENT",
                "importance");
        assertRejected(
                h.submit(Requests.propose(
                        SPACE,
                        RESEARCHER,
                        proposal("x").setEntities(List.of(" ")).build())),
                "INVALID_ARGUMENT",
                "entities");
        List<String> many = java.util.stream.IntStream.range(0, Rules.MAX_TAGS)
                .mapToObj(i -> "t" + i)
                .toList();
        assertRejected(
                h.submit(Requests.propose(
                        SPACE,
                        RESEARCHER,
                        proposal("x")
                                .setTags(many)
                                .setEntities(List.of("one-more"))
                                .build())),
                "INVALID_ARGUMENT",
                "tags and entities together");
        assertRejected(
                h.submit(Requests.propose(
                        SPACE, RESEARCHER, proposal("x".repeat(40_000)).build())),
                "TOO_LARGE");

        assertRejected(resolve(MAIN, "p0000zzz0000", ProposalDecision.COMMIT), "NOT_FOUND");
        assertRejected(
                h.submit(Requests.resolve("other-space", MAIN, pid, ProposalDecision.COMMIT, null)), "NOT_FOUND");
        assertRejected(
                h.submit(Requests.resolve(SPACE, MAIN, pid, ProposalDecision.COMMIT, null)
                        .setExpectedVersion(2)),
                "VERSION_CONFLICT",
                "at version 1");
        assertRejected(
                resolve(
                        MAIN,
                        ResolveProposal.newBuilder()
                                .setProposalId(pid)
                                .setDecision(ProposalDecision.REJECT)
                                .setKind(MemoryKind.EPISODIC)),
                "INVALID_ARGUMENT",
                "COMMIT only");
        assertRejected(
                resolve(
                        MAIN,
                        ResolveProposal.newBuilder()
                                .setProposalId(pid)
                                .setDecision(ProposalDecision.COMMIT)
                                .setKind(MemoryKind.BLOCK)),
                "INVALID_ARGUMENT",
                "BLOCK");
        assertRejected(
                resolve(
                        MAIN,
                        ResolveProposal.newBuilder()
                                .setProposalId(pid)
                                .setDecision(ProposalDecision.DEFER)
                                .setConflictsWith(Collections.nCopies(21, pid))),
                "INVALID_ARGUMENT",
                "conflicts_with");
        assertThat(h.chain()).hasSize(chainBefore);

        MemoryOutcome withVersion = h.submit(
                Requests.resolve(SPACE, MAIN, pid, ProposalDecision.DEFER, null).setExpectedVersion(1));
        assertThat(withVersion.getAccepted()).as(withVersion.getMessage()).isTrue();
    }

    @Test
    void aRetriedCommitReturnsTheOriginalOutcomeWithoutCommittingTwice() {
        String pid = propose("User likes jazz");
        MemoryRequest commit = Requests.resolve(SPACE, MAIN, pid, ProposalDecision.COMMIT, null)
                .build();
        MemoryOutcome first = h.submit(commit);
        int chainAfter = h.chain().size();

        MemoryOutcome again = h.submit(commit);

        assertThat(again).isEqualTo(first);
        assertThat(h.chain()).hasSize(chainAfter);
    }

    @Test
    void categoryAllowlistsApplyToTheProposerAndTheReviewer() {
        CategoryPolicy policy = new CategoryPolicy(
                Map.of(
                        "goals",
                        new Category("goals", ContextMode.RAG, 30),
                        "tone",
                        new Category("tone", ContextMode.ALL, 0)),
                Map.of("researcher", Set.of("goals"), "planner", Set.of("goals")));
        try (ChainHarness guarded = new ChainHarness(WriteSettings.defaults().withCategories(policy))) {
            Actor planner = Requests.actor(ActorType.AGENT, "planner");
            MemoryOutcome denied = guarded.submit(Requests.propose(
                    SPACE,
                    RESEARCHER,
                    proposal("Answer in rhymes").setCategory("tone").build()));
            assertRejected(denied, "CATEGORY_NOT_ALLOWED", "'tone'", "subagent researcher");

            String tone = guarded.submit(Requests.propose(
                            SPACE,
                            CODER,
                            proposal("Answer in rhymes").setCategory("tone").build()))
                    .getMemoryId();
            assertRejected(
                    guarded.submit(Requests.resolve(SPACE, planner, tone, ProposalDecision.REJECT, null)),
                    "CATEGORY_NOT_ALLOWED",
                    "proposal " + tone,
                    "'tone'");

            String goal = guarded.submit(Requests.propose(
                            SPACE,
                            RESEARCHER,
                            proposal("Ship in May").setCategory("goals").build()))
                    .getMemoryId();
            assertRejected(
                    guarded.submit(Requests.request(
                            SPACE,
                            planner,
                            ResolveProposal.newBuilder()
                                    .setProposalId(goal)
                                    .setDecision(ProposalDecision.COMMIT)
                                    .setCategory("tone")
                                    .build())),
                    "CATEGORY_NOT_ALLOWED",
                    "'tone'",
                    "agent planner");
            assertThat(guarded.submit(Requests.resolve(SPACE, planner, goal, ProposalDecision.COMMIT, null))
                            .getAccepted())
                    .isTrue();
        }
    }
}
