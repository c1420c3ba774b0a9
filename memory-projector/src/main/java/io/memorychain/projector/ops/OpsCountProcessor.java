package io.memorychain.projector.ops;

import io.memorychain.avro.OperationalEvent;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Counts operational events per space, hour of their {@code ts}, node, op and status (see {@link OpsTopology}). */
final class OpsCountProcessor implements Processor<byte[], byte[], Object, Object> {

    private final AvroWireSerde<OperationalEvent> opsSerde;
    private final OpsListener listener;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Long> counts;

    OpsCountProcessor(AvroWireSerde<OperationalEvent> opsSerde, OpsListener listener) {
        this.opsSerde = opsSerde;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        counts = context.getStateStore(OpsTopology.COUNTS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        OperationalEvent op = DeadLetters.decodeOrSetAside(opsSerde, record, context, OpsTopology.DLQ_SINK, "ops");
        if (op == null) {
            return;
        }
        String key = OpsCounts.key(
                op.getSpace(), OpsCounts.Bucket.HOUR.start(op.getTs()), op.getNode(), op.getOp(), op.getStatus());
        Long current = counts.get(key);
        counts.put(key, (current == null ? 0 : current) + 1);
        listener.counted(op.getNode(), op.getOp(), op.getStatus());
    }
}
