package io.memorychain.projector.retrieval.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryState;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RetrievalSetValidationTest {

    /** A consistent two-space set, small enough to read; each test breaks one thing in it. */
    private static final String SMALL = """
            {"reference_time": "2025-09-01T09:00:00Z",
             "spaces": [{"id": "s1"}, {"id": "s2"}],
             "memories": [
               {"key": "a", "space": "s1", "kind": "ENTITY", "category": "projects", "importance": 3, "days_ago": 90,
                "content": "Atlas — internal billing platform project (entity: project)"},
               {"key": "b", "space": "s1", "kind": "ENTITY", "category": "knowledge", "importance": 3, "days_ago": 90,
                "content": "PostgreSQL 15 — relational database (entity: tool)"},
               {"key": "c", "space": "s1", "kind": "ENTITY", "category": "relationships", "importance": 3,
                "days_ago": 90, "content": "Alex Moreno — tech lead (entity: person)"},
               {"key": "d", "space": "s1", "kind": "SEMANTIC", "category": "preferences", "importance": 2,
                "user_id": "alex", "days_ago": 40, "content": "Alex prefers small pull requests"},
               {"key": "e", "space": "s1", "kind": "SEMANTIC", "category": "preferences", "importance": 2,
                "user_id": "alex", "days_ago": 20, "content": "Alex wants a design note for big changes"},
               {"key": "f", "space": "s1", "kind": "SEMANTIC", "category": "preferences", "importance": 2,
                "user_id": "alex", "days_ago": 10, "content": "Alex wants small PRs and design notes for big ones"},
               {"key": "g", "space": "s2", "kind": "EPISODIC", "category": "event", "importance": 4, "days_ago": 3,
                "content": "Ticket ZD-1 opened"}
             ],
             "consolidations": [{"result": "f", "inputs": ["d", "e"], "reason": "same person"}],
             "links": [{"from": "c", "to": "a", "type": "develops"}, {"from": "a", "to": "b", "type": "depends-on"}],
             "queries": [
               {"id": "q1", "space": "s1", "type": "multihop", "text": "database of Alex's project", "via": ["c"],
                "expected": ["b"]},
               {"id": "q2", "space": "s1", "type": "superseded", "text": "how big may PRs be", "expected": ["f"],
                "must_not": ["d", "e"]},
               {"id": "q3", "space": "s2", "type": "temporal", "text": "recent tickets",
                "filters": {"updated_after_days_ago": 7}, "expected": ["g"]},
               {"id": "q4", "space": "s1", "type": "category", "text": "tools", "categories": ["knowledge"],
                "expected": ["b"], "must_not": ["a"]}
             ]}
            """;

    private static RetrievalSet read(String json) throws IOException {
        return RetrievalSet.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> problems(String json) throws IOException {
        return RetrievalSetValidator.problems(read(json), Requirements.NONE);
    }

    @Test
    void theShippedSetIsValidAndAsLargeAsTheBriefAsks() {
        RetrievalSet set = RetrievalSet.load();

        assertThat(set.spaces()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(set.memories()).hasSizeGreaterThanOrEqualTo(320);
        assertThat(set.queries()).hasSizeGreaterThanOrEqualTo(90);
        Map<String, Long> memoriesPerSpace =
                set.memories().stream().collect(Collectors.groupingBy(LabelledMemory::space, Collectors.counting()));
        assertThat(memoriesPerSpace.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(60));
        assertThat(set.consolidations()).isNotEmpty();
        assertThat(set.links()).isNotEmpty();
    }

    @Test
    void aConsistentSmallSetHasNoProblemsButFailsTheIssueRequirements() throws IOException {
        RetrievalSet set = read(SMALL);

        assertThat(RetrievalSetValidator.problems(set, Requirements.NONE)).isEmpty();
        assertThat(RetrievalSetValidator.problems(set, Requirements.ISSUE))
                .contains(
                        "2 spaces, at least 4 required",
                        "7 memories, at least 300 required",
                        "4 queries, at least 80 required",
                        "0 paraphrase queries, at least 25 required",
                        "1 multihop queries, at least 10 required");
        assertThatThrownBy(() -> set.requireValid(Requirements.ISSUE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("7 memories, at least 300 required");
    }

    @Test
    void consolidationInputsAreSupersededAndResultsKeepTheirInputs() throws IOException {
        RetrievalSet set = read(SMALL);

        assertThat(set.state("d")).isEqualTo(MemoryState.SUPERSEDED);
        assertThat(set.state("f")).isEqualTo(MemoryState.ACTIVE);
        assertThat(set.referenceTime()).isEqualTo(Instant.parse("2025-09-01T09:00:00Z"));
        assertThat(set.within("c", 1)).containsExactly("a");
        assertThat(set.within("c", 2)).containsExactlyInAnyOrder("a", "b");
        assertThat(set.within("b", 2)).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void rejectsDuplicateKeys() throws IOException {
        assertThat(problems(SMALL.replace("\"key\": \"e\"", "\"key\": \"d\""))).contains("duplicate memory key d");
    }

    @Test
    void rejectsReferencesToUnknownMemories() throws IOException {
        String json = SMALL.replace(
                        "\"to\": \"b\", \"type\": \"depends-on\"", "\"to\": \"zz\", \"type\": \"depends-on\"")
                .replace("\"must_not\": [\"d\", \"e\"]", "\"must_not\": [\"d\", \"e\", \"yy\"]")
                .replace("\"inputs\": [\"d\", \"e\"]", "\"inputs\": [\"d\", \"e\", \"xx\"]");

        assertThat(problems(json))
                .contains(
                        "link a -depends-on-> zz references an unknown memory",
                        "query q2: must_not yy is not a memory",
                        "consolidation f: input xx is not a memory");
    }

    @Test
    void rejectsAnExpectedMemoryTheQueryItselfFiltersOut() throws IOException {
        String json = SMALL.replace("\"updated_after_days_ago\": 7", "\"updated_after_days_ago\": 2");

        assertThat(problems(json)).contains("query q3: expected g does not pass the query's own filters or categories");
    }

    @Test
    void rejectsExpectingASupersededMemory() throws IOException {
        String json = SMALL.replace("\"expected\": [\"f\"]", "\"expected\": [\"f\", \"d\"]")
                .replace("\"must_not\": [\"d\", \"e\"]", "\"must_not\": [\"e\"]");

        assertThat(problems(json)).contains("query q2: expected d is superseded");
    }

    @Test
    void rejectsAMustNotMemoryThatOnlyRankingCouldKeepOut() throws IOException {
        String json = SMALL.replace("\"categories\": [\"knowledge\"]", "\"categories\": [\"knowledge\", \"projects\"]");

        assertThat(problems(json))
                .contains(
                        "query q4: must_not a is active and passes the query's filters, so only ranking could keep it out");
    }

    @Test
    void rejectsAMultihopAnswerTooFarFromTheNamedEntity() throws IOException {
        String json = SMALL.replace(
                "{\"from\": \"a\", \"to\": \"b\", \"type\": \"depends-on\"}",
                "{\"from\": \"b\", \"to\": \"g\", \"type\": \"relates-to\"}");

        assertThat(problems(json))
                .contains("multihop query q1: b is not within 2 links of [c]", "link b -relates-to-> g crosses spaces");
    }

    @Test
    void rejectsTypedQueriesWithoutWhatTheirTypeNeeds() throws IOException {
        String json = SMALL.replace("\"via\": [\"c\"],", "")
                .replace("\"must_not\": [\"d\", \"e\"]", "\"must_not\": []")
                .replace("\"type\": \"temporal\"", "\"type\": \"filtered\"")
                .replace("\"filters\": {\"updated_after_days_ago\": 7},", "");

        assertThat(problems(json))
                .contains(
                        "multihop query q1 names no entity in via",
                        "superseded query q2 lists no superseded memory in must_not",
                        "filtered query q3 has no filters");
    }

    @Test
    void rejectsMalformedEntriesWhileReading() {
        assertThatThrownBy(() -> read(SMALL.replace("\"importance\": 4", "\"importance\": 9")))
                .hasMessageContaining("memory g: importance must be 1..5, was 9");
        assertThatThrownBy(() -> read(SMALL.replace("\"type\": \"develops\"", "\"type\": \"likes\"")))
                .hasMessageContaining("unknown type likes");
        assertThatThrownBy(() -> read(SMALL.replace("\"days_ago\": 3,", "\"days_ago\": 3, \"colour\": \"red\",")))
                .hasMessageContaining("colour");
        assertThatThrownBy(() -> read(SMALL.replace("\"days_ago\": 3,", ""))).hasMessageContaining("days_ago");
        assertThatThrownBy(() -> read(SMALL.replace(
                        "{\"updated_after_days_ago\": 7}",
                        "{\"updated_after_days_ago\": 7, \"updated_before_days_ago\": 9}")))
                .hasMessageContaining("empty time window");
    }
}
