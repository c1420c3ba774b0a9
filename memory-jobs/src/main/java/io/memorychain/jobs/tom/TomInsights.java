package io.memorychain.jobs.tom;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.Tier;
import io.memorychain.events.Requests;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a {@link TomRun}: asks the model (the space's own model if one is configured for it, else the default),
 * validates the answer, and turns each accepted insight into a {@code CreateMemory} request: kind INSIGHT, tier
 * WORKING, category {@code relationship_dynamic}, importance 2, confidence LOW (an inference), not pinned, the run's
 * thread, actor {@code worker:tom}, the run's deterministic request ids and its trigger time as {@code requested_at}.
 * Never throws for a failed call: a failed or unconfigured model gives no requests.
 */
public final class TomInsights {

    private static final Logger log = LoggerFactory.getLogger(TomInsights.class);
    public static final io.memorychain.avro.Actor ACTOR = Requests.actor(ActorType.WORKER, "tom");

    private final ChatModels models;
    private final TomSettings settings;
    private final TomMetrics metrics;

    public TomInsights(ChatModels models, TomSettings settings, TomMetrics metrics) {
        this.models = Objects.requireNonNull(models, "models");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    public List<MemoryRequest> requests(TomRun run) {
        metrics.runs.increment();
        ChatModel model = models.forAgent(run.space());
        if (!model.configured()) {
            metrics.skippedNoModel.increment();
            log.info(
                    "tom: skipped: no model for space={} thread={} seq {}-{}",
                    run.space(),
                    run.thread(),
                    run.fromSeq(),
                    run.toSeq());
            return List.of();
        }
        ChatResult result = model.complete(TomPrompt.request(run, settings));
        if (!(result instanceof ChatResult.Completed completed)) {
            ChatResult.Failed failed = (ChatResult.Failed) result;
            metrics.countFailure(failed.outcome());
            log.warn(
                    "tom: model call failed for space={} thread={} seq {}-{}: {} {}",
                    run.space(),
                    run.thread(),
                    run.fromSeq(),
                    run.toSeq(),
                    failed.outcome(),
                    failed.message());
            return List.of();
        }
        InsightValidator.Result validated = InsightValidator.validate(completed.json());
        metrics.dropped.add(validated.dropped().size());
        if (!validated.dropped().isEmpty()) {
            log.info(
                    "tom: dropped {} insight(s) for space={} seq {}-{}: {}",
                    validated.dropped().size(),
                    run.space(),
                    run.fromSeq(),
                    run.toSeq(),
                    validated.dropped());
        }
        if (validated.accepted().isEmpty()) {
            metrics.emptyAnswers.increment();
            return List.of();
        }
        List<MemoryRequest> requests = new ArrayList<>();
        for (int i = 0; i < validated.accepted().size(); i++) {
            InsightValidator.Insight insight = validated.accepted().get(i);
            CreateMemory op = CreateMemory.newBuilder()
                    .setKind(MemoryKind.INSIGHT)
                    .setTier(Tier.WORKING)
                    .setCategory(TomSettings.CATEGORY)
                    .setContent(insight.summary())
                    .setTags(insight.tags())
                    .setImportance(TomSettings.IMPORTANCE)
                    .setConfidence(Confidence.LOW)
                    .setSource("tom:seq " + run.fromSeq() + "-" + run.toSeq())
                    .setThreadId(run.thread().isEmpty() ? null : run.thread())
                    .setPinned(false)
                    .build();
            requests.add(Requests.create(run.space(), ACTOR, op)
                    .setRequestId(run.requestId(i))
                    .setRequestedAt(run.triggeredAt())
                    .build());
        }
        return requests;
    }
}
