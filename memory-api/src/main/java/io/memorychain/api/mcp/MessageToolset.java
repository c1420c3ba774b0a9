package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.messages.Forgetting;
import io.memorychain.api.messages.MessageJson;
import io.memorychain.api.messages.Messages;
import io.memorychain.api.retrieval.QueryJson;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The user's words: forgetting with confirmation and messages with remember / forget / reflect / recall triggers. */
@Singleton
class MessageToolset implements Toolset {

    private static final int FORGET_MATCHES = 10;

    private final Messages messages;
    private final Forgetting forgetting;
    private final ToolArgs args;

    MessageToolset(Messages messages, Forgetting forgetting, ToolArgs args) {
        this.messages = messages;
        this.forgetting = forgetting;
        this.args = args;
    }

    @Override
    public int order() {
        return 20;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "memory_forget",
                        Operation.DELETE_MEMORY,
                        """
                Forget memories the user asks you to forget, in two steps. First call with a query: it lists the \
                matching memories and changes nothing; show them to the user. Then, once the user confirms, call again \
                with confirm=true and the ids to forget: they are archived (soft-deleted, recoverable by an admin).""",
                        write().string("query", "What the user wants forgotten (first call)", false)
                                .strings("ids", "The ids to forget (second call)", false)
                                .bool("confirm", "true to forget the given ids")
                                .string("reason", "Why, as the user said it", false),
                        WRITERS,
                        this::forget)
                .add(
                        "memory_message",
                        Operation.POST_MESSAGE,
                        """
                Pass the user's message when it asks you to remember, forget or reflect ("remember that ...", "don't \
                forget ...", "forget about ...", "reflect on ...", "what do you remember about ...?"). remember: stored \
                at once, routed into a memory, its entities and relations. forget: lists the matches and a confirmation \
                token and deletes nothing; show the matches, and once the user confirms call again with confirm_token \
                (soft delete; permanent deletion is not available). reflect: requests a reflection. recall: the \
                matching memories. The answer says what was done (trigger none: nothing stored).""",
                        write().string("message", "The user's message (not needed with confirm_token)", false)
                                .string("user_id", "The user the message is from", false)
                                .string("thread_id", "The conversation thread", false)
                                .string("run_id", "The run", false)
                                .string(
                                        "confirm_token",
                                        "confirmation.token of a forget answer, once the user confirmed",
                                        false)
                                .strings("memory_ids", "With confirm_token: only these of its memories", false),
                        Set.of(Role.AGENT, Role.USER),
                        this::message)
                .build();
    }

    private Object message(MemoryTool.Call c) {
        Map<String, Object> a = new LinkedHashMap<>(c.arguments());
        Object token = a.remove("confirm_token");
        if (token != null) {
            Object ids = a.remove("memory_ids");
            if (!a.isEmpty()) {
                throw ApiException.invalid(
                        "with confirm_token only memory_ids may be given, not " + String.join(", ", a.keySet()));
            }
            Map<String, Object> confirm = new LinkedHashMap<>();
            confirm.put("token", token);
            if (ids != null) {
                confirm.put("memory_ids", ids);
            }
            return messages.confirmForget(
                    c.space(), c.caller().actor(), args.body(confirm, MessageJson.ConfirmBody.class));
        }
        a.remove("memory_ids");
        return messages.handle(c.space(), c.caller().actor(), c.idempotencyKey(), args.body(a, MessageJson.Body.class));
    }

    private Object forget(MemoryTool.Call c) {
        Map<String, Object> a = c.arguments();
        if (!Boolean.TRUE.equals(a.get("confirm"))) {
            String query = text(a, "query");
            QueryJson.Answer answer = forgetting.matches(c.space(), c.caller().actor(), query, FORGET_MATCHES);
            return Map.of(
                    "matches",
                    answer.items(),
                    "confirmed",
                    false,
                    "next",
                    "Nothing was forgotten yet. Show these to the user; to forget some, call memory_forget again with "
                            + "confirm=true and their ids.");
        }
        Object ids = a.get("ids");
        if (!(ids instanceof List<?> list) || list.isEmpty()) {
            throw ApiException.invalid("confirm=true needs the ids to forget (from the first call's matches)");
        }
        String reason = optional(a, "reason");
        List<Object> forgotten = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            forgotten.add(WriteResponse.of(forgetting.forget(c.write(i), String.valueOf(list.get(i)), reason)));
        }
        return Map.of("forgotten", forgotten, "confirmed", true);
    }
}
