package io.memorychain.api.rollback;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.domain.rollback.ChainHistory;
import io.memorychain.events.chain.SpaceChainReader;
import io.memorychain.projector.rollback.ViewChainHistory;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The space's chain read from the events topic ({@link SpaceChainReader}), and its history from this instance's views
 * ({@link ViewChainHistory}).
 */
@Singleton
public class KafkaChainSource implements ChainSource {

    private final MemoryBackend backend;

    public KafkaChainSource(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    public Optional<ChainHistory> history(String space) {
        return ViewChainHistory.of(backend.views(), space);
    }

    @Override
    public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
        return new SpaceChainReader(
                        Map.of("bootstrap.servers", backend.bootstrapServers()),
                        backend.topics().events(),
                        backend.registry(),
                        java.time.Duration.ofMinutes(2),
                        backend.content())
                .read(space, sink, progress::update);
    }
}
