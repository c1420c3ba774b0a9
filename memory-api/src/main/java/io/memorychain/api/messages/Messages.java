package io.memorychain.api.messages;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.backend.ServiceChatModels;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.config.MessagesConfig;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.ops.OpsRecorder;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.api.relations.Relations;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.retrieval.Retrieval;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.Rules;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.messages.TriggerDetector;
import io.memorychain.domain.messages.TriggerDetector.Detection;
import io.memorychain.domain.messages.TriggerDetector.Trigger;
import io.memorychain.domain.messages.WritingConstraints;
import io.memorychain.domain.messages.WritingConstraints.Style;
import io.memorychain.domain.messages.WritingConstraints.Verdict;
import io.memorychain.llm.ChatModel;
import io.memorychain.projector.proposal.ProposalConflicts;
import io.memorychain.projector.proposal.ProposalFlag;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The message endpoint (docs/architecture.md §20), transport-neutral (REST {@link MessageController}, MCP
 * {@code memory_message}): detects the trigger of a user message (seed 001 §8.1) and acts on it through the ordinary
 * application services, as the caller, with request ids derived from the message ({@link MessageIds}).
 *
 * <ul>
 *   <li>remember: the router (seed 001 §8.2) classifies the text; its summary passes the writing constraints (seed 004
 *       §9) and becomes a memory of its store (vault: pinned; core or core_update: tier core), its entities ENTITY
 *       memories (an existing one of the same name is reused) linked from it, its relations links between them. Without
 *       a model, or when the call fails, the user's words are stored as a semantic memory with confidence high and the
 *       answer says why.
 *   <li>forget: the matches and a confirmation token; {@link #confirmForget} soft-deletes them.
 *   <li>reflect: a reflection request, as {@code POST /reflections}. recall: memory.query results.
 *   <li>multi-fact extraction (seed 004 §13) for long messages or when the router says so, with its caps.
 * </ul>
 */
@Singleton
public class Messages {

    private static final Logger log = LoggerFactory.getLogger(Messages.class);
    private static final int RECALL_TOP_K = 5;
    private static final Set<Trigger> EXTRACTING = Set.of(Trigger.NONE, Trigger.REMEMBER);

    private final MemoryBackend backend;
    private final Retrieval retrieval;
    private final ReflectionService reflections;
    private final Forgetting forgetting;
    private final CategoryReads categories;
    private final CategoryAccess access;
    private final InputRules rules;
    private final MessagesConfig config;
    private final MessageMetrics metrics;
    private final ServiceChatModels models;
    private final ProposalConflicts duplicates;
    private final MessageForgets forgets;
    private final MessageWrites writes;
    private final MessageRemembering remembering;
    private final DailyFactCap dailyCap;
    private final OpsRecorder ops;

    public Messages(
            MemoryBackend backend,
            Memories memories,
            Relations relations,
            Retrieval retrieval,
            ReflectionService reflections,
            Forgetting forgetting,
            CategoryReads categories,
            CategoryAccess access,
            InputRules rules,
            MessagesConfig config,
            MessageMetrics metrics,
            ServiceChatModels models,
            ProposalConfig proposals,
            OpsRecorder ops) {
        this.backend = backend;
        this.retrieval = retrieval;
        this.reflections = reflections;
        this.forgetting = forgetting;
        this.categories = categories;
        this.access = access;
        this.rules = rules;
        this.config = config;
        this.metrics = metrics;
        this.models = models;
        this.duplicates = backend.embedder() == null
                ? null
                : new ProposalConflicts(
                        backend.embedder(), proposals.band(backend.embedder().modelId()));
        this.writes = new MessageWrites(memories, relations);
        this.remembering = new MessageRemembering(writes, backend, categories, metrics);
        this.forgets = new MessageForgets(
                forgetting,
                new ForgetTokens(config.getConfirmationSecret(), config.getConfirmationTtl()),
                config.getForgetMatches(),
                backend.clock());
        this.dailyCap = new DailyFactCap(config.getDailyFactCap());
        this.ops = ops;
    }

    /** One message's context: who, where, the request-id base and the message's own fields. */
    record Call(String space, Actor caller, String base, MessageJson.Body body) {

        WriteContext write(String suffix) {
            return new WriteContext(space, caller, base + ":" + suffix, null, null);
        }
    }

    /** What the remember step stored, for the extraction pass after it. */
    record Remembered(
            MessageJson.Routing routing, List<MemoryJson> stored, List<Verdict> verdicts, boolean multipleFacts) {}

    /**
     * Acts on a message.
     *
     * @param idempotencyKey the caller's key (null: ids derived from the message itself)
     * @throws ApiException 400 INVALID_ARGUMENT (no message, bad fields), 403 ROLE_NOT_ALLOWED (not an agent or a
     *     user), or the codes of the writes
     */
    public MessageJson.Answer handle(String space, Actor caller, String idempotencyKey, MessageJson.Body body) {
        String s = Spaces.require(space);
        requireAgentOrUser(caller);
        if (body == null || body.message() == null || body.message().isBlank()) {
            throw ApiException.invalid("message is required: the user's message");
        }
        String message = rules.content("message", body.message());
        InputRules.text("user_id", body.userId(), InputRules.MAX_SHORT_TEXT);
        InputRules.text("thread_id", body.threadId(), InputRules.MAX_SHORT_TEXT);
        InputRules.text("run_id", body.runId(), InputRules.MAX_SHORT_TEXT);
        if (idempotencyKey != null) {
            RequestIds.fromHeader(idempotencyKey);
        }
        Call call = new Call(
                s,
                caller,
                MessageIds.base(s, idempotencyKey, body.threadId(), body.userId(), body.runId(), message),
                body);
        Detection d = TriggerDetector.detect(message);
        metrics.message(d.trigger());
        // seed 004 section 14: the hot path's classify step (skipped: no trigger phrase)
        ops.record(OpsRecorder.Op.of(s, caller, "hotpath", "classify", d.trigger() == Trigger.NONE ? "skipped" : "ok")
                .withScope(body.userId(), body.threadId()));
        String trigger = d.trigger().wireName();
        return switch (d.trigger()) {
            case NONE -> {
                List<Verdict> verdicts = new ArrayList<>();
                MessageJson.Facts facts = extractIfLong(call, message, false, List.of(), verdicts);
                yield new MessageJson.Answer(
                        trigger,
                        "",
                        null,
                        facts == null ? List.of() : stored(s, facts),
                        List.of(),
                        null,
                        facts == null ? "no trigger phrase: nothing stored" : null,
                        null,
                        verdicts.isEmpty() ? null : validation(verdicts),
                        facts,
                        null,
                        call.base());
            }
            case REMEMBER -> remember(call, d, message);
            case FORGET -> forgets.matches(call.space(), call.caller(), call.base(), d);
            case REFLECT -> {
                String reason = ("requested in a message: " + message);
                MemoryOutcome outcome = reflections.request(
                        call.write("reflect"),
                        reason.length() > Rules.MAX_REASON ? reason.substring(0, Rules.MAX_REASON) : reason);
                yield new MessageJson.Answer(
                        trigger,
                        d.text(),
                        null,
                        List.of(),
                        List.of(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        new MessageJson.Reflection(outcome.getRequestId(), outcome.getSeq()),
                        call.base());
            }
            case RECALL -> {
                if (d.text().isEmpty()) {
                    yield new MessageJson.Answer(
                            trigger,
                            "",
                            null,
                            List.of(),
                            List.of(),
                            null,
                            "nothing to recall: no topic after the phrase",
                            null,
                            null,
                            null,
                            null,
                            call.base());
                }
                QueryJson.Answer answer = retrieval.query(
                        s,
                        caller,
                        new QueryBody(
                                null,
                                d.text(),
                                null,
                                null,
                                RECALL_TOP_K,
                                "full",
                                null,
                                null,
                                null,
                                null,
                                body.threadId(),
                                null,
                                null,
                                null,
                                null));
                yield new MessageJson.Answer(
                        trigger,
                        d.text(),
                        null,
                        List.of(),
                        answer.items(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        call.base());
            }
        };
    }

    private MessageJson.Answer remember(Call call, Detection d, String message) {
        if (d.text().isEmpty()) {
            return new MessageJson.Answer(
                    "remember",
                    "",
                    null,
                    List.of(),
                    List.of(),
                    null,
                    "nothing to remember after \"" + d.phrase() + "\"",
                    null,
                    null,
                    null,
                    null,
                    call.base());
        }
        Remembered r = remembering.route(call, d.text(), model(call.caller()));
        List<Verdict> verdicts = new ArrayList<>(r.verdicts());
        List<MemoryJson> stored = new ArrayList<>(r.stored());
        MessageJson.Facts facts = extractIfLong(
                call,
                message,
                r.multipleFacts(),
                stored.stream().map(MemoryJson::content).toList(),
                verdicts);
        if (facts != null) {
            stored.addAll(stored(call.space(), facts));
        }
        return new MessageJson.Answer(
                "remember",
                d.text(),
                r.routing(),
                stored,
                List.of(),
                null,
                null,
                null,
                validation(verdicts),
                facts,
                null,
                call.base());
    }

    private MessageJson.Facts extractIfLong(
            Call call, String message, boolean routerSaysSo, List<String> already, List<Verdict> verdicts) {
        if (message.length() <= config.getMultiFactMinChars() && !routerSaysSo) {
            return null;
        }
        FactExtractor.Result result;
        try {
            result = FactExtractor.extract(model(call.caller()), call.space(), message);
        } catch (IllegalArgumentException e) {
            result = new FactExtractor.Result(List.of(), "invalid model settings: " + e.getMessage());
        }
        if (result.skipped() != null) {
            return new MessageJson.Facts(0, List.of(), List.of(), result.skipped());
        }
        List<String> written = new ArrayList<>();
        List<MessageJson.SkippedFact> skipped = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        already.forEach(a -> seen.add(words(a)));
        String user = call.body().userId() != null
                ? call.body().userId()
                : call.caller().getType().name().toLowerCase(Locale.ROOT) + ":"
                        + call.caller().getId();
        Instant now = backend.clock().instant();
        for (int i = 0; i < result.facts().size(); i++) {
            FactExtractor.Fact fact = result.facts().get(i);
            Style style = switch (fact.kind()) {
                case "episodic" -> Style.EPISODIC;
                case "procedural" -> Style.PROCEDURAL;
                default -> Style.SEMANTIC;
            };
            Verdict verdict = WritingConstraints.check(style, fact.content());
            metrics.validated(verdict.outcome());
            verdicts.add(verdict);
            String why = !verdict.accepted()
                    ? String.join("; ", verdict.reasons())
                    : !seen.add(words(verdict.text()))
                            ? "duplicate of this message's memories"
                            : duplicateOf(call, verdict.text());
            if (why == null && written.size() >= config.getMaxFactWrites()) {
                why = "per-message cap (" + config.getMaxFactWrites() + " writes)";
            }
            if (why == null && !dailyCap.take(call.space(), user, now)) {
                why = "daily cap of " + user + " (" + config.getDailyFactCap() + " facts)";
            }
            if (why != null) {
                skipped.add(new MessageJson.SkippedFact(fact.content(), why));
                continue;
            }
            MemoryKind kind = style == Style.EPISODIC
                    ? MemoryKind.EPISODIC
                    : style == Style.PROCEDURAL ? MemoryKind.PROCEDURAL : MemoryKind.SEMANTIC;
            written.add(writes.create(
                            call,
                            "f" + i,
                            verdict.text(),
                            kind,
                            null,
                            fact.importance(),
                            List.of("extracted"),
                            "medium",
                            null)
                    .id());
        }
        return new MessageJson.Facts(result.facts().size(), written, skipped, null);
    }

    /** "near-duplicate of ID" when an active memory the caller may read says the same; else null. */
    private String duplicateOf(Call call, String text) {
        if (duplicates == null) {
            return null;
        }
        for (ProposalFlag flag : duplicates.flagsOfText(backend.views(), call.space(), text, access, call.caller())) {
            if (flag.kind() == ProposalFlag.Kind.DUPLICATE) {
                return "near-duplicate of " + flag.id();
            }
        }
        return null;
    }

    private List<MemoryJson> stored(String space, MessageJson.Facts facts) {
        return facts.written().stream()
                .map(id -> MemoryJson.of(backend.views().memory(space, id).orElseThrow()))
                .toList();
    }

    /**
     * Soft-deletes the memories a forget token confirms (all, or the given subset), as the caller; a retried
     * confirmation deletes nothing twice.
     *
     * @throws ApiException 400 INVALID_CONFIRMATION, 403 CONFIRMATION_NOT_YOURS, 403 ROLE_NOT_ALLOWED
     */
    public MessageJson.Forgotten confirmForget(String space, Actor caller, MessageJson.ConfirmBody body) {
        requireAgentOrUser(caller);
        return forgets.confirm(space, caller, body);
    }

    private MessageJson.Validation validation(List<Verdict> verdicts) {
        MessageMetrics.PassRate rate = metrics.passRate();
        List<String> reasons = new ArrayList<>();
        verdicts.forEach(v -> reasons.addAll(v.reasons()));
        return new MessageJson.Validation(
                verdicts.stream()
                        .map(v -> v.outcome().name().toLowerCase(Locale.ROOT))
                        .toList(),
                reasons,
                new MessageJson.PassRate(rate.pass(), rate.trimmed(), rate.rejected(), rate.rate()));
    }

    /**
     * The caller's model (its own if {@code memory.llm.agents.<id>} configures one), the settings parsed on first use
     * so that invalid settings fail the remember's routing (with the reason in the answer), not the service's start.
     *
     * @throws IllegalArgumentException naming the invalid setting
     */
    private ChatModel model(Actor caller) {
        return models.get().forAgent(caller.getId());
    }

    private static void requireAgentOrUser(Actor caller) {
        if (caller.getType() != ActorType.AGENT && caller.getType() != ActorType.USER) {
            throw new ApiException(
                    ErrorCodes.ROLE_NOT_ALLOWED,
                    "messages are sent by agent or user keys, not "
                            + caller.getType().name().toLowerCase(Locale.ROOT) + " keys");
        }
    }

    /** An entity name as relations may name it: "project--moltbot", "Moltbot" and "moltbot" are the same. */
    static String key(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        int dashes = n.indexOf("--");
        if (dashes >= 0) {
            n = n.substring(dashes + 2);
        }
        return n.replaceAll("[-_\\s]+", " ").strip();
    }

    /** A relation as a link type ([a-z][a-z0-9_-]{0,63}): "lives in" -> lives_in. */
    static String relationType(String relation) {
        String t = relation.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_-]+", "_")
                .replaceAll("^_+|_+$", "");
        if (t.isEmpty() || !Character.isLetter(t.charAt(0))) {
            t = "r_" + t;
        }
        return t.length() > 64 ? t.substring(0, 64) : t;
    }

    private static String words(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }
}
