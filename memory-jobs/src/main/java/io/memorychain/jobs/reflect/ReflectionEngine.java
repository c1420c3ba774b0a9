package io.memorychain.jobs.reflect;

import com.fasterxml.jackson.databind.JsonNode;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionMilestone;
import io.memorychain.domain.ReflectionMilestones;
import io.memorychain.domain.Relations;
import io.memorychain.events.Requests;
import io.memorychain.jobs.reflect.ReflectPrompts.Phase;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.ChatResult;
import io.memorychain.llm.JsonSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a {@link ReflectRun} (docs/architecture.md §18): the five phases as prompts to the space's model, each with
 * JSON-schema output and as its {@code max_tokens} what is left of the run's output token cap; a phase that would start
 * with less than {@link #MIN_PHASE_TOKENS} left is skipped (the summary is then rendered without the model). The answer
 * becomes one {@code ProposeReflection} request of actor {@code worker:reflect} with request id
 * {@code reflect:<space>:<to_seq>}: a pending reflection that changes nothing until a user decides it.
 *
 * <p>The 10th, 25th, 50th and 100th reflection of a space (its number counted from the chain's reflections, never a
 * clock) is an evolution milestone: one more prompt after the meta-reflection ({@link ReflectPrompts#milestone}) writes
 * the milestone's text at the top of the summary and may add evolution insights; the document carries the
 * {@code milestone} and is pending like any other.
 *
 * <p>Validation drops individual changes that name ids the run did not read (an archival too), repeat a target, have
 * blank content (a procedure without steps), an invalid relation type or a block label that is not configured. A failed
 * call (timeout, 429, budget, bad JSON after the retries of memory-llm) publishes nothing for the run; never throws for
 * a model failure. Without a model: {@code skipped: no model}, nothing published.
 */
public final class ReflectionEngine {

    private static final Logger log = LoggerFactory.getLogger(ReflectionEngine.class);
    public static final Actor ACTOR = Requests.actor(ActorType.WORKER, "reflect");
    /** The purpose usage is counted under. */
    public static final String PURPOSE = "reflect";
    /** A phase needs at least this many output tokens left, or it is skipped. */
    static final int MIN_PHASE_TOKENS = 64;
    /** Longest content of a proposed memory or block (characters). */
    static final int MAX_CONTENT_CHARS = 4_000;

    private final Function<String, ChatModel> models;
    private final ReflectSettings settings;
    private final ReflectMetrics metrics;

    public ReflectionEngine(ChatModels models, ReflectSettings settings, ReflectMetrics metrics) {
        this(Objects.requireNonNull(models, "models")::forAgent, settings, metrics);
    }

    public ReflectionEngine(Function<String, ChatModel> models, ReflectSettings settings, ReflectMetrics metrics) {
        this.models = Objects.requireNonNull(models, "models");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    private static final class PhaseFailed extends Exception {
        private static final long serialVersionUID = 1L;

        PhaseFailed(String message) {
            super(message, null, false, false);
        }
    }

    /** Output tokens left of the run's cap, and the model that answered. */
    private static final class Budget {
        final int cap;
        int spent;
        boolean capReached;
        String model;

        Budget(int cap) {
            this.cap = cap;
        }

        int left() {
            return cap - spent;
        }
    }

    public List<MemoryRequest> requests(ReflectRun run) {
        metrics.runs.increment();
        ChatModel model = models.apply(run.space());
        if (!model.configured()) {
            metrics.skippedNoModel.increment();
            log.info(
                    "reflect: skipped: no model for space={} (reflection #{} at seq {}, {})",
                    run.space(),
                    run.number(),
                    run.toSeq(),
                    run.trigger());
            return List.of();
        }
        Budget budget = new Budget(settings.outputTokenCap());
        try {
            String context = ReflectPrompts.context(run);
            JsonNode survey = call(model, run, Phase.SURVEY, context, budget);
            List<String> priorities = strings(survey, "priorities");
            JsonNode meta = call(
                    model,
                    run,
                    Phase.META_REFLECTION,
                    ReflectPrompts.past(run.past()) + "\nPriorities of this reflection:\n"
                            + String.join("\n", priorities),
                    budget);
            String guidance =
                    meta == null ? null : blankToNull(meta.path("guidance").asText(""));
            List<String> insights = strings(meta, "evolution_insights");
            ReflectionMilestone milestone = ReflectionMilestones.of(run.number());
            String milestoneText = null;
            if (milestone != null) {
                JsonNode answer = call(
                        model,
                        run,
                        ReflectPrompts.milestone(milestone),
                        ReflectPrompts.milestoneInput(run, priorities, guidance, insights),
                        budget);
                milestoneText = answer == null
                        ? ReflectPrompts.renderMilestone(milestone, run, insights)
                        : blankToNull(answer.path("milestone").asText(""));
                if (milestoneText == null) {
                    milestoneText = ReflectPrompts.renderMilestone(milestone, run, insights);
                }
                for (String insight : strings(answer, "evolution_insights")) {
                    if (!insights.contains(insight) && insights.size() < 20) {
                        insights.add(insight);
                    }
                }
            }
            JsonNode consolidation = call(
                    model,
                    run,
                    Phase.CONSOLIDATE,
                    context + "\nPriorities:\n" + String.join("\n", priorities) + "\n\nGuidance: "
                            + (guidance == null ? "-" : guidance),
                    budget);
            List<ReflectionChange> changes = new ArrayList<>(changes(run, consolidation));
            JsonNode core = call(
                    model,
                    run,
                    Phase.REWRITE_CORE,
                    "Labels that may be written: "
                            + String.join(
                                    ", ",
                                    settings.blockLabels().stream().sorted().toList()) + "\n\n" + context
                            + "\nConsolidation:\n" + describe(changes),
                    budget);
            changes.addAll(blockEdits(core, changes.size()));
            List<String> contradictions = strings(consolidation, "contradictions");
            JsonNode summary = call(
                    model,
                    run,
                    Phase.SUMMARIZE,
                    "Priorities:\n" + String.join("\n", priorities)
                            + "\n\nEvolution insights:\n" + String.join("\n", insights) + "\n\nContradictions:\n"
                            + String.join("\n", contradictions) + "\n\nProposed changes:\n" + describe(changes),
                    budget);
            String text =
                    summary == null ? null : blankToNull(summary.path("summary").asText(""));
            if (text == null) {
                text = render(run, priorities, insights, contradictions, changes);
            }
            if (milestoneText != null) {
                text = "## Evolution milestone: " + ReflectPrompts.title(milestone) + "\n\n" + milestoneText.strip()
                        + "\n\n" + text.strip();
            }
            text = text.strip() + "\n\n---\n**Reflection #**: " + run.number()
                    + (milestone == null ? "" : " (milestone: " + ReflectPrompts.title(milestone) + ")")
                    + "\n**Token budget used**: "
                    + budget.spent + " / " + budget.cap + "\n**Memories processed**: "
                    + run.episodes().size()
                    + " episodes, " + run.memories().size() + " memories\n**Reflections reviewed**: "
                    + run.past().size() + "\n";
            if (budget.capReached) {
                metrics.capReached.increment();
            }
            ReflectionDocument doc = ReflectionDocument.newBuilder()
                    .setTrigger(run.trigger())
                    .setTriggerDetail(run.detail())
                    .setNumber(run.number())
                    .setFromSeq(run.fromSeq())
                    .setToSeq(run.toSeq())
                    .setEpisodeIds(run.episodes().stream().map(Memory::getId).toList())
                    .setPriorities(priorities)
                    .setGuidance(guidance)
                    .setEvolutionInsights(insights)
                    .setContradictions(contradictions)
                    .setQuestions(strings(summary, "questions"))
                    .setSummary(text)
                    .setChanges(changes)
                    .setOutputTokens(budget.spent)
                    .setOutputTokenCap(budget.cap)
                    .setModel(budget.model)
                    .setMilestone(milestone)
                    .build();
            metrics.proposed.increment();
            if (milestone != null) {
                metrics.milestones.increment();
            }
            log.info(
                    "reflect: space={} reflection #{} ({} {}){} at seq {}: {} change(s), {} output tokens of {}{}",
                    run.space(),
                    run.number(),
                    run.trigger(),
                    run.detail(),
                    milestone == null ? "" : " milestone " + milestone,
                    run.toSeq(),
                    changes.size(),
                    budget.spent,
                    budget.cap,
                    budget.capReached ? " (cap reached)" : "");
            return List.of(Requests.proposeReflection(run.space(), ACTOR, doc)
                    .setRequestId(run.requestId())
                    .setRequestedAt(run.at())
                    .build());
        } catch (PhaseFailed e) {
            log.warn(
                    "reflect: space={} reflection #{} at seq {} proposes nothing: {}",
                    run.space(),
                    run.number(),
                    run.toSeq(),
                    e.getMessage());
            return List.of();
        }
    }

    /** One phase; null when the cap leaves it too few tokens. */
    private JsonNode call(ChatModel model, ReflectRun run, Phase phase, String input, Budget budget)
            throws PhaseFailed {
        return call(model, run, phase.name(), phase.system, phase.schema, input, budget);
    }

    private JsonNode call(ChatModel model, ReflectRun run, ReflectPrompts.Prompt prompt, String input, Budget budget)
            throws PhaseFailed {
        return call(model, run, prompt.name(), prompt.system(), prompt.schema(), input, budget);
    }

    private JsonNode call(
            ChatModel model,
            ReflectRun run,
            String phase,
            String system,
            JsonSchema schema,
            String input,
            Budget budget)
            throws PhaseFailed {
        if (budget.left() < MIN_PHASE_TOKENS) {
            budget.capReached = true;
            return null;
        }
        metrics.calls.increment();
        ChatResult result = model.complete(ReflectPrompts.request(run.space(), system, schema, input, budget.left()));
        long completion = result.usage().completionTokens();
        budget.spent += (int) Math.min(completion, Integer.MAX_VALUE);
        metrics.outputTokens.add(completion);
        if (!(result instanceof ChatResult.Completed completed)) {
            ChatResult.Failed failed = (ChatResult.Failed) result;
            metrics.countFailure(failed.outcome());
            throw new PhaseFailed(phase + " failed: " + failed.outcome() + " " + failed.message());
        }
        if (completed.json() == null || !completed.json().isObject()) {
            metrics.countFailure(io.memorychain.llm.ChatOutcome.BAD_RESPONSE);
            throw new PhaseFailed(phase + " answered no JSON object");
        }
        budget.model = completed.model() != null ? completed.model() : model.modelName();
        if (budget.spent > budget.cap) {
            budget.capReached = true;
        }
        return completed.json();
    }

    /** Phase 3's changes that name only ids the run read, each target once. */
    List<ReflectionChange> changes(ReflectRun run, JsonNode answer) {
        List<ReflectionChange> out = new ArrayList<>();
        if (answer == null) {
            return out;
        }
        Set<String> known = new HashSet<>();
        run.episodes().forEach(m -> known.add(m.getId()));
        run.memories().forEach(m -> known.add(m.getId()));
        Set<String> targets = new HashSet<>();
        for (JsonNode c : answer.path("changes")) {
            String type = c.path("type").asText("");
            String memoryId = blankToNull(c.path("memory_id").asText(""));
            String toId = blankToNull(c.path("to_id").asText(""));
            String content = blankToNull(c.path("content").asText(""));
            String reason = blankToNull(c.path("reason").asText(""));
            String relation = blankToNull(c.path("relation_type").asText(""));
            Integer importance = c.path("importance").isInt()
                            && c.get("importance").intValue() >= 1
                            && c.get("importance").intValue() <= 5
                    ? c.get("importance").intValue()
                    : null;
            ReflectionChange.Builder b = ReflectionChange.newBuilder()
                    .setChangeId("c" + (out.size() + 1))
                    .setReason(reason == null ? "" : reason)
                    .setCategory(blankToNull(c.path("category").asText("")))
                    .setImportance(importance);
            String problem = null;
            String target = null;
            if (reason == null) {
                problem = "no reason";
            } else if (content != null && content.length() > MAX_CONTENT_CHARS) {
                problem = "content too long";
            } else if ("create_memory".equals(type)) {
                problem = content == null ? "no content" : null;
                b.setType(ReflectionChangeType.CREATE_MEMORY).setContent(content);
            } else if ("update_memory".equals(type)) {
                problem = !known.contains(memoryId)
                        ? "unknown memory " + memoryId
                        : content == null && importance == null ? "changes nothing" : null;
                target = "memory " + memoryId;
                b.setType(ReflectionChangeType.UPDATE_MEMORY)
                        .setMemoryId(memoryId)
                        .setContent(content);
            } else if ("archive_memory".equals(type)) {
                problem = !known.contains(memoryId) ? "unknown memory " + memoryId : null;
                target = "memory " + memoryId;
                b.setType(ReflectionChangeType.ARCHIVE_MEMORY)
                        .setMemoryId(memoryId)
                        .setCategory(null)
                        .setImportance(null);
            } else if ("create_procedure".equals(type)) {
                problem = content == null ? "no steps" : null;
                b.setType(ReflectionChangeType.CREATE_PROCEDURE)
                        .setContent(content)
                        .setSummary(blankToNull(c.path("summary").asText("")));
            } else if ("link_memories".equals(type)) {
                problem = !known.contains(memoryId) || !known.contains(toId) || memoryId.equals(toId)
                        ? "unknown or identical ids " + memoryId + ", " + toId
                        : relation != null && !Relations.isValidType(relation) ? "bad relation " + relation : null;
                target = "link " + memoryId + " " + toId;
                b.setType(ReflectionChangeType.LINK_MEMORIES)
                        .setMemoryId(memoryId)
                        .setToId(toId)
                        .setRelationType(relation)
                        .setCategory(null)
                        .setImportance(null);
            } else {
                problem = "unknown type " + type;
            }
            if (problem == null && target != null && !targets.add(target)) {
                problem = "repeats " + target;
            }
            if (problem != null) {
                metrics.droppedChanges.increment();
                log.debug("reflect: space={} dropped a change: {}", run.space(), problem);
                continue;
            }
            out.add(b.build());
        }
        return out;
    }

    /** Phase 4's block edits on configured labels, each label once; ids continue after {@code already}. */
    List<ReflectionChange> blockEdits(JsonNode answer, int already) {
        List<ReflectionChange> out = new ArrayList<>();
        if (answer == null) {
            return out;
        }
        Set<String> labels = new HashSet<>();
        for (JsonNode e : answer.path("block_edits")) {
            String label = e.path("label").asText("");
            String content = blankToNull(e.path("content").asText(""));
            String reason = blankToNull(e.path("reason").asText(""));
            if (!settings.blockLabels().contains(label)
                    || content == null
                    || content.length() > MAX_CONTENT_CHARS
                    || reason == null
                    || !labels.add(label)) {
                metrics.droppedChanges.increment();
                continue;
            }
            out.add(ReflectionChange.newBuilder()
                    .setChangeId("c" + (already + out.size() + 1))
                    .setType(ReflectionChangeType.UPDATE_BLOCK)
                    .setLabel(label)
                    .setContent(content)
                    .setReason(reason)
                    .build());
        }
        return out;
    }

    /** The summary without the model (the cap left no room for phase 5). */
    static String render(
            ReflectRun run,
            List<String> priorities,
            List<String> insights,
            List<String> contradictions,
            List<ReflectionChange> changes) {
        StringBuilder b = new StringBuilder("# Reflection #" + run.number() + "\n\n## Priorities\n");
        priorities.forEach(p -> b.append("- ").append(p).append('\n'));
        b.append("\n## Proposed changes\n").append(describe(changes));
        b.append("\n## Contradictions\n");
        contradictions.forEach(c -> b.append("- ").append(c).append('\n'));
        b.append("\n## Philosophical evolution\n");
        insights.forEach(i -> b.append("- ").append(i).append('\n'));
        return b.toString();
    }

    static String describe(List<ReflectionChange> changes) {
        StringBuilder b = new StringBuilder();
        for (ReflectionChange c : changes) {
            b.append("- ")
                    .append(c.getChangeId())
                    .append(' ')
                    .append(c.getType().name().toLowerCase(Locale.ROOT));
            if (c.getMemoryId() != null) {
                b.append(' ').append(c.getMemoryId());
            }
            if (c.getToId() != null) {
                b.append(" -> ").append(c.getToId());
            }
            if (c.getLabel() != null) {
                b.append(" [").append(c.getLabel()).append(']');
            }
            if (c.getContent() != null) {
                b.append(": ").append(c.getContent().replace('\n', ' '));
            }
            b.append(" (").append(c.getReason()).append(")\n");
        }
        return b.toString();
    }

    private static List<String> strings(JsonNode node, String field) {
        List<String> out = new ArrayList<>();
        if (node != null) {
            for (JsonNode s : node.path(field)) {
                String text = blankToNull(s.asText(""));
                if (text != null && text.length() <= 2_000 && out.size() < 20) {
                    out.add(text);
                }
            }
        }
        return out;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
