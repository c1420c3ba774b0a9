package io.memorychain.api.checkpoints;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.AgentCheckpoint;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.MasterKey;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Between the topic's {@link AgentCheckpoint} and a {@link Checkpoint}. With a master key (content encryption on), each
 * record's state and metadata are sealed under a data key of its own, wrapped under the master key and kept in the
 * record (envelope encryption, as the memories' texts: docs/architecture.md §12); without one they are plain JSON.
 */
final class CheckpointCodec {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};

    /** Null: texts are written plain. */
    private final MasterKey master;

    CheckpointCodec(MasterKey master) {
        this.master = master;
    }

    /** The JSON text of a state or metadata object (what the size limit counts). */
    static String json(Map<String, Object> object) {
        try {
            return JSON.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serializable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    AgentCheckpoint encode(Checkpoint c, String stateJson, String metadataJson) {
        Actor actor = actorOf(c.savedBy());
        AgentCheckpoint.Builder record = AgentCheckpoint.newBuilder()
                .setSpace(c.thread().space())
                .setUserId(c.thread().userId())
                .setThreadId(c.thread().threadId())
                .setCheckpointId(c.id())
                .setParentId(c.parentId())
                .setPosition(c.position())
                .setCreatedAt(c.createdAt())
                .setUpdatedAt(c.updatedAt())
                .setActor(actor);
        if (master == null) {
            return record.setState(stateJson).setMetadata(metadataJson).build();
        }
        byte[] dataKey = ContentCipher.newKey();
        String subject = subject(c.thread(), c.id());
        byte[] aad = ContentCipher.contentAad(c.thread().space(), subject);
        return record.setState(ContentCipher.encrypt(dataKey, aad, stateJson))
                .setMetadata(ContentCipher.encrypt(dataKey, aad, metadataJson))
                .setMasterKeyId(master.id())
                .setWrappedKey(ByteBuffer.wrap(master.wrap(c.thread().space(), subject, dataKey)))
                .build();
    }

    Checkpoint decode(AgentCheckpoint r) {
        Checkpoint.ThreadRef thread = new Checkpoint.ThreadRef(r.getSpace(), r.getUserId(), r.getThreadId());
        String state = r.getState();
        String metadata = r.getMetadata();
        if (r.getWrappedKey() != null) {
            if (master == null || !master.id().equals(r.getMasterKeyId())) {
                throw new IllegalStateException("checkpoint " + r.getCheckpointId() + " is sealed under master key "
                        + r.getMasterKeyId() + ", which this service does not hold");
            }
            String subject = subject(thread, r.getCheckpointId());
            ByteBuffer wrapped = r.getWrappedKey().duplicate();
            byte[] bytes = new byte[wrapped.remaining()];
            wrapped.get(bytes);
            byte[] dataKey = master.unwrap(r.getSpace(), subject, bytes);
            byte[] aad = ContentCipher.contentAad(r.getSpace(), subject);
            state = ContentCipher.decrypt(dataKey, aad, state);
            metadata = ContentCipher.decrypt(dataKey, aad, metadata);
        }
        return new Checkpoint(
                thread,
                r.getCheckpointId(),
                r.getParentId(),
                r.getPosition(),
                r.getCreatedAt(),
                r.getUpdatedAt(),
                r.getActor().getType().name().toLowerCase(Locale.ROOT) + ":"
                        + r.getActor().getId(),
                object(state),
                object(metadata));
    }

    private static String subject(Checkpoint.ThreadRef thread, String id) {
        return "checkpoint\0" + thread.userId() + "\0" + thread.threadId() + "\0" + id;
    }

    private static Map<String, Object> object(String json) {
        try {
            return JSON.readValue(json, OBJECT);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored checkpoint is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    private static Actor actorOf(String savedBy) {
        int colon = savedBy.indexOf(':');
        ActorType type = ActorType.valueOf(savedBy.substring(0, colon).toUpperCase(Locale.ROOT));
        return new Actor(type, savedBy.substring(colon + 1));
    }
}
