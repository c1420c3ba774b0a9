package io.memorychain.api.backend;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.events.Topics;
import io.memorychain.events.publish.AccessPublisher;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.publish.OffChainPublisher;
import io.memorychain.events.registry.SchemaRegistry;
import java.util.concurrent.CompletableFuture;

/**
 * This process's producers: write requests to the sequencer (each answered with its outcome), and the off-chain access
 * and operational records. None of them writes the events topic: only the sequencer does.
 */
final class ChainPublishers implements AutoCloseable {

    private final MemoryPublisher requests;
    private final AccessPublisher accesses;
    private final OffChainPublisher<OperationalEvent> ops;

    ChainPublishers(String bootstrapServers, Topics topics, SchemaRegistry registry) {
        this.requests = new MemoryPublisher(bootstrapServers, topics, registry);
        this.accesses = new AccessPublisher(bootstrapServers, topics, registry);
        this.ops = new OffChainPublisher<>(
                bootstrapServers, topics.ops(), registry, OperationalEvent.class, OperationalEvent::getSpace);
    }

    CompletableFuture<MemoryOutcome> publish(MemoryRequest request) {
        return requests.publish(request);
    }

    void recordAccess(MemoryAccess access) {
        accesses.publish(access);
    }

    void recordOp(OperationalEvent op) {
        ops.publish(op);
    }

    @Override
    public void close() {
        MemoryChainBackend.closeQuietly("publisher", requests);
        MemoryChainBackend.closeQuietly("access publisher", accesses);
        MemoryChainBackend.closeQuietly("ops publisher", ops);
    }
}
