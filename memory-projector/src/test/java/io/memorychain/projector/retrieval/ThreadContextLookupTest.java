package io.memorychain.projector.retrieval;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.view.MemoryViews;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code memory.query} gives the same answers, scores included, whether thread context finds the neighbours in the
 * index's thread order (what it does) or by the two sorted index searches per candidate it did before
 * ({@link MemoryIndex#threadNeighboursBySearch}): on conversations with equal {@code created_at}, deleted and
 * superseded turns, filters, category allowlists and {@code include_superseded}.
 */
class ThreadContextLookupTest {

    private static final String SPACE = "tc";
    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());
    private final CategoryPolicy policy = new CategoryPolicy(
            Map.of(
                    "pets", new CategoryPolicy.Category("pets", CategoryPolicy.ContextMode.RAG, 0),
                    "travel", new CategoryPolicy.Category("travel", CategoryPolicy.ContextMode.RAG, 0)),
            Map.of("pet-bot", Set.of("pets")));

    @AfterEach
    void close() {
        h.close();
    }

    private String turn(String thread, String speaker, String text, String category, long gapSeconds) {
        h.advance(Duration.ofSeconds(gapSeconds));
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.EPISODIC)
                                .setContent(speaker + ": " + text)
                                .setUserId(speaker)
                                .setCategory(category)
                                .setThreadId(thread)
                                .build()))
                .getMemoryId();
    }

    @Test
    void queriesAnswerTheSameWithTheThreadOrderAsWithTheSortedSearches() {
        turn("s1", "Caroline", "Did you finally adopt the dog from the shelter?", "pets", 1);
        turn("s1", "Melanie", "Yes, I did!", "pets", 1);
        turn("s1", "Caroline", "What breed is it?", "pets", 0); // the same created_at as the turn before
        turn("s1", "Melanie", "A beagle, and he loves long walks.", "pets", 0);
        String gone = turn("s1", "Caroline", "Does he sleep on your bed?", "pets", 1);
        turn("s1", "Melanie", "Every night, of course.", "pets", 1);
        turn("s2", "Caroline", "Did you book the flight to Lisbon?", "travel", 1);
        String a = turn("s2", "Melanie", "Yes, a window seat in May.", "travel", 1);
        String b = turn("s2", "Melanie", "Yes, an aisle seat in May.", "travel", 1);
        turn("s2", "Caroline", "Are you taking the dog with you?", "pets", 1);
        turn("s2", "Melanie", "No, my sister keeps him.", null, 0);
        turn("s3", "Caroline", "Did you try the new bakery on Main Street?", null, 1);
        turn("s3", "Melanie", "Yes, I did! The croissants are great.", null, 1);
        h.submit(Requests.delete(SPACE, AGENT, gone));
        h.submit(Requests.consolidate(SPACE, AGENT, List.of(a, b), "Melanie booked a seat to Lisbon in May", "merge"));

        MemoryIndex index = h.indexes.get(0).orElseThrow();
        QueryService now = service(h.views);
        QueryService before = service(bySearch(h.views, index));
        List<QueryRequest> requests = new ArrayList<>();
        for (String text : List.of(
                "did Melanie adopt a dog?",
                "Yes, I did!",
                "which seat did she book?",
                "who keeps the dog during the trip?",
                "croissants",
                "beagle")) {
            requests.add(new QueryRequest(
                    SPACE,
                    null,
                    text,
                    null,
                    null,
                    10,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    false,
                    false,
                    null,
                    null));
            requests.add(new QueryRequest(
                    SPACE,
                    null,
                    text,
                    null,
                    null,
                    10,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    true,
                    false,
                    null,
                    null));
            requests.add(new QueryRequest(
                    SPACE,
                    "pet-bot",
                    text,
                    null,
                    null,
                    10,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    false,
                    false,
                    null,
                    null));
            requests.add(new QueryRequest(
                    SPACE,
                    null,
                    text,
                    null,
                    SearchFilters.builder().userId("Melanie").build(),
                    10,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    false,
                    false,
                    null,
                    null));
            requests.add(new QueryRequest(
                    SPACE,
                    null,
                    text,
                    List.of("travel"),
                    null,
                    10,
                    QueryRequest.Format.BULLETS,
                    null,
                    null,
                    true,
                    false,
                    null,
                    null));
        }
        QueryService without = service(h.views, RankingWeights.DEFAULTS.withoutThreadContext());
        int changedByThreadContext = 0;
        for (QueryRequest q : requests) {
            QueryResult expected = before.query(q, AGENT);
            assertThat(now.query(q, AGENT)).as(q.toString()).isEqualTo(expected);
            changedByThreadContext += expected.equals(without.query(q, AGENT)) ? 0 : 1;
        }
        assertThat(changedByThreadContext)
                .as("queries whose answer thread context changes")
                .isPositive();
    }

    private QueryService service(MemoryViews views) {
        return service(views, RankingWeights.DEFAULTS);
    }

    private QueryService service(MemoryViews views, RankingWeights weights) {
        return new QueryService(
                views, h.embedder, policy, DecayModel.standard(), weights, AccessRecorder.NONE, h.clock);
    }

    /** The views with thread neighbours found by the sorted searches; everything else as {@code views}. */
    private static MemoryViews bySearch(MemoryViews views, MemoryIndex index) {
        return (MemoryViews) Proxy.newProxyInstance(
                MemoryViews.class.getClassLoader(), new Class<?>[] {MemoryViews.class}, (proxy, method, args) -> {
                    if (method.getName().equals("threadNeighbours")) {
                        @SuppressWarnings("unchecked")
                        Collection<Memory> memories = (Collection<Memory>) args[1];
                        return index.threadNeighboursBySearch((String) args[0], memories);
                    }
                    try {
                        return method.invoke(views, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
