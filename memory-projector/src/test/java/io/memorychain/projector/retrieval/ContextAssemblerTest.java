package io.memorychain.projector.retrieval;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.Tier;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ContextAssemblerTest {

    private static final String SPACE = "ctx";
    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());
    private final CategoryPolicy policy = new CategoryPolicy(
            Map.of(
                    "profile", new CategoryPolicy.Category("profile", CategoryPolicy.ContextMode.ALL, 0),
                    "tasks", new CategoryPolicy.Category("tasks", CategoryPolicy.ContextMode.RAG, 30),
                    "health", new CategoryPolicy.Category("health", CategoryPolicy.ContextMode.RAG, 30)),
            Map.of("planner", Set.of("tasks", "profile")));
    private final QueryService queries = new QueryService(
            h.views, h.embedder, policy, DecayModel.standard(), RankingWeights.DEFAULTS, AccessRecorder.NONE, h.clock);
    private final ContextAssembler assembler = new ContextAssembler(h.views, queries, policy);
    private String health;
    private String name;
    private String deploy;

    @BeforeEach
    void memories() {
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am a careful planning assistant."));
        health = create("The user is allergic to shellfish", "health", Tier.CORE, "t1");
        name = create("Preferred name is Ana", "profile", Tier.WORKING, "t1");
        deploy = create("The release deploy is scheduled for Thursday at 14:00", "tasks", Tier.WORKING, "t1");
        for (int i = 0; i < 15; i++) {
            create("Task " + i + ": review the deploy checklist item " + i, "tasks", Tier.WORKING, null);
        }
    }

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content, String category, Tier tier, String thread) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setCategory(category)
                                .setTier(tier)
                                .setThreadId(thread)
                                .build()))
                .getMemoryId();
    }

    @Test
    void coreThenHeaderThenAlwaysOnThenWorkingMemories() {
        ContextResult c =
                assembler.assemble(new ContextRequest(SPACE, null, "when is the deploy?", "t1", 0L, 2000), AGENT);
        // the agent wrote the critical persona block: its unacknowledged alert comes first (docs/architecture.md §21)
        assertThat(c.text())
                .startsWith("## Critical Change Alerts (pending user acknowledgment)\n- CRITICAL: block "
                        + "persona was modified (v1) by agent:planner")
                .contains("]\n\n## Who I Am\nI am a careful planning assistant.");
        assertThat(c.text().indexOf("Memory updates since rev 0"))
                .isGreaterThan(c.text().indexOf("shellfish"));
        assertThat(c.text().indexOf("Preferred name is Ana"))
                .isLessThan(c.text().indexOf("Thursday at 14:00"));
        assertThat(c.memoryIds()).contains(health, name, deploy);
        assertThat(c.memoryIds()).doesNotHaveDuplicates();
        assertThat(c.revision()).isEqualTo(3);
        assertThat(c.tokens()).isEqualTo(CoreFormatter.countTokens(c.text()));
    }

    @Test
    void neverExceedsTheBudgetAndCutsCoreOnlyWhenItAloneDoesNotFit() {
        for (int budget : new int[] {3, 12, 40, 90, 150, 400}) {
            ContextResult c =
                    assembler.assemble(new ContextRequest(SPACE, null, "deploy checklist", "t1", 0L, budget), AGENT);
            assertThat(CoreFormatter.countTokens(c.text()))
                    .as("budget %d", budget)
                    .isLessThanOrEqualTo(budget);
            assertThat(c.coreTruncated())
                    .isEqualTo(budget
                            < CoreFormatter.countTokens(h.views.core(SPACE).text()));
        }
    }

    @Test
    void saysWhichCoreMemoriesDidNotFitInsteadOfCuttingThemSilently() {
        int coreTokens = CoreFormatter.countTokens(h.views.core(SPACE).text());
        String persona = h.views.core(SPACE).memories().get(0).getId();
        // the persona block's critical-change alert comes first; then room for the persona block, not the rest
        int personaOnly = CoreFormatter.countTokens(ContextAssembler.alerts(h.views.governance(SPACE))
                + "\n\n## Who I Am\nI am a careful planning assistant.");

        ContextResult c =
                assembler.assemble(new ContextRequest(SPACE, null, "deploy", "t1", 0L, personaOnly + 2), AGENT);

        assertThat(c.coreTruncated()).isTrue();
        assertThat(c.coreTokens()).isEqualTo(coreTokens);
        assertThat(c.text()).contains("I am a careful planning assistant.").doesNotContain("shellfish");
        assertThat(c.memoryIds()).contains(persona).doesNotContain(health);
        assertThat(c.coreOmitted()).containsExactly(health);
        assertThat(c.warnings())
                .singleElement()
                .asString()
                .contains("max_tokens " + (personaOnly + 2))
                .contains("core memory (" + coreTokens + " tokens)")
                .contains("1 of its 2 memories were left out");

        ContextResult whole = assembler.assemble(new ContextRequest(SPACE, null, "deploy", "t1", 0L, 2000), AGENT);
        assertThat(whole.coreTruncated()).isFalse();
        assertThat(whole.coreOmitted()).isEmpty();
        assertThat(whole.warnings()).isEmpty();
        assertThat(whole.memoryIds()).contains(persona, health);
    }

    @Test
    void textNamingAModelsSpecialTokensIsCountedAsText() {
        // cl100k's special tokens are text in a memory (an agent noting how prompts end), not a reason to fail
        String note = create(
                "Prompts end with <|endoftext|> and code completion uses <|fim_prefix|>", "notes", Tier.CORE, "t1");
        ContextResult c =
                assembler.assemble(new ContextRequest(SPACE, null, "how do prompts end?", "t1", 0L, 2000), AGENT);
        assertThat(c.text()).contains("<|endoftext|>");
        assertThat(c.memoryIds()).contains(note);
        assertThat(CoreFormatter.countTokens("<|endoftext|>")).isGreaterThan(1);
        assertThat(c.tokens()).isEqualTo(CoreFormatter.countTokens(c.text()));
    }

    @Test
    void proceduresComeOnlyWhenTheMessageAsksHowToDoSomething() {
        String procedure = h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(
                                        "To deploy the release: run the checklist, tag the build, then press deploy")
                                .setKind(MemoryKind.PROCEDURAL)
                                .setCategory("tasks")
                                .build()))
                .getMemoryId();
        String always = h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Deploy procedure for profiles: export first")
                                .setKind(MemoryKind.PROCEDURAL)
                                .setCategory("profile")
                                .build()))
                .getMemoryId();

        ContextResult plain = assembler.assemble(
                new ContextRequest(SPACE, null, "the release deploy on Thursday", null, null, 2000), AGENT);
        assertThat(plain.memoryIds()).contains(deploy).doesNotContain(procedure, always);
        assertThat(plain.text()).doesNotContain("press deploy", "export first");

        ContextResult asked = assembler.assemble(
                new ContextRequest(SPACE, null, "how do I deploy the release?", null, null, 2000), AGENT);
        assertThat(asked.memoryIds()).contains(procedure, always);
        assertThat(asked.text()).contains("press deploy");
    }

    @Test
    void anAgentsContextLeavesOutCategoriesOutsideItsAllowlist() {
        ContextResult c = assembler.assemble(
                new ContextRequest(SPACE, "planner", "allergies and deploys", null, null, 2000), AGENT);
        assertThat(c.text()).doesNotContain("shellfish").contains("Preferred name is Ana");
        assertThat(c.memoryIds()).doesNotContain(health);
    }
}
