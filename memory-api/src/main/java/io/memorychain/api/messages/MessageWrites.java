package io.memorychain.api.messages;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.relations.LinkBody;
import io.memorychain.api.relations.Relations;
import io.memorychain.avro.MemoryKind;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A message's writes: its memories created and linked as the caller, with request ids derived from the message. */
final class MessageWrites {

    private static final Logger log = LoggerFactory.getLogger(MessageWrites.class);
    private static final String SOURCE = "message:";

    private final Memories memories;
    private final Relations relations;

    MessageWrites(Memories memories, Relations relations) {
        this.memories = memories;
        this.relations = relations;
    }

    MemoryJson create(
            Messages.Call call,
            String suffix,
            String content,
            MemoryKind kind,
            String tier,
            Integer importance,
            List<String> tags,
            String confidence,
            Boolean pinned) {
        MessageJson.Body b = call.body();
        CreateMemoryBody body = new CreateMemoryBody(
                content,
                kind.name().toLowerCase(Locale.ROOT),
                tier,
                null,
                null,
                tags.isEmpty() ? null : tags,
                importance,
                confidence,
                SOURCE + suffix.charAt(0),
                b.userId(),
                null,
                b.runId(),
                null,
                b.threadId(),
                "user",
                null,
                pinned);
        return MemoryJson.of(memories.create(call.write(suffix), body).memory());
    }

    /** Null when linked (or already linked by an earlier write); else why not. */
    String link(Messages.Call call, String suffix, String from, String to, String type) {
        try {
            relations.link(call.write(suffix), from, new LinkBody(to, type, null));
            return null;
        } catch (ApiException e) {
            if (e.code().equals(ErrorCodes.ALREADY_LINKED)) {
                return null;
            }
            log.info(
                    "messages: link {} -{}-> {} in space={} not written: {} {}",
                    from,
                    type,
                    to,
                    call.space(),
                    e.code(),
                    e.getMessage());
            return e.code() + ": " + e.getMessage();
        }
    }
}
