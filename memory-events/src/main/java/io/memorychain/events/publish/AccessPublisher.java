package io.memorychain.events.publish;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;

/**
 * Publishes read accesses to {@code memory.access.v1} (key = space), asynchronously: the read path never waits for it.
 * A failed send is logged and dropped (it only weakens decay reinforcement).
 */
public final class AccessPublisher implements AutoCloseable {

    private final OffChainPublisher<MemoryAccess> publisher;

    public AccessPublisher(String bootstrapServers, Topics topics, SchemaRegistry registry) {
        this.publisher = new OffChainPublisher<>(
                bootstrapServers, topics.access(), registry, MemoryAccess.class, MemoryAccess::getSpace);
    }

    public void publish(MemoryAccess access) {
        publisher.publish(access);
    }

    @Override
    public void close() {
        publisher.close();
    }
}
