package io.memorychain.projector.proposal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.proposal.ProposalFlag.Kind;
import io.memorychain.projector.proposal.ProposalFlag.Target;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Conflict and duplicate flags of open proposals with the real model (docs/architecture.md §10). */
class ProposalConflictsTest {

    private static final String SPACE = "acme-main";
    private static final Actor RESEARCHER = Requests.actor(ActorType.SUBAGENT, "researcher");
    private static final Actor CODER = Requests.actor(ActorType.SUBAGENT, "coder");
    private static final Actor MAIN = Requests.actor(ActorType.AGENT, "main");

    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());
    private final ProposalConflicts conflicts = new ProposalConflicts(
            SharedEmbedder.get(), ConflictBand.forModel(SharedEmbedder.get().modelId()));

    @AfterEach
    void close() {
        h.close();
    }

    private String propose(Actor actor, String content) {
        return propose(actor, content, null);
    }

    private String propose(Actor actor, String content, String category) {
        MemoryOutcome o = h.submit(Requests.propose(
                SPACE,
                actor,
                ProposedMemory.newBuilder()
                        .setContent(content)
                        .setCategory(category)
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private String remember(String content, String category) {
        MemoryOutcome o = h.submit(Requests.create(
                SPACE,
                MAIN,
                CreateMemory.newBuilder()
                        .setContent(content)
                        .setCategory(category)
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private Map<String, List<ProposalFlag>> flags(CategoryAccess access, Actor reader) {
        return conflicts.flags(h.views, SPACE, h.views.openProposals(SPACE), access, reader);
    }

    @Test
    void proposalsAboutTheSameSubjectWithDifferentContentAreFlaggedAsConflictsBothWays() {
        String march15 = propose(RESEARCHER, "Project deadline is March 15");
        String march30 = propose(CODER, "Project deadline is March 30");
        String tests = propose(CODER, "When refactoring, the user wants tests written first");
        String sameAsMarch15 = propose(CODER, "The project deadline is March 15.");

        Map<String, List<ProposalFlag>> flags = flags(CategoryAccess.unrestricted(), MAIN);

        assertThat(flags.get(march30))
                .extracting(ProposalFlag::id, ProposalFlag::target, ProposalFlag::kind)
                .containsExactlyInAnyOrder(
                        tuple(march15, Target.PROPOSAL, Kind.CONFLICT),
                        tuple(sameAsMarch15, Target.PROPOSAL, Kind.CONFLICT));
        assertThat(flags.get(march15))
                .extracting(ProposalFlag::id, ProposalFlag::kind)
                .contains(tuple(march30, Kind.CONFLICT), tuple(sameAsMarch15, Kind.DUPLICATE));
        assertThat(flags.get(tests)).isEmpty();
        assertThat(flags.get(march30))
                .allSatisfy(f -> assertThat(f.similarity())
                        .isBetween(
                                ConflictBand.forModel(SharedEmbedder.get().modelId())
                                        .min(),
                                ConflictBand.DEFAULT_MAX));
        ProposalFlag first = flags.get(march30).get(0);
        assertThat(first.similarity())
                .isGreaterThanOrEqualTo(flags.get(march30).get(1).similarity());
    }

    @Test
    void aProposalContradictingOrRepeatingAnActiveMemoryIsFlaggedWithThatMemory() {
        String berlin = remember("The user lives in Berlin.", null);
        String dark = remember("User prefers dark mode", null);
        remember("Alice is allergic to peanuts.", null);
        String munich = propose(RESEARCHER, "The user lives in Munich.");
        String again = propose(CODER, "user prefers dark mode!");

        Map<String, List<ProposalFlag>> flags = flags(CategoryAccess.unrestricted(), MAIN);

        assertThat(flags.get(munich))
                .extracting(ProposalFlag::id, ProposalFlag::target, ProposalFlag::kind)
                .containsExactly(tuple(berlin, Target.MEMORY, Kind.CONFLICT));
        assertThat(flags.get(again))
                .extracting(ProposalFlag::id, ProposalFlag::target, ProposalFlag::kind)
                .containsExactly(tuple(dark, Target.MEMORY, Kind.DUPLICATE));

        Proposal proposal = h.views.proposal(SPACE, munich).orElseThrow();
        assertThat(conflicts.flagsOf(
                        h.views, SPACE, proposal, h.views.openProposals(SPACE), CategoryAccess.unrestricted(), MAIN))
                .isEqualTo(flags.get(munich));
    }

    @Test
    void aMemorysOwnVectorFromTheViewsGivesTheFlagsOfItsTextWithoutRunningTheModel() {
        String berlin = remember("The user lives in Berlin.", null);
        remember("User prefers dark mode", null);
        String munich = remember("The user lives in Munich.", null);
        Memory memory = h.views.memory(SPACE, munich).orElseThrow();
        float[] own = h.views.vector(memory).orElseThrow();
        Embedder noModel = new Embedder() {
            @Override
            public String modelId() {
                return SharedEmbedder.get().modelId();
            }

            @Override
            public int dimensions() {
                return SharedEmbedder.get().dimensions();
            }

            @Override
            public float[] embed(String text) {
                throw new AssertionError("embedded again: " + text);
            }

            @Override
            public float[] embedQuery(String text) {
                throw new AssertionError("embedded again: " + text);
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                throw new AssertionError("embedded again: " + texts);
            }
        };

        List<ProposalFlag> byVector = new ProposalConflicts(noModel, ConflictBand.forModel(noModel.modelId()))
                .flagsOfText(h.views, SPACE, memory.getContent(), own, CategoryAccess.unrestricted(), MAIN);
        List<ProposalFlag> byText =
                conflicts.flagsOfText(h.views, SPACE, memory.getContent(), CategoryAccess.unrestricted(), MAIN);

        assertThat(byVector)
                .extracting(ProposalFlag::id, ProposalFlag::kind)
                .contains(tuple(berlin, Kind.CONFLICT))
                .isEqualTo(byText.stream().map(f -> tuple(f.id(), f.kind())).toList());
        for (int i = 0; i < byText.size(); i++) {
            assertThat(byVector.get(i).similarity()).isCloseTo(byText.get(i).similarity(), within(1e-4));
        }
    }

    @Test
    void aReaderIsNotToldAboutMemoriesOutsideItsCategories() {
        CategoryAccess access = new CategoryAccess(new CategoryPolicy(
                Map.of(
                        "goals",
                        new Category("goals", ContextMode.RAG, 30),
                        "home",
                        new Category("home", ContextMode.RAG, 30)),
                Map.of("planner", Set.of("goals"))));
        remember("The user lives in Berlin.", "home");
        String munich = propose(RESEARCHER, "The user lives in Munich.", "goals");

        Actor planner = Requests.actor(ActorType.AGENT, "planner");
        assertThat(flags(access, planner).get(munich)).isEmpty();
        assertThat(flags(access, MAIN).get(munich))
                .extracting(ProposalFlag::target)
                .containsExactly(Target.MEMORY);
    }
}
