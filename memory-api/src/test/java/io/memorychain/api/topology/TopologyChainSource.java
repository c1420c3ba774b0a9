package io.memorychain.api.topology;

import io.memorychain.api.rollback.ChainSource;
import io.memorychain.api.rollback.KafkaChainSource;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.domain.rollback.ChainHistory;
import io.memorychain.projector.rollback.ViewChainHistory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** A space's chain as the topology backend's sequencer produced it. */
@Singleton
@Requires(env = TopologyBackend.ENV)
@Replaces(KafkaChainSource.class)
public class TopologyChainSource implements ChainSource {

    private final TopologyBackend backend;

    public TopologyChainSource(TopologyBackend backend) {
        this.backend = backend;
    }

    @Override
    public Optional<ChainHistory> history(String space) {
        return ViewChainHistory.of(backend, space);
    }

    @Override
    public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
        List<MemoryEvent> chain;
        synchronized (backend) {
            chain = List.copyOf(backend.harness().chain());
        }
        long events = 0;
        for (MemoryEvent e : chain) {
            if (e.getSpace().equals(space)) {
                sink.accept(e);
                events++;
            }
        }
        progress.update(chain.size(), chain.size());
        return events;
    }
}
