package io.memorychain.projector.embedding;

import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Embeds the new content an event carries, if any, and forwards one {@link MemoryEmbedding} per memory. */
final class EmbedderProcessor implements Processor<byte[], byte[], Object, Object> {

    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final Embedder embedder;
    private ProcessorContext<Object, Object> context;

    EmbedderProcessor(AvroWireSerde<MemoryEvent> eventSerde, Embedder embedder) {
        this.eventSerde = eventSerde;
        this.embedder = embedder;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MemoryEvent event =
                DeadLetters.decodeOrSetAside(eventSerde, record, context, EmbedderTopology.DLQ_SINK, "embed");
        if (event == null) {
            return;
        }
        List<Memory> fresh = newContent(event);
        if (fresh.isEmpty()) {
            return;
        }
        List<float[]> vectors =
                embedder.embedAll(fresh.stream().map(Memory::getContent).toList());
        for (int i = 0; i < fresh.size(); i++) {
            Memory m = fresh.get(i);
            MemoryEmbedding embedding = new MemoryEmbedding(
                    m.getSpace(),
                    m.getId(),
                    event.getSeq(),
                    m.getContentHash(),
                    embedder.modelId(),
                    boxed(vectors.get(i)));
            context.forward(new Record<>(m.getSpace(), embedding, record.timestamp()), EmbedderTopology.SINK);
        }
    }

    /** Memories whose content this event introduces (blocks excluded: they are not searched). */
    static List<Memory> newContent(MemoryEvent event) {
        Object p = event.getPayload();
        List<Memory> out = new ArrayList<>(1);
        if (p instanceof MemoryCreated c) {
            out.add(c.getMemory());
        } else if (p instanceof MemoryUpdated u
                && !u.getAfter().getContentHash().equals(u.getBefore().getContentHash())) {
            out.add(u.getAfter());
        } else if (p instanceof MemoriesConsolidated c) {
            out.add(c.getCreated());
        } else if (p instanceof io.memorychain.avro.RefinementCompleted c) {
            out.add(c.getJournal());
        }
        return out;
    }

    private static List<Float> boxed(float[] vector) {
        List<Float> out = new ArrayList<>(vector.length);
        for (float v : vector) {
            out.add(v);
        }
        return out;
    }
}
