package io.memorychain.projector.retrieval.eval;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.memorychain.avro.MemoryState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The labelled retrieval set: memories of several spaces, the consolidations that superseded some of them, the relation
 * links between them, and queries with their expected memories. Read it with {@link #load()} (the hand-written
 * {@value #RESOURCE}, validated against {@link Requirements#ISSUE}); evaluate a retriever on it with
 * {@link RetrievalEvaluation#run}.
 *
 * <p>Jackson comes from memory-events' compile dependencies (memory-projector's main code does not use it); the JSR-310
 * module is not on the classpath, hence the small ISO-8601 {@link Instant} deserializer.
 */
public record RetrievalSet(
        String description,
        Instant referenceTime,
        List<Space> spaces,
        List<LabelledMemory> memories,
        List<Consolidation> consolidations,
        List<Link> links,
        List<LabelledQuery> queries) {

    public static final String RESOURCE = "/retrieval/retrieval-set.json";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule("instants").addDeserializer(Instant.class, new InstantDeserializer()))
            .build();

    public RetrievalSet {
        LabelledMemory.require(referenceTime != null, "reference_time is required");
        spaces = spaces == null ? List.of() : List.copyOf(spaces);
        memories = memories == null ? List.of() : List.copyOf(memories);
        consolidations = consolidations == null ? List.of() : List.copyOf(consolidations);
        links = links == null ? List.of() : List.copyOf(links);
        queries = queries == null ? List.of() : List.copyOf(queries);
    }

    /** The shipped set, validated against the retrieval issue's requirements. */
    public static RetrievalSet load() {
        try (InputStream in = RetrievalSet.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath");
            }
            return read(in).requireValid(Requirements.ISSUE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** Parses a set without validating its content (see {@link #requireValid}). */
    public static RetrievalSet read(InputStream json) throws IOException {
        return JSON.readValue(json, RetrievalSet.class);
    }

    /** This set if {@link RetrievalSetValidator} finds no problem, else an exception listing every problem. */
    public RetrievalSet requireValid(Requirements requirements) {
        List<String> problems = RetrievalSetValidator.problems(this, requirements);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("invalid retrieval set (" + problems.size() + " problems):\n  - "
                    + String.join("\n  - ", problems));
        }
        return this;
    }

    /** Memories by key, in file order (keys are unique in a valid set; the first wins otherwise). */
    public Map<String, LabelledMemory> memoriesByKey() {
        Map<String, LabelledMemory> byKey = new LinkedHashMap<>();
        memories.forEach(m -> byKey.putIfAbsent(m.key(), m));
        return byKey;
    }

    /** The consolidation whose result supersedes the memory, if any. */
    public Optional<Consolidation> supersededBy(String key) {
        return consolidations.stream().filter(c -> c.inputs().contains(key)).findFirst();
    }

    /** The consolidation that produced the memory, if any. */
    public Optional<Consolidation> consolidationOf(String key) {
        return consolidations.stream().filter(c -> c.result().equals(key)).findFirst();
    }

    /** SUPERSEDED for consolidation inputs, ACTIVE otherwise. */
    public MemoryState state(String key) {
        return supersededBy(key).isPresent() ? MemoryState.SUPERSEDED : MemoryState.ACTIVE;
    }

    /** Links as an undirected adjacency (traversal may follow an edge either way). */
    public Map<String, Set<String>> neighbours() {
        Map<String, Set<String>> adjacency = new HashMap<>();
        for (Link l : links) {
            adjacency.computeIfAbsent(l.from(), k -> new HashSet<>()).add(l.to());
            adjacency.computeIfAbsent(l.to(), k -> new HashSet<>()).add(l.from());
        }
        return adjacency;
    }

    /** Keys at most {@code hops} links away from {@code start} (start excluded), following links either way. */
    public Set<String> within(String start, int hops) {
        Map<String, Set<String>> adjacency = neighbours();
        Map<String, Integer> depth = new HashMap<>(Map.of(start, 0));
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String key = queue.poll();
            int d = depth.get(key);
            if (d == hops) {
                continue;
            }
            for (String next : adjacency.getOrDefault(key, Set.of())) {
                if (depth.putIfAbsent(next, d + 1) == null) {
                    queue.add(next);
                }
            }
        }
        depth.remove(start);
        return depth.keySet();
    }

    public List<LabelledQuery> queries(QueryType type) {
        return queries.stream().filter(q -> q.type() == type).toList();
    }

    /** ISO-8601 instants such as {@code 2025-09-01T09:00:00Z}. */
    private static final class InstantDeserializer extends StdDeserializer<Instant> {

        private static final long serialVersionUID = 1L;

        InstantDeserializer() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return Instant.parse(parser.getValueAsString());
        }
    }
}
