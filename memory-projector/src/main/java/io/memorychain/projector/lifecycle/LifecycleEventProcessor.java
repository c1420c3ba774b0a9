package io.memorychain.projector.lifecycle;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.domain.Evolver;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every memory's snapshot from the chain; on each check publishes what the planner asks for (see
 * {@link LifecycleTopology}).
 */
final class LifecycleEventProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(LifecycleEventProcessor.class);
    static final Actor ACTOR = Requests.actor(ActorType.WORKER, LifecycleTopology.WORKER_ID);

    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final LifecyclePlanner planner;
    private final Duration checkInterval;
    private final Clock clock;
    private final LifecycleListener listener;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Memory> memories;
    private KeyValueStore<String, AccessStats> access;
    private KeyValueStore<String, Long> seqs;
    private KeyValueStore<String, String> published;

    LifecycleEventProcessor(
            AvroWireSerde<MemoryEvent> eventSerde,
            LifecyclePlanner planner,
            Duration checkInterval,
            Clock clock,
            LifecycleListener listener) {
        this.eventSerde = eventSerde;
        this.planner = planner;
        this.checkInterval = checkInterval;
        this.clock = clock;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        memories = context.getStateStore(LifecycleTopology.MEMORIES);
        access = context.getStateStore(LifecycleTopology.ACCESS);
        seqs = context.getStateStore(LifecycleTopology.SEQS);
        published = context.getStateStore(LifecycleTopology.PUBLISHED);
        context.schedule(checkInterval, PunctuationType.WALL_CLOCK_TIME, this::check);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryEvent event = DeadLetters.decodeOrSetAside(
                eventSerde, record, context, LifecycleTopology.DLQ_SINK, "lifecycle-events");
        if (event == null) {
            return;
        }
        String space = event.getSpace();
        Long last = seqs.get(space);
        if (last != null && event.getSeq() <= last) {
            return; // replayed
        }
        for (Evolver.Change change : Evolver.evolve(event, id -> memories.get(StoreKeys.of(space, id)))) {
            String key = StoreKeys.of(space, change.after().getId());
            memories.put(key, change.after());
            published.delete(key); // a new version: what was asked for the old one is answered or moot
        }
        seqs.put(space, event.getSeq());
    }

    /** @param wallClock the punctuation's time: the timestamp of the records it publishes */
    private void check(long wallClock) {
        Instant now = clock.instant();
        int evaluated = 0;
        int requested = 0;
        try (KeyValueIterator<String, Memory> it = memories.all()) {
            while (it.hasNext()) {
                KeyValue<String, Memory> kv = it.next();
                Memory m = kv.value;
                evaluated++;
                Optional<LifecyclePlanner.Planned> planned = planner.plan(m.getSpace(), m, access.get(kv.key), now);
                if (planned.isEmpty() || planned.get().requestId().equals(published.get(kv.key))) {
                    continue;
                }
                publish(m.getSpace(), planned.get(), now, wallClock);
                published.put(kv.key, planned.get().requestId());
                requested++;
            }
        }
        if (requested > 0) {
            log.info(
                    "Lifecycle check at {}: {} memories evaluated, {} request(s) published", now, evaluated, requested);
        }
        listener.checked(now, evaluated, requested);
    }

    private void publish(String space, LifecyclePlanner.Planned planned, Instant now, long timestamp) {
        MemoryRequest request = Requests.request(space, ACTOR, planned.op())
                .setRequestId(planned.requestId())
                .setExpectedVersion(planned.expectedVersion())
                .setRequestedAt(now)
                .build();
        context.forward(new Record<>(space, request, timestamp), LifecycleTopology.SINK);
        log.debug("Lifecycle request {} published", planned.requestId());
        listener.requested(space, planned.requestId());
    }
}
