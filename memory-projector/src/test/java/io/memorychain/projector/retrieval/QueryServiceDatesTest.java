package io.memorychain.projector.retrieval;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.search.DateSpan;
import io.memorychain.projector.search.MemoryDates;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Dates in queries and memories (docs/architecture.md §7, dates), through the real chain and embedder. */
class QueryServiceDatesTest {

    private static final String SPACE = "dates";
    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());

    @AfterEach
    void close() {
        h.close();
    }

    private QueryService service(TemporalWeights temporal) {
        return new QueryService(
                h.views,
                h.embedder,
                CategoryPolicy.unrestricted(),
                new DecayModel(0),
                RankingWeights.DEFAULTS,
                AccessRecorder.NONE,
                h.clock,
                Reranker.NONE,
                1,
                temporal);
    }

    private String turn(String at, String text) {
        h.now = Instant.parse(at);
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.EPISODIC)
                                .setContent(text)
                                .setThreadId("session-" + at.substring(0, 10))
                                .build()))
                .getMemoryId();
    }

    /** Memories unrelated to the questions, so that the relevance of the related ones is not the lowest. */
    private void distractors() {
        turn("2023-04-02T10:00:00Z", "Caroline: My grandmother's necklace came from Sweden.");
        turn("2023-04-03T10:00:00Z", "Melanie: The car needed new tyres before winter.");
        turn("2023-04-04T10:00:00Z", "Caroline: I am reading a novel about a lighthouse keeper.");
    }

    private List<String> ids(QueryService service, String query) {
        return service.query(QueryRequest.of(SPACE, null, query), AGENT).items().stream()
                .map(QueryResult.Item::id)
                .toList();
    }

    @Test
    void aDateInTheQueryDecidesTheTopHitAmongMemoriesAlikeInText() {
        distractors();
        String onTheDay = turn("2023-05-08T14:00:00Z", "Melanie: Took the kids to a workshop today, they made pots.");
        turn("2023-06-20T14:00:00Z", "Melanie: I took the kids to the pottery workshop with me.");
        turn("2023-07-10T14:00:00Z", "Melanie: The kids and I went to the pottery workshop.");
        h.now = Instant.parse("2023-07-15T09:00:00Z");
        String query = "pottery workshop with the kids on 8 May 2023";

        List<String> withDates = ids(service(TemporalWeights.DEFAULTS), query);
        List<String> withoutDates = ids(service(TemporalWeights.NONE), query);

        assertThat(withDates).as("with dates").first().isEqualTo(onTheDay);
        assertThat(withoutDates)
                .as("without dates: the text alone does not decide")
                .first()
                .isNotEqualTo(onTheDay);
    }

    @Test
    void aMemorysRelativeDateIsResolvedAgainstItsOwnCreationDay() {
        distractors();
        String saidYesterday = turn("2023-05-08T14:00:00Z", "Caroline: I went to the LGBTQ support group yesterday.");
        String later = turn("2023-05-20T14:00:00Z", "Caroline: I went to the LGBTQ support group, it was powerful.");
        turn("2023-06-02T14:00:00Z", "Caroline: The LGBTQ support group met again and I went.");
        h.now = Instant.parse("2023-07-15T09:00:00Z");

        assertThat(MemoryDates.all(h.views.memory(SPACE, saidYesterday).orElseThrow()))
                .containsExactly(DateSpan.day(LocalDate.of(2023, 5, 8)), DateSpan.day(LocalDate.of(2023, 5, 7)));
        assertThat(ids(service(TemporalWeights.DEFAULTS), "LGBTQ support group on May 7, 2023"))
                .first()
                .isEqualTo(saidYesterday);
        assertThat(ids(service(TemporalWeights.DEFAULTS), "LGBTQ support group on 20 May 2023"))
                .first()
                .isEqualTo(later);
        // a "when" question without a date prefers the memory that says when
        assertThat(ids(service(TemporalWeights.DEFAULTS), "When did Caroline go to the LGBTQ support group?"))
                .first()
                .isEqualTo(saidYesterday);
    }

    @Test
    void aRelativeDateInTheQueryIsResolvedAgainstTheAsOfTimeWhenGiven() {
        distractors();
        String saidYesterday = turn("2023-05-08T14:00:00Z", "Caroline: I went to the LGBTQ support group yesterday.");
        String later = turn("2023-05-20T14:00:00Z", "Caroline: I went to the LGBTQ support group, it was powerful.");
        turn("2023-06-02T14:00:00Z", "Caroline: The LGBTQ support group met again and I went.");
        h.now = Instant.parse("2023-07-15T09:00:00Z");
        QueryService service = service(TemporalWeights.DEFAULTS);
        QueryRequest q = QueryRequest.of(SPACE, null, "the LGBTQ support group last week");

        // last week of 10 May 2023 is 1-7 May (the day "yesterday" named); of 25 May, 15-21 May
        assertThat(service.query(q, AGENT, new QueryDates(Instant.parse("2023-05-10T12:00:00Z"), false))
                        .items()
                        .get(0)
                        .id())
                .isEqualTo(saidYesterday);
        assertThat(service.query(q, AGENT, new QueryDates(Instant.parse("2023-05-25T12:00:00Z"), false))
                        .items()
                        .get(0)
                        .id())
                .isEqualTo(later);
    }

    @Test
    void oneDateInTheQueryFiltersWhenTheCallerAsksAndOnlyThen() {
        String saidYesterday = turn("2023-05-08T14:00:00Z", "Caroline: I went to the LGBTQ support group yesterday.");
        String later = turn("2023-05-20T14:00:00Z", "Caroline: I went to the LGBTQ support group, it was powerful.");
        String june = turn("2023-06-02T14:00:00Z", "Caroline: The LGBTQ support group met again and I went.");
        h.now = Instant.parse("2023-07-15T09:00:00Z");
        QueryService service = service(TemporalWeights.DEFAULTS);
        QueryDates filter = new QueryDates(null, true);

        assertThat(service.query(QueryRequest.of(SPACE, null, "LGBTQ support group in May 2023"), AGENT, filter)
                        .items())
                .extracting(QueryResult.Item::id)
                .containsExactlyInAnyOrder(saidYesterday, later);
        // relative to the as-of time: the week before 10 May 2023 is 1-7 May, which only "yesterday" of 8 May meets
        assertThat(service.query(
                                QueryRequest.of(SPACE, null, "LGBTQ support group last week"),
                                AGENT,
                                new QueryDates(Instant.parse("2023-05-10T12:00:00Z"), true))
                        .items())
                .extracting(QueryResult.Item::id)
                .containsExactly(saidYesterday);
        // two date expressions are ambiguous, and no date at all has nothing to filter by: every memory may return
        assertThat(service.query(
                                QueryRequest.of(SPACE, null, "LGBTQ support group in May 2023 or June 2023"),
                                AGENT,
                                filter)
                        .items())
                .extracting(QueryResult.Item::id)
                .contains(june);
        assertThat(service.query(QueryRequest.of(SPACE, null, "LGBTQ support group"), AGENT, filter)
                        .items())
                .extracting(QueryResult.Item::id)
                .contains(june);
        assertThat(service.query(QueryRequest.of(SPACE, null, "LGBTQ support group in May 2023"), AGENT)
                        .items())
                .extracting(QueryResult.Item::id)
                .contains(june);
    }
}
