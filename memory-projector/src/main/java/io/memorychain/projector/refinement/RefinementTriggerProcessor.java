package io.memorychain.projector.refinement;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.view.RefinementTriggerState;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.refinement.Ledger;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.StringSerializer;
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
 * Tracks each space's core tokens and sessions from the chain and publishes starts (see
 * {@link RefinementTriggerTopology}).
 */
final class RefinementTriggerProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(RefinementTriggerProcessor.class);
    static final Actor ACTOR = Requests.actor(ActorType.WORKER, "refinement");

    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final RefinementTriggerSettings settings;
    private final Clock clock;
    private final TriggerListener listener;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Memory> memories;
    private KeyValueStore<String, Memory> core;
    private KeyValueStore<String, RefinementTriggerState> spaces;

    RefinementTriggerProcessor(
            AvroWireSerde<MemoryEvent> eventSerde,
            RefinementTriggerSettings settings,
            Clock clock,
            TriggerListener listener) {
        this.eventSerde = eventSerde;
        this.settings = settings;
        this.clock = clock;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        memories = context.getStateStore(RefinementTriggerTopology.MEMORIES);
        core = context.getStateStore(RefinementTriggerTopology.CORE);
        spaces = context.getStateStore(RefinementTriggerTopology.SPACES);
        context.schedule(settings.checkInterval(), PunctuationType.WALL_CLOCK_TIME, this::checkSchedule);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryEvent event = DeadLetters.decodeOrSetAside(
                eventSerde, record, context, RefinementTriggerTopology.DLQ_SINK, "refinement-trigger");
        if (event == null) {
            return;
        }
        String space = event.getSpace();
        RefinementTriggerState state = spaces.get(space);
        if (state == null) {
            state = RefinementTriggerState.newBuilder()
                    .setLastSeq(0)
                    .setFirstSeenAt(event.getOccurredAt())
                    .build();
        } else if (event.getSeq() <= state.getLastSeq()) {
            return; // replayed
        }
        boolean coreChanged = false;
        for (Evolver.Change change : Evolver.evolve(event, id -> memories.get(StoreKeys.of(space, id)))) {
            Memory after = change.after();
            String key = StoreKeys.of(space, after.getId());
            memories.put(key, after);
            if (Ledger.inCore(after)) {
                core.put(key, after);
                coreChanged = true;
            } else if (change.before() != null && Ledger.inCore(change.before())) {
                core.delete(key);
                coreChanged = true;
            }
        }
        if (coreChanged) {
            List<Memory> coreMemories = new ArrayList<>();
            try (KeyValueIterator<String, Memory> it =
                    core.prefixScan(StoreKeys.prefix(space), new StringSerializer())) {
                it.forEachRemaining(kv -> coreMemories.add(kv.value));
            }
            state.setCoreTokens(Ledger.coreTokens(coreMemories));
            state.setLedgerSize(
                    (int) coreMemories.stream().filter(Ledger::inLedger).count());
        }
        if (event.getPayload() instanceof RefinementStarted s) {
            state.setOpenSession(s.getSessionId());
            state.setLastStartedAt(event.getOccurredAt());
            state.setPendingRequest(null);
            state.setPendingSince(null);
        } else if (event.getPayload() instanceof RefinementCompleted) {
            state.setOpenSession(null);
        }
        state.setLastSeq(event.getSeq());
        // a duplicate cleanup is always followed by its session's start: never trigger on it
        if (coreChanged
                && idle(state)
                && state.getCoreTokens() > settings.thresholdTokens()
                && !(event.getPayload() instanceof DuplicatesRemoved)) {
            start(
                    space,
                    state,
                    record.timestamp(),
                    RefinementTrigger.TOKEN_BUDGET,
                    "refine:budget:" + space + ":" + event.getSeq(),
                    "core memory is at " + state.getCoreTokens() + " tokens, over the threshold of "
                            + settings.thresholdTokens());
        }
        spaces.put(space, state);
    }

    /** @param wallClock the punctuation's time: the timestamp of the records it publishes */
    private void checkSchedule(long wallClock) {
        Instant now = clock.instant();
        List<KeyValue<String, RefinementTriggerState>> changed = new ArrayList<>();
        try (KeyValueIterator<String, RefinementTriggerState> it = spaces.all()) {
            while (it.hasNext()) {
                KeyValue<String, RefinementTriggerState> kv = it.next();
                RefinementTriggerState state = kv.value;
                if (state.getPendingRequest() != null
                        && now.isAfter(state.getPendingSince().plus(settings.pendingTimeout()))) {
                    log.warn(
                            "Refinement start {} of space {} has had no result for {}; forgetting it",
                            state.getPendingRequest(),
                            kv.key,
                            settings.pendingTimeout());
                    state.setPendingRequest(null);
                    state.setPendingSince(null);
                    changed.add(kv);
                }
                if (settings.schedule() != null && idle(state) && state.getLedgerSize() > 0) {
                    Instant since =
                            state.getLastStartedAt() != null ? state.getLastStartedAt() : state.getFirstSeenAt();
                    if (!now.isBefore(since.plus(settings.schedule()))) {
                        long period = now.toEpochMilli() / settings.schedule().toMillis();
                        start(
                                kv.key,
                                state,
                                wallClock,
                                RefinementTrigger.SCHEDULE,
                                "refine:schedule:" + kv.key + ":" + period,
                                "no refinement session since " + since);
                        changed.add(kv);
                    }
                }
            }
        }
        changed.forEach(kv -> spaces.put(kv.key, kv.value));
    }

    private static boolean idle(RefinementTriggerState state) {
        return state.getOpenSession() == null && state.getPendingRequest() == null;
    }

    /**
     * @param timestamp the record timestamp: stream time of the event, or the punctuation's wall-clock time, never the
     *     injected clock (a broker refuses timestamps too far from its own time)
     */
    private void start(
            String space,
            RefinementTriggerState state,
            long timestamp,
            RefinementTrigger trigger,
            String requestId,
            String reason) {
        Instant now = clock.instant();
        MemoryRequest request = Requests.request(
                        space, ACTOR, new StartRefinement(trigger, settings.targetTokens(), reason))
                .setRequestId(requestId)
                .setRequestedAt(now)
                .build();
        context.forward(new Record<>(space, request, timestamp), RefinementTriggerTopology.SINK);
        state.setPendingRequest(requestId);
        state.setPendingSince(now);
        log.info("Refinement of space {} requested ({}): {}", space, trigger, reason);
        listener.triggered(space, trigger, requestId);
    }
}
