package io.memorychain.projector.projection;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.events.AccessCounts;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.StoreKeys;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Aggregates {@code memory.access.v1} into per-memory access stats (count, last accessed) that feed decay. Uses the
 * records' own times, never the clock, so a replay gives the same stats ({@link AccessCounts}, the rule every reader of
 * the topic shares).
 */
final class AccessProcessor implements Processor<byte[], byte[], Object, Object> {

    private final RecordDecoder<MemoryAccess> decoder;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, AccessStats> stats;

    AccessProcessor(AvroWireSerde<MemoryAccess> serde) {
        this.decoder = new RecordDecoder<>(serde);
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        stats = context.getStateStore(ProjectionTopology.ACCESS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryAccess access = decoder.decode(record, context);
        if (access == null) {
            return;
        }
        AccessCounts.apply(
                access,
                id -> stats.get(StoreKeys.of(access.getSpace(), id)),
                (id, next) -> stats.put(StoreKeys.of(access.getSpace(), id), next));
    }
}
