package io.memorychain.api.chain;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.events.chain.ChainExport;
import jakarta.inject.Singleton;
import java.io.OutputStream;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * A space's chain as the JSON Lines export anyone can verify without our code (docs/architecture.md §4,
 * docs/chain-format.md, {@code verifier/verify.mjs}), read from the events topic: what {@code memory-worker
 * export-chain} writes, over HTTP.
 */
@Singleton
public class ChainExports {

    private final MemoryBackend backend;

    public ChainExports(MemoryBackend backend) {
        this.backend = backend;
    }

    /** Writes the export of {@code space} to {@code out} (not closed); a space without events gives the header only. */
    public ChainExport.Summary export(String space, OutputStream out) {
        return new ChainExport(
                        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, backend.bootstrapServers()),
                        backend.topics().events(),
                        backend.registry(),
                        backend.publicKeys(),
                        Clock.systemUTC())
                .export(space, out, (done, total) -> {});
    }
}
