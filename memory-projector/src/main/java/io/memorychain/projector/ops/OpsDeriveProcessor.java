package io.memorychain.projector.ops;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Chain events -> their operational events, each event once (see {@link OpsTopology}). */
final class OpsDeriveProcessor implements Processor<byte[], byte[], Object, Object> {

    private final AvroWireSerde<MemoryEvent> eventSerde;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Long> seqs;

    OpsDeriveProcessor(AvroWireSerde<MemoryEvent> eventSerde) {
        this.eventSerde = eventSerde;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        seqs = context.getStateStore(OpsTopology.SEQS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryEvent event =
                DeadLetters.decodeOrSetAside(eventSerde, record, context, OpsTopology.DLQ_SINK, "ops-events");
        if (event == null) {
            return;
        }
        Long last = seqs.get(event.getSpace());
        if (last != null && event.getSeq() <= last) {
            return; // replayed
        }
        OpsDerivation.of(event)
                .ifPresent(op -> context.forward(
                        new Record<>(event.getSpace(), op, event.getOccurredAt().toEpochMilli()), OpsTopology.SINK));
        seqs.put(event.getSpace(), event.getSeq());
    }
}
