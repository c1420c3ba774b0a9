package io.memorychain.jobs.consolidate;

import com.fasterxml.jackson.databind.JsonNode;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Requests;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a {@link ConsolidatePlanner.Plan}: near-exact pairs become merges at once; the other pairs go to the space's
 * model in batches of {@code batchSize} (5-10 pairs per prompt, structured output), and each pair the model calls the
 * same fact becomes a merge with the model's text. Every merge is a {@code ConsolidateMemories} request of actor
 * {@code worker:consolidate} with request id {@code consolidate:<space>:<idA>,<idB>:<versionA>,<versionB>} (ids
 * sorted), so a replay or a restart re-sends the same id and the sequencer deduplicates it; the sequencer keeps the
 * earliest {@code created_at} and refuses constitutional memories (the planner never proposes them, nor pinned ones).
 *
 * <p>A batch's answer is validated as a whole: schema (by memory-llm), every id a pair of the batch, no id twice, a
 * non-blank merged text of at most {@link ConsolidateSettings#MAX_MERGED_CHARS} for each same fact. An invalid answer
 * or a failed call (timeout, 429, budget, ...) is counted and publishes nothing for its batch. Never throws for a model
 * failure. With no model configured only near-exact pairs are merged.
 */
public final class Consolidations {

    private static final Logger log = LoggerFactory.getLogger(Consolidations.class);
    public static final Actor ACTOR = Requests.actor(ActorType.WORKER, "consolidate");

    /** What the model said of one pair. */
    record Verdict(ConsolidatePlanner.Pair pair, boolean sameFact, String merged) {}

    private final Function<String, ChatModel> models;
    private final ConsolidateSettings settings;
    private final ConsolidateMetrics metrics;

    public Consolidations(ChatModels models, ConsolidateSettings settings, ConsolidateMetrics metrics) {
        this(Objects.requireNonNull(models, "models")::forAgent, settings, metrics);
    }

    /** With the model of each space given by {@code models} (the benchmark's scripted judge). */
    public Consolidations(
            Function<String, ChatModel> models, ConsolidateSettings settings, ConsolidateMetrics metrics) {
        this.models = Objects.requireNonNull(models, "models");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    public List<MemoryRequest> requests(ConsolidatePlanner.Plan plan) {
        metrics.runs.increment();
        List<MemoryRequest> requests = new ArrayList<>();
        for (ConsolidatePlanner.Pair pair : plan.nearExact()) {
            metrics.nearExact.increment();
            requests.add(merge(
                    plan,
                    pair,
                    nearExactContent(pair),
                    String.format(
                            Locale.ROOT,
                            "consolidate run %d: near-exact duplicate, cosine %.3f",
                            plan.period(),
                            pair.score())));
        }
        if (!plan.toCheck().isEmpty()) {
            ChatModel model = models.apply(plan.space());
            if (!model.configured()) {
                log.debug(
                        "consolidate: no model for space={}: {} pair(s) in the band not checked",
                        plan.space(),
                        plan.toCheck().size());
            } else {
                for (int from = 0; from < plan.toCheck().size(); from += settings.batchSize()) {
                    List<ConsolidatePlanner.Pair> batch =
                            plan.toCheck().subList(from, Math.min(plan.toCheck().size(), from + settings.batchSize()));
                    for (Verdict v : check(model, plan.space(), batch)) {
                        if (v.sameFact()) {
                            metrics.sameFact.increment();
                            requests.add(merge(
                                    plan,
                                    v.pair(),
                                    v.merged(),
                                    String.format(
                                            Locale.ROOT,
                                            "consolidate run %d: same fact per model %s, cosine %.3f (%s)",
                                            plan.period(),
                                            model.modelName(),
                                            v.pair().score(),
                                            v.pair().signal().name().toLowerCase(Locale.ROOT))));
                        }
                    }
                }
            }
        }
        return requests;
    }

    /** One batch prompt; an empty list for a failed call or an invalid answer. */
    List<Verdict> check(ChatModel model, String space, List<ConsolidatePlanner.Pair> batch) {
        metrics.calls.increment();
        metrics.checked.add(batch.size());
        ChatResult result = model.complete(SameFactPrompt.request(space, batch, settings.maxTokens()));
        metrics.tokens.add(result.usage().total());
        if (!(result instanceof ChatResult.Completed completed)) {
            ChatResult.Failed failed = (ChatResult.Failed) result;
            metrics.countFailure(failed.outcome());
            log.warn(
                    "consolidate: model call failed for space={} ({} pairs): {} {}",
                    space,
                    batch.size(),
                    failed.outcome(),
                    failed.message());
            return List.of();
        }
        try {
            return validate(completed.json(), batch);
        } catch (IllegalArgumentException e) {
            metrics.invalidAnswers.increment();
            log.warn("consolidate: invalid answer for space={} ({} pairs): {}", space, batch.size(), e.getMessage());
            return List.of();
        }
    }

    static List<Verdict> validate(JsonNode json, List<ConsolidatePlanner.Pair> batch) {
        if (json == null || !json.path("pairs").isArray()) {
            throw new IllegalArgumentException("no pairs array");
        }
        Map<String, ConsolidatePlanner.Pair> byId = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            byId.put(SameFactPrompt.pairId(i), batch.get(i));
        }
        Set<String> seen = new HashSet<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (JsonNode entry : json.get("pairs")) {
            String id = entry.path("id").asText("");
            ConsolidatePlanner.Pair pair = byId.get(id);
            if (pair == null) {
                throw new IllegalArgumentException("unknown pair id '" + id + "'");
            }
            if (!seen.add(id)) {
                throw new IllegalArgumentException("pair id '" + id + "' answered twice");
            }
            if (!entry.path("same_fact").isBoolean()) {
                throw new IllegalArgumentException("same_fact of " + id + " is not a boolean");
            }
            boolean same = entry.get("same_fact").booleanValue();
            String merged = entry.path("merged").asText("").strip();
            if (same && (merged.isEmpty() || merged.length() > ConsolidateSettings.MAX_MERGED_CHARS)) {
                throw new IllegalArgumentException("merged text of " + id + " is blank or too long");
            }
            verdicts.add(new Verdict(pair, same, merged));
        }
        return verdicts;
    }

    /** The near-exact pair's kept text: the later written one (then the longer, then b's). */
    static String nearExactContent(ConsolidatePlanner.Pair pair) {
        int byTime = pair.a().updatedAt().compareTo(pair.b().updatedAt());
        if (byTime != 0) {
            return byTime > 0 ? pair.a().content() : pair.b().content();
        }
        return pair.a().content().length() > pair.b().content().length()
                ? pair.a().content()
                : pair.b().content();
    }

    static String requestId(String space, ConsolidatePlanner.Pair pair) {
        return "consolidate:" + space + ":" + pair.a().id() + "," + pair.b().id() + ":"
                + pair.a().version() + "," + pair.b().version();
    }

    private static MemoryRequest merge(
            ConsolidatePlanner.Plan plan, ConsolidatePlanner.Pair pair, String content, String reason) {
        return Requests.consolidate(
                        plan.space(), ACTOR, List.of(pair.a().id(), pair.b().id()), content, reason)
                .setRequestId(requestId(plan.space(), pair))
                .setRequestedAt(plan.at())
                .build();
    }
}
