package io.memorychain.jobs.refine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.ChatResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one open refinement session with a model as an agent loop (docs/architecture.md §9, "Run by the system"): the
 * model sees the session's rules and ledger, answers one JSON action per turn, sees the action's result (the
 * sequencer's decision included) and goes on until it completes the session. Bounded by
 * {@link RefineSettings#maxSteps()} calls and {@link RefineSettings#maxTokens()} tokens. A call that fails after the
 * model port's own retries (429, timeouts, 5xx, replies that are not JSON of the schema) ends the run with the session
 * left open and the reason returned: nothing is ever completed on the model's behalf. An action the agent may not take
 * (an unknown action, a missing field, protect when not offered, a refused request) is reported back to it as the
 * step's result.
 */
public final class RefineAgent {

    private static final Logger log = LoggerFactory.getLogger(RefineAgent.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_RESULT_CHARS = 4_000;

    private final RefineSettings settings;

    public RefineAgent(RefineSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** @param tenant whose token budget pays (the space) */
    public RefineOutcome run(String tenant, ChatModel model, SessionTools tools) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system(RefinePrompt.system(settings.allowProtect())));
        messages.add(ChatMessage.user(tools.ledger()));
        long tokens = 0;
        for (int step = 1; step <= settings.maxSteps(); step++) {
            if (tokens >= settings.maxTokens()) {
                return new RefineOutcome.LeftOpen(
                        "token bound reached: " + tokens + " of " + settings.maxTokens() + " tokens used",
                        step - 1,
                        tokens);
            }
            ChatResult result = model.complete(new ChatRequest(
                    tenant, RefinePrompt.PURPOSE, messages, RefinePrompt.SCHEMA, settings.stepMaxTokens(), 0.0));
            tokens += result.usage().total();
            if (!(result instanceof ChatResult.Completed reply)) {
                ChatResult.Failed failed = (ChatResult.Failed) result;
                return new RefineOutcome.LeftOpen(
                        "model call failed (" + failed.outcome() + " after " + failed.attempts() + " attempts): "
                                + failed.message(),
                        step,
                        tokens);
            }
            JsonNode action = reply.json() != null ? reply.json() : parse(reply.content());
            messages.add(ChatMessage.assistant(reply.content()));
            if (action == null || !action.isObject()) {
                messages.add(
                        ChatMessage.user("Result: error: the reply was not one JSON object; answer with one action."));
                continue;
            }
            String name = text(action, "action");
            String observation;
            try {
                if ("complete".equals(name)) {
                    String summary = require(action, "summary");
                    String line = tools.complete(summary);
                    return new RefineOutcome.Completed(summary, line, step, tokens);
                }
                observation = act(name, action, tools);
            } catch (SessionTools.Refused e) {
                observation = "refused " + e.code() + ": " + e.getMessage();
            } catch (IllegalArgumentException e) {
                observation = "error: " + e.getMessage();
            }
            log.debug("refine step {}: {} -> {}", step, name, observation);
            messages.add(ChatMessage.user("Result: " + clip(observation)));
        }
        return new RefineOutcome.LeftOpen(
                "step bound reached: " + settings.maxSteps() + " steps without complete", settings.maxSteps(), tokens);
    }

    private String act(String name, JsonNode action, SessionTools tools) {
        return switch (name) {
            case "search" -> tools.search(text(action, "query"));
            case "consolidate" -> {
                List<String> ids = new ArrayList<>();
                action.path("ids").forEach(id -> ids.add(id.asText()));
                if (ids.size() < 2) {
                    throw new IllegalArgumentException("consolidate needs at least two ids");
                }
                yield "consolidated into " + tools.consolidate(ids, require(action, "content"), text(action, "reason"));
            }
            case "update" -> tools.update(require(action, "id"), require(action, "content"));
            case "delete" -> tools.delete(require(action, "id"), text(action, "reason"));
            case "protect" -> {
                if (!settings.allowProtect()) {
                    throw new IllegalArgumentException("protect is not offered in this session");
                }
                yield tools.protect(require(action, "id"));
            }
            default ->
                throw new IllegalArgumentException("unknown action '" + name
                        + "' (search, consolidate, update, delete" + (settings.allowProtect() ? ", protect" : "")
                        + ", complete)");
        };
    }

    private static JsonNode parse(String content) {
        try {
            return JSON.readTree(content);
        } catch (Exception e) {
            return null;
        }
    }

    private static String text(JsonNode action, String field) {
        JsonNode v = action.get(field);
        return v == null || v.isNull() ? "" : v.asText().strip();
    }

    private static String require(JsonNode action, String field) {
        String v = text(action, field);
        if (v.isEmpty()) {
            throw new IllegalArgumentException(field + " is required for " + text(action, "action"));
        }
        return v;
    }

    private static String clip(String s) {
        return s.length() <= MAX_RESULT_CHARS ? s : s.substring(0, MAX_RESULT_CHARS) + " ...";
    }
}
