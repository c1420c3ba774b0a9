package io.memorychain.api.messages;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.domain.messages.TriggerDetector.Detection;
import java.util.ArrayList;
import java.util.List;

/**
 * Forgetting by message (docs/architecture.md, messages): a forget message answers the memories that match its topic
 * and a signed token; confirming the token soft-deletes them (restorable, audited) as the caller.
 */
final class MessageForgets {

    private final Forgetting forgetting;
    private final ForgetTokens tokens;
    private final int maxMatches;
    private final java.time.Clock clock;

    MessageForgets(Forgetting forgetting, ForgetTokens tokens, int maxMatches, java.time.Clock clock) {
        this.forgetting = forgetting;
        this.tokens = tokens;
        this.maxMatches = maxMatches;
        this.clock = clock;
    }

    /** The matches of a forget message and a token that confirms them; nothing is forgotten yet. */
    MessageJson.Answer matches(String space, Actor caller, String base, Detection d) {
        if (d.text().isEmpty()) {
            return new MessageJson.Answer(
                    "forget",
                    "",
                    null,
                    List.of(),
                    List.of(),
                    null,
                    "nothing to forget: no topic with \"" + d.phrase() + "\"",
                    Forgetting.HARD_DELETE,
                    null,
                    null,
                    null,
                    base);
        }
        List<QueryJson.Item> items =
                forgetting.matches(space, caller, d.text(), maxMatches).items();
        double best = items.stream().mapToDouble(QueryJson.Item::score).max().orElse(0);
        List<QueryJson.Item> matches =
                items.stream().filter(i -> i.score() >= best / 2).toList();
        if (matches.isEmpty()) {
            return new MessageJson.Answer(
                    "forget",
                    d.text(),
                    null,
                    List.of(),
                    List.of(),
                    null,
                    "no memory matches: nothing to forget",
                    Forgetting.HARD_DELETE,
                    null,
                    null,
                    null,
                    base);
        }
        List<String> ids = matches.stream().map(QueryJson.Item::id).toList();
        String token = tokens.issue(space, caller, ids, clock.instant());
        return new MessageJson.Answer(
                "forget",
                d.text(),
                null,
                List.of(),
                matches,
                new MessageJson.Confirmation(token, ids, tokens.ttl().toSeconds()),
                "nothing forgotten yet: confirm with POST /messages:confirm-forget {token}",
                Forgetting.HARD_DELETE,
                null,
                null,
                null,
                base);
    }

    /**
     * Soft-deletes the memories a forget token confirms (all, or the given subset), as the caller; a retried
     * confirmation deletes nothing twice.
     *
     * @throws ApiException 400 INVALID_CONFIRMATION, 403 CONFIRMATION_NOT_YOURS
     */
    MessageJson.Forgotten confirm(String space, Actor caller, MessageJson.ConfirmBody body) {
        String s = Spaces.require(space);
        ForgetTokens.Confirmed confirmed =
                tokens.verify(body == null ? null : body.token(), s, caller, clock.instant());
        List<String> ids = confirmed.memoryIds();
        if (body.memoryIds() != null) {
            for (String id : body.memoryIds()) {
                if (!ids.contains(id)) {
                    throw new ApiException(
                            ErrorCodes.INVALID_CONFIRMATION,
                            "memory " + id + " is not confirmed by " + "this token (it confirms "
                                    + String.join(", ", ids) + ")");
                }
            }
            ids = List.copyOf(body.memoryIds());
        }
        String base = MessageIds.forget(body.token());
        List<String> forgotten = new ArrayList<>();
        List<MessageJson.NotForgotten> not = new ArrayList<>();
        for (String id : ids) {
            try {
                forgetting.forget(
                        new WriteContext(
                                s, caller, base + ":" + confirmed.memoryIds().indexOf(id), null, null),
                        id,
                        "forgotten at the user's request (confirmed)");
                forgotten.add(id);
            } catch (ApiException e) {
                if (e.code().equals(ErrorCodes.TIMEOUT)) {
                    throw e;
                }
                not.add(new MessageJson.NotForgotten(id, e.code(), e.getMessage()));
            }
        }
        return new MessageJson.Forgotten(forgotten, not, Forgetting.HARD_DELETE);
    }
}
