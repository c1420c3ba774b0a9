package io.memorychain.api.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/** POST /v1/spaces/{space}/query: memory.query of docs/architecture.md §7 */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "Query", description = "Hybrid (keyword + meaning) search of a space's memories.")
public record QueryBody(
        @Nullable
        @Schema(
                description = "The agent asking; its category allowlist applies. Defaults to the X-Actor id "
                        + "for agent and subagent actors, which may not ask for another agent")
        String agent,

        @Nullable @Schema(description = "What to look for", requiredMode = Schema.RequiredMode.REQUIRED)
        String query,

        @Nullable @Schema(description = "Only these categories (each must be in the agent's allowlist)")
        List<String> categories,

        @Nullable
        @Schema(
                type = "object",
                description = "Metadata filters, applied inside the search (the top-k is taken "
                        + "among matching memories). An object is the AND of its entries. Fields: created_at, updated_at, "
                        + "importance, category, tags, kind, user_id, agent_id, run_id, actor_id, role, thread_id, pinned; a plain "
                        + "value means equality (tags: contains), or an object of operators eq, gt, gte, lt, lte (numbers and "
                        + "dates), in (a list), contains (tags), e.g. {\"importance\": {\"gte\": 4}}. Groups: {\"AND\": [...]}, "
                        + "{\"OR\": [...]}, {\"NOT\": {...}}, at most 5 deep. Also importance_min, importance_max, "
                        + "updated_after (inclusive), updated_before (exclusive). Dates are ISO-8601 dates (2025-07-01, midnight "
                        + "UTC) or date-times. A bad filter is 400 INVALID_FILTER naming its path")
        Map<String, Object> filters,

        @Nullable @JsonProperty("top_k") @Schema(name = "top_k", description = "1..100, default 5")
        Integer topK,

        @Nullable @JsonProperty("return") @Schema(name = "return", description = "bullets (default) or full")
        String format,

        @Nullable
        @JsonProperty("budget_tokens")
        @Schema(name = "budget_tokens", description = "Token budget of the answer (cl100k_base)")
        Integer budgetTokens,

        @Nullable @Schema(description = "Drop memories whose cosine similarity to the query is below this, e.g. 0.65")
        Double threshold,

        @Nullable @Schema(name = "include_superseded") @JsonProperty("include_superseded")
        Boolean includeSuperseded,

        @Nullable
        @JsonProperty("include_dormant")
        @Schema(name = "include_dormant", description = "Also return dormant (decayed) memories")
        Boolean includeDormant,

        @Nullable @Schema(name = "thread_id") @JsonProperty("thread_id")
        String threadId,

        @Nullable
        @JsonProperty("since_rev")
        @Schema(name = "since_rev", description = "Thread revision seen last: adds the delta header")
        Long sinceRev,

        @Nullable
        @JsonProperty("as_of_seq")
        @Schema(
                name = "as_of_seq",
                description = "Point in time: memories as they were after this seq "
                        + "(docs/architecture.md §17); candidates come from the current index")
        Long asOfSeq,

        @Nullable
        @JsonProperty("as_of")
        @Schema(name = "as_of", description = "Point in time: as they were at this ISO-8601 time")
        String asOf,

        @Nullable
        @JsonProperty("date_filter")
        @Schema(
                name = "date_filter",
                description = "When the query names exactly one date "
                        + "(\"in May 2023\", \"last week\"), return only memories created on one of its days or mentioning "
                        + "one; by default dates only boost such memories. Relative dates are read against as_of / as_of_seq "
                        + "when given, else the time of the query (docs/architecture.md §7)")
        Boolean dateFilter) {}
