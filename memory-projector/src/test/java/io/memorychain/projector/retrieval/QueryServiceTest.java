package io.memorychain.projector.retrieval;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecayInputs;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.domain.category.CategoryNotAllowedException;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.search.SearchFilters;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class QueryServiceTest {

    private static final String SPACE = "qs";
    private static final io.memorychain.avro.Actor LIFECYCLE = Requests.actor(ActorType.WORKER, "lifecycle");
    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());
    private final List<MemoryAccess> accesses = new ArrayList<>();
    private final CategoryPolicy policy = new CategoryPolicy(
            Map.of(
                    "tasks", new CategoryPolicy.Category("tasks", CategoryPolicy.ContextMode.RAG, 2),
                    "profile", new CategoryPolicy.Category("profile", CategoryPolicy.ContextMode.ALL, 0),
                    "health", new CategoryPolicy.Category("health", CategoryPolicy.ContextMode.RAG, 30)),
            Map.of("planner", Set.of("tasks")));
    private final QueryService service = new QueryService(
            h.views,
            h.embedder,
            policy,
            DecayModel.standard(),
            RankingWeights.DEFAULTS,
            a -> {
                accesses.add(a);
                h.recordAccess(a);
            },
            h.clock);

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content, String category, int importance) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setCategory(category)
                                .setImportance(importance)
                                .build()))
                .getMemoryId();
    }

    private String entity(String content) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setKind(MemoryKind.ENTITY)
                                .build()))
                .getMemoryId();
    }

    private List<String> ids(QueryRequest q) {
        return service.query(q, AGENT).items().stream()
                .map(QueryResult.Item::id)
                .toList();
    }

    private String turn(String thread, String speaker, String text) {
        h.advance(Duration.ofSeconds(1));
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.EPISODIC)
                                .setContent(speaker + ": " + text)
                                .setUserId(speaker)
                                .setThreadId(thread)
                                .build()))
                .getMemoryId();
    }

    @Test
    void aReplyIsFoundThroughTheTurnBeforeItInItsThread() {
        turn("session-1", "Caroline", "Did you finally adopt the dog from the shelter?");
        String reply = turn("session-1", "Melanie", "Yes, I did!");
        turn("session-2", "Caroline", "Did you try the new bakery on Main Street?");
        String otherReply = turn("session-2", "Melanie", "Yes, I did!");
        turn("session-3", "Caroline", "Did you finish the marathon in the rain?");
        turn("session-3", "Melanie", "Yes, I did!");
        turn("session-4", "Caroline", "Did you call your sister about the wedding?");
        turn("session-4", "Melanie", "Yes, I did!");
        QueryRequest q = QueryRequest.of(SPACE, null, "shelter dog adoption").withTopK(8);

        List<String> withContext = ids(q);
        QueryService alone = new QueryService(
                h.views,
                h.embedder,
                policy,
                DecayModel.standard(),
                RankingWeights.DEFAULTS.withoutThreadContext(),
                a -> {},
                h.clock);
        List<String> withoutContext =
                alone.query(q, AGENT).items().stream().map(QueryResult.Item::id).toList();

        assertThat(withContext.indexOf(reply))
                .as("with context: %s", withContext)
                .isBetween(0, 1)
                .isLessThan(withContext.indexOf(otherReply));
        // the four replies are the same text: alone, the oldest (this one) ranks below the others (recency)
        assertThat(withoutContext.indexOf(reply))
                .as("without context: %s", withoutContext)
                .isGreaterThan(withoutContext.indexOf(otherReply));
    }

    @Test
    void findsByMeaningAndByExactCodeAndRecordsTheAccess() {
        String cat = create("The user adopted a kitten named Miso", null, 3);
        String invoice = create("Invoice INV-2024-117 was paid late by Globex", null, 3);
        create("Quarterly revenue grew eleven percent", null, 3);
        assertThat(ids(QueryRequest.of(SPACE, null, "does the user have a pet?"))
                        .get(0))
                .isEqualTo(cat);
        assertThat(ids(QueryRequest.of(SPACE, null, "INV-2024-117")).get(0)).isEqualTo(invoice);
        assertThat(accesses).hasSize(2);
        long returnedInvoice = accesses.stream()
                .filter(a -> a.getMemoryIds().contains(invoice))
                .count();
        assertThat(returnedInvoice).isPositive();
        assertThat(h.views.access(SPACE, invoice))
                .get()
                .extracting(a -> a.getCount())
                .isEqualTo(returnedInvoice);
    }

    @Test
    void theQueryIsEmbeddedInTheQueryFormAndMemoriesInThePassageForm() {
        List<String> queries = new ArrayList<>();
        List<String> passages = new ArrayList<>();
        Embedder real = SharedEmbedder.get();
        Embedder recording = new Embedder() {
            @Override
            public String modelId() {
                return real.modelId();
            }

            @Override
            public int dimensions() {
                return real.dimensions();
            }

            @Override
            public float[] embed(String text) {
                passages.add(text);
                return real.embed(text);
            }

            @Override
            public float[] embedQuery(String text) {
                queries.add(text);
                return real.embedQuery(text);
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                passages.addAll(texts);
                return real.embedAll(texts);
            }
        };
        try (ChainHarness own = new ChainHarness(recording)) {
            String cat = own.submit(Requests.create(
                            SPACE,
                            AGENT,
                            CreateMemory.newBuilder()
                                    .setContent("The user adopted a kitten named Miso")
                                    .build()))
                    .getMemoryId();
            QueryService queryService = new QueryService(
                    own.views, recording, policy, DecayModel.standard(), RankingWeights.DEFAULTS, a -> {}, own.clock);

            assertThat(queryService
                            .query(QueryRequest.of(SPACE, null, "does the user have a pet?"), AGENT)
                            .items())
                    .extracting(QueryResult.Item::id)
                    .startsWith(cat);
            assertThat(queries).containsExactly("does the user have a pet?");
            assertThat(passages).containsExactly("The user adopted a kitten named Miso");
        }
    }

    @Test
    void categoriesOutsideTheAllowlistAreRefusedAndOthersNeverReturned() {
        String task = create("Ship the billing migration by Friday", "tasks", 3);
        String health = create("The user is allergic to shellfish", "health", 3);
        String loose = create("The billing migration is risky", null, 3);
        assertThatThrownBy(() -> service.query(
                        new QueryRequest(
                                SPACE,
                                "planner",
                                "allergy",
                                List.of("health"),
                                null,
                                5,
                                null,
                                null,
                                null,
                                false,
                                false,
                                null,
                                null),
                        AGENT))
                .isInstanceOf(CategoryNotAllowedException.class);
        assertThatThrownBy(() -> service.query(
                        new QueryRequest(
                                SPACE,
                                "planner",
                                "allergy",
                                null,
                                SearchFilters.builder().category("health").build(),
                                5,
                                null,
                                null,
                                null,
                                false,
                                false,
                                null,
                                null),
                        AGENT))
                .isInstanceOf(CategoryNotAllowedException.class);
        assertThat(ids(QueryRequest.of(SPACE, "planner", "shellfish allergy billing migration")
                        .withTopK(10)))
                .contains(task, loose)
                .doesNotContain(health);
        assertThat(ids(QueryRequest.of(SPACE, "someone-else", "shellfish allergy")
                        .withTopK(10)))
                .contains(health);
    }

    @Test
    void ragLengthCapsResultsPerCategory() {
        for (int i = 0; i < 5; i++) {
            create("Deployment task number " + i + " for the release", "tasks", 3);
        }
        String other = create("Deployment checklist lives in the wiki", null, 3);
        List<String> found =
                ids(QueryRequest.of(SPACE, null, "deployment release task").withTopK(10));
        assertThat(found).hasSize(3).contains(other);
    }

    @Test
    void theAnswerNeverExceedsTheTokenBudget() {
        for (int i = 0; i < 20; i++) {
            create(
                    "Note " + i + ": the Atlas project uses PostgreSQL with logical replication to the warehouse, "
                            + "which the data team maintains on weekdays",
                    null,
                    3);
        }
        for (int budget : new int[] {5, 30, 64, 100, 333}) {
            QueryResult r = service.query(
                    new QueryRequest(
                            SPACE,
                            null,
                            "Atlas database replication",
                            null,
                            null,
                            20,
                            QueryRequest.Format.BULLETS,
                            budget,
                            null,
                            false,
                            false,
                            null,
                            null),
                    AGENT);
            assertThat(r.tokens()).isLessThanOrEqualTo(budget);
            assertThat(io.memorychain.domain.core.CoreFormatter.countTokens(r.render()))
                    .isLessThanOrEqualTo(budget);
            assertThat(r.items().size() + r.omitted()).isEqualTo(20);
        }
    }

    @Test
    void supersededMemoriesAppearOnlyWhenAskedForAndDeletedOnesNever() {
        String a = create("The user's favourite colour is green", null, 3);
        String b = create("The user's favourite colour is teal", null, 3);
        String merged = h.submit(Requests.consolidate(
                        SPACE, AGENT, List.of(a, b), "The user's favourite colour changed from green to teal", "merge"))
                .getMemoryId();
        String deleted = create("The user's favourite colour might be red", null, 3);
        h.submit(Requests.delete(SPACE, AGENT, deleted));
        QueryRequest q = QueryRequest.of(SPACE, null, "favourite colour").withTopK(10);
        assertThat(ids(q)).containsExactly(merged);
        QueryRequest withSuperseded = new QueryRequest(
                SPACE, null, "favourite colour", null, null, 10, null, null, null, true, false, null, null);
        assertThat(ids(withSuperseded)).containsExactlyInAnyOrder(merged, a, b);
    }

    @Test
    void insightsRankBelowAStatedFactAsRelevantButAreStillReturned() {
        String insight = h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("User prefers short answers in the morning")
                                .setKind(MemoryKind.INSIGHT)
                                .setImportance(3)
                                .build()))
                .getMemoryId();
        String fact = create("User prefers short answers in the morning", null, 3);

        assertThat(ids(QueryRequest.of(SPACE, null, "short answers morning"))).containsExactly(fact, insight);
    }

    @Test
    void decayDemotesStaleMemories() {
        String old = create("Standup meeting moved to 9:30", null, 3);
        h.advance(Duration.ofDays(40));
        String fresh = create("Standup meeting moved to 10:00", null, 3);
        assertThat(ids(QueryRequest.of(SPACE, null, "standup meeting time"))).containsExactly(fresh, old);
    }

    private void transition(String id, DecayStatus to) {
        Instant now = h.clock.instant();
        h.submit(Requests.request(
                SPACE,
                LIFECYCLE,
                new TransitionDecay(id, to, 0.1, new DecayInputs(now, now, 0.0, 0L, 0.7, 1.2, 0.03))));
    }

    @Test
    void onlyChainEventsHideMemories_dormantOnRequest_archivedNever_staleButUntransitionedStillReturned() {
        String archived = create("Standup meeting moved to 9:00", null, 3);
        String dormant = create("Standup meeting moved to 9:30", null, 3);
        String stale = create("Standup meeting moved to 8:30", null, 3);
        h.advance(Duration.ofDays(130)); // by the clock all three score 0.7*e^(-3.9)*1.2 = 0.017: archive level
        String fresh = create("Standup meeting moved to 10:00", null, 3);
        transition(dormant, DecayStatus.DORMANT);
        transition(archived, DecayStatus.ARCHIVED);

        List<String> byDefault = ids(QueryRequest.of(SPACE, null, "standup meeting time"));
        List<String> withDormant = ids(new QueryRequest(
                SPACE, null, "standup meeting time", null, null, 5, null, null, null, false, true, null, null));

        assertThat(byDefault).as("no archival event: ranked low, never hidden").containsExactly(fresh, stale);
        assertThat(withDormant)
                .startsWith(fresh)
                .containsExactlyInAnyOrder(fresh, stale, dormant)
                .doesNotContain(archived);
        QueryResult result = service.query(
                new QueryRequest(
                        SPACE, null, "standup meeting time", null, null, 5, null, null, null, false, true, null, null),
                AGENT);
        assertThat(result.items())
                .filteredOn(i -> i.id().equals(dormant))
                .extracting(QueryResult.Item::decay)
                .containsExactly(DecayModel.Status.DORMANT);
        assertThat(result.items())
                .filteredOn(i -> i.id().equals(stale))
                .extracting(QueryResult.Item::decay)
                .as("the status is the chain's, not the clock's")
                .containsExactly(DecayModel.Status.ACTIVE);
    }

    @Test
    void aDecayTransitionSurfacesOnceInTheDeltaHeader() {
        String id = h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Prefers window seats")
                                .setThreadId("t2")
                                .setCategory("profile")
                                .setImportance(2)
                                .build()))
                .getMemoryId();
        long seen = service.query(
                        new QueryRequest(SPACE, null, "seats", null, null, 5, null, null, null, false, false, "t2", 0L),
                        AGENT)
                .revision();
        transition(id, DecayStatus.FADING);

        QueryResult next = service.query(
                new QueryRequest(SPACE, null, "seats", null, null, 5, null, null, null, false, false, "t2", seen),
                AGENT);
        QueryResult after = service.query(
                new QueryRequest(
                        SPACE, null, "seats", null, null, 5, null, null, null, false, false, "t2", next.revision()),
                AGENT);

        assertThat(next.header()).contains("fading: [profile] Prefers window seats");
        assertThat(after.header()).isEmpty();
    }

    @Test
    void pinnedMemoriesNeverDecay() {
        String pinned = create("The door code is 4471", null, 3);
        h.submit(Requests.flag(SPACE, AGENT, pinned, io.memorychain.avro.MemoryFlag.PINNED, true));
        h.advance(Duration.ofDays(400));
        assertThat(ids(QueryRequest.of(SPACE, null, "door code"))).containsExactly(pinned);
    }

    @Test
    void thresholdDropsDissimilarMemories() {
        String cat = create("The user adopted a kitten named Miso", null, 3);
        create("Quarterly revenue grew eleven percent", null, 3);
        // cosines depend on the model (unrelated texts score ~0 with MiniLM, ~0.75 with e5-small): cut between the two
        float[] q = h.embedder.embedQuery("the user's pet cat");
        double threshold = (dot(q, h.embedder.embed("The user adopted a kitten named Miso"))
                        + dot(q, h.embedder.embed("Quarterly revenue grew eleven percent")))
                / 2;
        assertThat(ids(new QueryRequest(
                        SPACE,
                        null,
                        "the user's pet cat",
                        null,
                        null,
                        5,
                        null,
                        null,
                        threshold,
                        false,
                        false,
                        null,
                        null)))
                .containsExactly(cat);
    }

    @Test
    void entityQuestionsFollowRelationsOneAndTwoHops() {
        String alex = entity("Alex Romero (person)");
        String atlas = entity("Atlas (project)");
        String db = create("Runs on PostgreSQL 15 with nightly backups", null, 3);
        h.submit(Requests.link(SPACE, AGENT, alex, atlas, "develops", 1.0));
        h.submit(Requests.link(SPACE, AGENT, atlas, db, "depends-on", 0.9));
        for (int i = 0; i < 15; i++) {
            create("Team lunch " + i + " was at the Romero street taco place", null, 3);
        }
        assertThat(top5(STRONG_CHANNEL, "Which database backs the project of Alex Romero?"))
                .contains(db);
        QueryResult r =
                service.query(QueryRequest.of(SPACE, null, "Atlas project").withTopK(1), AGENT);
        assertThat(r.items()).extracting(QueryResult.Item::id).containsExactly(atlas);
        assertThat(r.render()).contains("depends-on: Runs on PostgreSQL 15").contains("develops: Alex Romero");
    }

    private String link(String from, String to, String type) {
        h.submit(Requests.link(SPACE, AGENT, from, to, type, 1.0));
        return to;
    }

    /** Work notes that name nobody of the graph below: some about databases like the query, most about other things. */
    private void distractors() {
        String[] teams = {"payments", "search", "mobile", "growth", "data", "infra", "support", "security"};
        String[] stores = {"MongoDB", "MySQL", "DynamoDB", "Cassandra", "SQLite", "Elasticsearch"};
        String[] other = {
            "moved the stand-up to ten",
            "planned the offsite in Porto",
            "hired two interns",
            "cut the cloud bill by a fifth",
            "wrote the onboarding guide",
            "switched the team chat to threads"
        };
        for (int i = 0; i < 120; i++) {
            create(
                    i % 4 == 0
                            ? "The " + teams[i % teams.length] + " project decided which database their service"
                                    + " depends on: " + stores[i % stores.length] + " (note " + i + ")"
                            : "The " + teams[i % teams.length] + " team " + other[i % other.length] + " (note " + i
                                    + ")",
                    null,
                    3);
        }
    }

    @Test
    void anEntityNamedInTheQueryBringsItsTwoHopNeighbourhoodIntoTheTopFive() {
        String alex = entity("Alex Moreno — tech lead (entity: person)");
        String atlas = link(alex, entity("Atlas — internal billing platform (entity: project)"), "develops");
        String postgres =
                link(atlas, entity("PostgreSQL 15 — the relational database of the billing platform"), "depends-on");
        link(alex, entity("Trunk-based development — short-lived branches"), "prefers");
        distractors();
        String query = "Which database does the project Alex's team builds depend on?";
        assertThat(top5(EntityChannel.Weights.OFF, query))
                .as("the search alone")
                .doesNotContain(postgres);

        assertThat(top5(STRONG_CHANNEL, query)).as("two hops from Alex").contains(postgres);
    }

    /**
     * The channel with its affinity scaled from three deviations below the mean candidate: these tests check the
     * mechanism; the default weights are measured on the labelled set ({@code PipelineRetrievalTest}).
     */
    private static final EntityChannel.Weights STRONG_CHANNEL = new EntityChannel.Weights(2.0, 0, 1.0, 0.5, -3);

    private List<String> top5(EntityChannel.Weights channel, String query) {
        QueryService s = new QueryService(
                h.views,
                h.embedder,
                policy,
                DecayModel.standard(),
                RankingWeights.DEFAULTS,
                a -> {},
                h.clock,
                Reranker.NONE,
                1,
                channel);
        return s.query(QueryRequest.of(SPACE, null, query).withTopK(5), AGENT).items().stream()
                .map(QueryResult.Item::id)
                .toList();
    }

    @Test
    void theEntityChannelNeverReturnsWhatTheQueryDoesNotAdmit() {
        String atlas = entity("Atlas — internal billing platform (entity: project)");
        String oldDb = link(atlas, entity("MariaDB 10 — the former relational store"), "depends-on");
        String secrets = link(
                atlas,
                h.submit(Requests.create(
                                SPACE,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setKind(MemoryKind.ENTITY)
                                        .setContent("Vault — secrets manager (entity: tool)")
                                        .setCategory("health")
                                        .build()))
                        .getMemoryId(),
                "depends-on");
        String newDb = link(
                atlas,
                h.submit(Requests.create(
                                SPACE,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setKind(MemoryKind.ENTITY)
                                        .setContent("PostgreSQL 15 — relational store")
                                        .setCategory("tasks")
                                        .build()))
                        .getMemoryId(),
                "depends-on");
        h.submit(Requests.delete(SPACE, AGENT, oldDb));
        distractors();
        String query = "Which relational store and secrets manager does Atlas depend on?";

        assertThat(ids(QueryRequest.of(SPACE, null, query).withTopK(10)))
                .contains(atlas, newDb, secrets)
                .doesNotContain(oldDb);
        assertThat(ids(new QueryRequest(
                        SPACE, "planner", query, null, null, 10, null, null, null, false, false, null, null)))
                .as("the allowlist admits tasks only")
                .contains(newDb)
                .doesNotContain(secrets, oldDb);
        assertThat(ids(new QueryRequest(
                        SPACE,
                        null,
                        query,
                        null,
                        SearchFilters.builder().category("tasks").build(),
                        10,
                        null,
                        null,
                        null,
                        false,
                        false,
                        null,
                        null)))
                .containsExactly(newDb);
    }

    @Test
    void theDeltaHeaderListsThreadChangesSinceTheCallersRevision() {
        h.submit(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder()
                        .setContent("Preferred name is Ana")
                        .setThreadId("t1")
                        .setCategory("profile")
                        .setImportance(2)
                        .build()));
        QueryResult first = service.query(
                new QueryRequest(SPACE, null, "name", null, null, 5, null, null, null, false, false, "t1", 0L), AGENT);
        assertThat(first.header())
                .startsWith("Memory updates since rev 0:")
                .contains("+created: [profile] Preferred name is Ana");
        assertThat(first.revision()).isEqualTo(1);
        QueryResult again = service.query(
                new QueryRequest(
                        SPACE, null, "name", null, null, 5, null, null, null, false, false, "t1", first.revision()),
                AGENT);
        assertThat(again.header()).isEmpty();
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
