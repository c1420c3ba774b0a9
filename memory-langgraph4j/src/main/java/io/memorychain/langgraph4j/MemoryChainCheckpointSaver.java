package io.memorychain.langgraph4j;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.MemoryChainException;
import io.memorychain.client.Write;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;

/**
 * A LangGraph4j checkpoint saver on Memory Chain's agent checkpoints ({@code /v1/spaces/{space}/checkpoints}): a
 * compiled graph's checkpoints per thread live on the service's compacted checkpoint topic, so a graph resumes after
 * its process or the service restarts. Per space, optionally per user; the graph's thread id is the thread.
 *
 * <p>State values travel as JSON: strings, numbers, booleans, lists and maps come back as they went (numbers as Jackson
 * reads them); other objects are written as Jackson serializes them and come back as maps. The node ids go in the
 * checkpoint's metadata ({@code node_id}, {@code next_node_id}).
 */
public final class MemoryChainCheckpointSaver implements BaseCheckpointSaver {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};
    private static final int PAGE = 100;

    private final MemoryChainClient client;
    private final String space;
    private final String userId;

    /** @param userId the user the graph's threads are with, or null for none */
    public MemoryChainCheckpointSaver(MemoryChainClient client, String space, String userId) {
        this.client = Objects.requireNonNull(client);
        this.space = Objects.requireNonNull(space);
        this.userId = userId;
    }

    /** Newest first, as LangGraph4j's own savers list them. */
    @Override
    public Collection<Checkpoint> list(RunnableConfig config) {
        List<Checkpoint> out = new ArrayList<>();
        String cursor = null;
        do {
            Map<String, Object> query = thread(config);
            query.put("limit", PAGE);
            if (cursor != null) {
                query.put("cursor", cursor);
            }
            JsonNode page = client.listCheckpoints(space, query);
            page.path("items").forEach(item -> out.add(checkpoint(item)));
            cursor = page.path("next_cursor").isTextual()
                    ? page.path("next_cursor").asText()
                    : null;
        } while (cursor != null);
        return out;
    }

    /** The config's checkpoint, or the thread's newest when it names none. */
    @Override
    public Optional<Checkpoint> get(RunnableConfig config) {
        try {
            return Optional.of(
                    checkpoint(client.getCheckpoint(space, config.checkPointId().orElse("latest"), thread(config))));
        } catch (MemoryChainException e) {
            if ("NOT_FOUND".equals(e.code())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Saves the checkpoint under its id: a new id becomes the thread's newest, an existing one (a graph updating a past
     * step) is replaced where it stands.
     */
    @Override
    public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("node_id", checkpoint.getNodeId());
        metadata.put("next_node_id", checkpoint.getNextNodeId());
        Map<String, Object> body = thread(config);
        body.put("checkpoint_id", checkpoint.getId());
        body.put("state", JSON.convertValue(checkpoint.getState(), OBJECT));
        body.put("metadata", metadata);
        client.saveCheckpoint(space, body, Write.DEFAULT);
        return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
    }

    /** Deletes the thread's checkpoints; the tag holds what they were. */
    @Override
    public Tag release(RunnableConfig config) {
        Collection<Checkpoint> checkpoints = list(config);
        client.deleteCheckpoints(space, thread(config), Write.DEFAULT);
        return new Tag(threadId(config), checkpoints);
    }

    private Map<String, Object> thread(RunnableConfig config) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("thread_id", threadId(config));
        if (userId != null) {
            query.put("user_id", userId);
        }
        return query;
    }

    private static Checkpoint checkpoint(JsonNode json) {
        JsonNode metadata = json.path("metadata");
        return Checkpoint.builder()
                .id(json.path("checkpoint_id").asText())
                .state(JSON.convertValue(json.path("state"), OBJECT))
                .nodeId(
                        metadata.path("node_id").isTextual()
                                ? metadata.path("node_id").asText()
                                : null)
                .nextNodeId(
                        metadata.path("next_node_id").isTextual()
                                ? metadata.path("next_node_id").asText()
                                : null)
                .build();
    }
}
