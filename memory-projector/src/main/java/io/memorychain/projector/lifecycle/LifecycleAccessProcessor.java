package io.memorychain.projector.lifecycle;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.events.AccessCounts;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Counts the reads of each memory from {@code memory.access.v1} (the records' own times, never the clock;
 * {@link AccessCounts}, the rule every reader of the topic shares).
 */
final class LifecycleAccessProcessor implements Processor<byte[], byte[], Object, Object> {

    private final AvroWireSerde<MemoryAccess> serde;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, AccessStats> stats;

    LifecycleAccessProcessor(AvroWireSerde<MemoryAccess> serde) {
        this.serde = serde;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        stats = context.getStateStore(LifecycleTopology.ACCESS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryAccess access =
                DeadLetters.decodeOrSetAside(serde, record, context, LifecycleTopology.DLQ_SINK, "lifecycle-access");
        if (access == null) {
            return;
        }
        AccessCounts.apply(
                access,
                id -> stats.get(StoreKeys.of(access.getSpace(), id)),
                (id, next) -> stats.put(StoreKeys.of(access.getSpace(), id), next));
    }
}
