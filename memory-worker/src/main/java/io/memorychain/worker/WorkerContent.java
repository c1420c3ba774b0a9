package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a worker command decrypts the chain's memory texts (docs/architecture.md §12, erasure): with the service's master
 * key file named by the environment variable {@value #ENV} (the same variable the service reads), through a
 * {@link DataKeyRing} over the key topic; without it the texts are read as they are (plain chains).
 */
final class WorkerContent implements AutoCloseable {

    static final String ENV = "MEMORY_CONTENT_KEY_FILE";
    private static final Logger log = LoggerFactory.getLogger(WorkerContent.class);

    private final DataKeyRing ring;
    private final ChainContent content;

    private WorkerContent(DataKeyRing ring) {
        this.ring = ring;
        this.content = ring == null ? ChainContent.PLAINTEXT : ChainContent.decrypting(ring);
    }

    /** @throws IllegalStateException when the variable names a file that does not exist */
    static WorkerContent open(String bootstrapServers, Topics topics, SchemaRegistry registry) {
        return open(bootstrapServers, topics, registry, null);
    }

    /**
     * @param keyFile the master key file a command line named; null: the one {@value #ENV} names, if any
     * @throws IllegalStateException when the file does not exist
     */
    static WorkerContent open(String bootstrapServers, Topics topics, SchemaRegistry registry, Path keyFile) {
        String file = keyFile != null ? keyFile.toString() : System.getenv(ENV);
        if (file == null || file.isBlank()) {
            log.info("{} not set: memory texts are read as they are on the chain (no decryption)", ENV);
            return new WorkerContent(null);
        }
        Path path = Path.of(file.trim());
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException((keyFile != null ? "--content-key-file" : ENV) + " names " + path
                    + ", which is not a file (the service's keys/" + MasterKey.FILE_NAME + ")");
        }
        MasterKey master = MasterKey.loadOrCreate(path);
        log.info("Decrypting memory texts with master key {} and the key topic {}", master.id(), topics.keys());
        return new WorkerContent(new DataKeyRing(
                Map.of("bootstrap.servers", bootstrapServers),
                topics.keys(),
                registry,
                master,
                Duration.ofSeconds(30)));
    }

    ChainContent content() {
        return content;
    }

    @Override
    public void close() {
        if (ring != null) {
            ring.close();
        }
    }
}
