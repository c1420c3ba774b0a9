package io.memorychain.projector.linker;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.domain.Relations;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps kind, state, content hash and vector of each memory current from events and embeddings, and proposes links for
 * a memory when it becomes linkable (see {@link LinkerTopology}).
 */
final class LinkerProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(LinkerProcessor.class);
    static final io.memorychain.avro.Actor ACTOR = Requests.actor(ActorType.WORKER, "linker");

    private final Topics topics;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private final LinkerSettings settings;
    private final LinkListener listener;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, LinkerEntry> entries;
    private KeyValueStore<String, String> pairs;

    LinkerProcessor(
            Topics topics,
            AvroWireSerde<MemoryEvent> eventSerde,
            AvroWireSerde<MemoryEmbedding> embeddingSerde,
            LinkerSettings settings,
            LinkListener listener) {
        this.topics = topics;
        this.eventSerde = eventSerde;
        this.embeddingSerde = embeddingSerde;
        this.settings = settings;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        entries = context.getStateStore(LinkerTopology.ENTRIES);
        pairs = context.getStateStore(LinkerTopology.PAIRS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        if (source.topic().equals(topics.embeddings())) {
            MemoryEmbedding embedding = decode(record, source, embeddingSerde);
            if (embedding != null) {
                onEmbedding(embedding, record, source);
            }
        } else {
            MemoryEvent event = decode(record, source, eventSerde);
            if (event != null) {
                onEvent(event, record.timestamp());
            }
        }
    }

    private <T extends SpecificRecord> T decode(
            Record<byte[], byte[]> record, RecordMetadata source, AvroWireSerde<T> serde) {
        try {
            return serde.deserialize(source.topic(), record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // not the record's fault: the task fails and the record is retried
        } catch (RuntimeException e) {
            log.error(
                    "Undecodable record at {}: {}; moved to the dead-letter topic",
                    DeadLetters.coordinates(source),
                    e.toString());
            context.forward(DeadLetters.record(record, source, "link", e), LinkerTopology.DLQ_SINK);
            return null;
        }
    }

    private void onEvent(MemoryEvent event, long timestamp) {
        String space = event.getSpace();
        Object p = event.getPayload();
        if (p instanceof MemoryCreated c) {
            upsert(c.getMemory(), timestamp);
        } else if (p instanceof MemoryUpdated u) {
            upsert(u.getAfter(), timestamp);
        } else if (p instanceof MemoriesConsolidated c) {
            for (String id : c.getSupersededIds()) {
                setState(space, id, MemoryState.SUPERSEDED, timestamp);
            }
            upsert(c.getCreated(), timestamp);
        } else if (p instanceof MemoryDeleted d) {
            setState(space, d.getMemoryId(), MemoryState.SOFT_DELETED, timestamp);
        } else if (p instanceof MemoryRestored r) {
            setState(space, r.getMemoryId(), MemoryState.ACTIVE, timestamp);
        } else if (p instanceof io.memorychain.avro.DecayTransitioned d
                && d.getTo() == io.memorychain.avro.DecayStatus.ARCHIVED) {
            setState(space, d.getMemoryId(), MemoryState.ARCHIVED, timestamp);
        } else if (p instanceof io.memorychain.avro.MemoryExpired e) {
            setState(space, e.getMemoryId(), MemoryState.SOFT_DELETED, timestamp);
        } else if (p instanceof io.memorychain.avro.DuplicatesRemoved d) {
            d.getRemoved().forEach(r -> setState(space, r.getMemoryId(), MemoryState.SOFT_DELETED, timestamp));
        } else if (p instanceof io.memorychain.avro.RefinementCompleted c) {
            upsert(c.getJournal(), timestamp);
        } else if (p instanceof MemoriesLinked l) {
            pairs.putIfAbsent(pairKey(space, l.getFromId(), l.getToId()), "chain:" + event.getSeq());
        }
        // blocks are never semantic; flags and unlinks change nothing the linker keeps (an unlinked pair stays
        // in PAIRS: the linker does not propose again what someone removed)
    }

    private void upsert(Memory m, long timestamp) {
        if (m.getKind() == MemoryKind.BLOCK) {
            return;
        }
        String key = StoreKeys.of(m.getSpace(), m.getId());
        LinkerEntry before = entries.get(key);
        LinkerEntry after;
        if (m.getKind() != MemoryKind.SEMANTIC) {
            after = LinkerEntry.ofMemory(m.getKind(), m.getState(), m.getContentHash()); // no vector kept
        } else if (before == null) {
            after = LinkerEntry.ofMemory(m.getKind(), m.getState(), m.getContentHash());
        } else {
            after = before.withMemory(m.getKind(), m.getState(), m.getContentHash());
        }
        changed(m.getSpace(), m.getId(), before, after, timestamp);
    }

    private void setState(String space, String id, MemoryState state, long timestamp) {
        String key = StoreKeys.of(space, id);
        LinkerEntry before = entries.get(key);
        if (before != null && before.kind() != null) {
            changed(space, id, before, before.withState(state), timestamp);
        }
    }

    private void onEmbedding(MemoryEmbedding e, Record<byte[], byte[]> record, RecordMetadata source) {
        if (!settings.modelId().equals(e.getModelId())) {
            log.debug(
                    "Ignoring an embedding of {}/{} by model {} (the linker uses {})",
                    e.getSpace(),
                    e.getMemoryId(),
                    e.getModelId(),
                    settings.modelId());
            return;
        }
        float[] vector = unboxed(e.getVector());
        if (vector == null) {
            IllegalArgumentException problem = new IllegalArgumentException("vector is empty, zero or not finite");
            log.error(
                    "Unusable embedding of {}/{} at {}: {}; moved to the dead-letter topic",
                    e.getSpace(),
                    e.getMemoryId(),
                    DeadLetters.coordinates(source),
                    problem.getMessage());
            context.forward(DeadLetters.record(record, source, "link", problem), LinkerTopology.DLQ_SINK);
            return;
        }
        String key = StoreKeys.of(e.getSpace(), e.getMemoryId());
        LinkerEntry before = entries.get(key);
        if (before != null && before.kind() != null && before.kind() != MemoryKind.SEMANTIC) {
            return; // only semantic memories are linked
        }
        if (before != null && before.vector() != null && before.vectorSeq() > e.getSeq()) {
            return; // a vector of a later version is already here
        }
        LinkerEntry after = before == null
                ? LinkerEntry.ofVector(e.getContentHash(), e.getSeq(), vector)
                : before.withVector(e.getContentHash(), e.getSeq(), vector);
        changed(e.getSpace(), e.getMemoryId(), before, after, record.timestamp());
    }

    private void changed(String space, String id, LinkerEntry before, LinkerEntry after, long timestamp) {
        entries.put(StoreKeys.of(space, id), after);
        if (after.linkable()
                && (before == null || !before.linkable() || !before.vectorHash().equals(after.vectorHash()))) {
            link(space, id, after, timestamp);
        }
    }

    /**
     * Scores the other linkable memories of the space, newest first (ids follow the chain) and at most
     * {@link LinkerSettings#maxScan()} of them, and proposes the best ones not linked yet.
     */
    private void link(String space, String id, LinkerEntry self, long timestamp) {
        String prefix = StoreKeys.prefix(space);
        Neighbours neighbours = new Neighbours(settings.topK(), settings.linkMin());
        int scanned = 0;
        try (KeyValueIterator<String, LinkerEntry> it = entries.reverseRange(prefix, prefix + StoreKeys.END)) {
            while (it.hasNext() && scanned < settings.maxScan()) {
                KeyValue<String, LinkerEntry> kv = it.next();
                String otherId = kv.key.substring(prefix.length());
                if (otherId.equals(id) || !kv.value.linkable()) {
                    continue;
                }
                scanned++;
                neighbours.offer(otherId, LinkerEntry.cosine(self.vector(), kv.value.vector()));
            }
        }
        List<Neighbours.Neighbour> best = neighbours.best();
        log.debug(
                "Memory {}/{}: {} of {} linkable neighbours at or above {}",
                space,
                id,
                best.size(),
                scanned,
                settings.linkMin());
        for (Neighbours.Neighbour n : best) {
            String pair = pairKey(space, id, n.id());
            if (pairs.get(pair) != null) {
                continue; // linked before, on the chain or by this job
            }
            pairs.put(pair, "proposed");
            double strength = Math.min(1.0, Math.round(n.score() * 1000) / 1000.0);
            MemoryRequest request = Requests.request(
                            space, ACTOR, new LinkMemories(id, n.id(), Relations.SYMMETRIC, strength))
                    .setRequestId(LinkerTopology.requestId(space, id, n.id()))
                    .setRequestedAt(Instant.ofEpochMilli(timestamp))
                    .build();
            context.forward(new Record<>(space, request, timestamp), LinkerTopology.SINK);
            listener.proposed(space, id, n.id(), strength);
        }
    }

    /** The pair's key, the same in both directions. */
    static String pairKey(String space, String a, String b) {
        return a.compareTo(b) <= 0 ? StoreKeys.of(space, a, b) : StoreKeys.of(space, b, a);
    }

    /** The vector as floats, or null when it is empty, zero or has a non-finite component. */
    private static float[] unboxed(List<Float> boxed) {
        float[] out = new float[boxed.size()];
        double norm = 0;
        for (int i = 0; i < out.length; i++) {
            float v = boxed.get(i);
            if (!Float.isFinite(v)) {
                return null;
            }
            out[i] = v;
            norm += v * v;
        }
        return norm > 0 ? out : null;
    }
}
