package io.memorychain.projector;

import io.memorychain.projector.embedding.EmbedderTopology;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.support.BoundedRocksDbMemory;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How every Memory Chain Streams application is configured (the runtime's and the workers'), the search indexes'
 * settings, and the process-wide settings that tune them (each a JVM system property or its environment form).
 */
public final class StreamsProperties {

    /**
     * Process-wide setting (JVM system property, or {@code MEMORY_ROCKSDB_CONFIG_SETTER}): the class name of a
     * {@link org.apache.kafka.streams.state.RocksDBConfigSetter} used instead of {@link BoundedRocksDbMemory} (one that
     * delegates to it and adds its own tuning; the fault suite's full-disk injection, docs/architecture.md §19).
     */
    public static final String ROCKSDB_CONFIG_SETTER = "memory.rocksdb.config-setter";
    /**
     * Process-wide setting (JVM system property, or {@code MEMORY_STREAMS_CACHE_MIB}): each Streams application's
     * record cache in MiB (heap; default {@value #DEFAULT_STREAMS_CACHE_MIB}, 0 forwards every update). A service runs
     * about seven applications, so their caches can hold seven times this; the embedded default
     * ({@code deploy/local/run.sh}) sets less (docs/benchmarks.md "Memory of the embedded service").
     */
    public static final String STREAMS_CACHE_MIB = "memory.streams.cache-mib";

    public static final int DEFAULT_STREAMS_CACHE_MIB = 16;
    /** Streams' {@code poll.ms} for every application (see {@link #streamsConfig}). */
    static final long POLL_MS = 25;
    /**
     * Process-wide setting (JVM system property, or {@code MEMORY_SEARCH_RAM_BUFFER_MIB}): the heap a search index
     * fills with new memories (their vectors and graph) before it writes them as a segment, MiB per partition's index
     * (default: {@link IndexSettings#DEFAULTS}' 32). A search writes them out sooner; a stream of writes without
     * searches fills it. The embedded default ({@code deploy/local/run.sh}) sets less.
     */
    public static final String SEARCH_RAM_BUFFER_MIB = "memory.search.ram-buffer-mib";

    /**
     * The JVM system property (or {@code MEMORY_CHANGELOG_MAX_COMPACTION_LAG_MS}) bounding how long an overwritten
     * value stays in a changelog topic ({@code max.compaction.lag.ms} of the internal topics), default one day.
     */
    public static final String CHANGELOG_MAX_COMPACTION_LAG = "memory.changelog.max-compaction-lag-ms";

    static final long DEFAULT_CHANGELOG_MAX_COMPACTION_LAG_MS = 24L * 3600 * 1000;

    static Properties streamsConfig(MemoryChainRuntime.Settings settings, String applicationId) {
        Properties p = streamsConfig(
                settings.bootstrapServers(),
                settings.stateDir(),
                settings.replicationFactor(),
                applicationId,
                settings.instanceId());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, settings.routing().standbyReplicas());
        return p;
    }

    /** The projection's config: its tasks own the views, so it advertises this instance's REST endpoint. */
    static Properties projectionConfig(MemoryChainRuntime.Settings settings) {
        Properties p = streamsConfig(settings, settings.applicationId() + "-projector");
        if (settings.routing().applicationServer() != null) {
            p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, settings.routing().applicationServer());
        }
        return p;
    }

    /** The embedder's config: one application per model, with {@code streamThreads} threads. */
    static Properties embedderConfig(MemoryChainRuntime.Settings settings, String modelId, int streamThreads) {
        Properties p = streamsConfig(settings, EmbedderTopology.applicationId(settings.applicationId(), modelId));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streamThreads);
        return p;
    }

    /**
     * How every Memory Chain Streams application is configured (also the workers' apps, such as the linker):
     * exactly-once v2, one stream thread, short commits, static membership, a record cache of
     * {@code memory.streams.cache-mib} MiB ({@link #STREAMS_CACHE_MIB}), and one RocksDB memory budget for the process
     * ({@link BoundedRocksDbMemory}; its sizes from the JVM system properties or environment variables
     * {@code memory.rocksdb.block-cache-mib} / {@code MEMORY_ROCKSDB_BLOCK_CACHE_MIB} and
     * {@code memory.rocksdb.memtable-mib} / {@code MEMORY_ROCKSDB_MEMTABLE_MIB}).
     *
     * @param replicationFactor of the internal (changelog) topics; -1 for the broker's default
     * @param instanceId this instance's stable name within the application (static group membership)
     */
    public static Properties streamsConfig(
            String bootstrapServers, Path stateDir, short replicationFactor, String applicationId, String instanceId) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replicationFactor);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 50);
        p.put(
                StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG,
                Long.parseLong(setting(STREAMS_CACHE_MIB, String.valueOf(DEFAULT_STREAMS_CACHE_MIB))) * 1024 * 1024);
        // static membership: a restarted instance takes its partitions back at once instead of waiting out a session
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), applicationId + "-" + instanceId);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        // a stream thread that has processed its records polls this long before it checks whether a commit is due:
        // the sequencer's transaction, so a write's outcome, waited up to 100 ms (Streams' default) for it; 25 ms
        // halves an acknowledged write's commit wait for ~6% of a core of idle polling (docs/benchmarks.md)
        p.put(StreamsConfig.POLL_MS_CONFIG, POLL_MS);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), 4 * 1024 * 1024);
        String configSetter = setting(ROCKSDB_CONFIG_SETTER, null);
        p.put(
                StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                configSetter == null ? BoundedRocksDbMemory.class.getName() : configSetter);
        p.put(
                BoundedRocksDbMemory.BLOCK_CACHE_MIB_CONFIG,
                setting(
                        BoundedRocksDbMemory.BLOCK_CACHE_MIB_CONFIG,
                        String.valueOf(BoundedRocksDbMemory.DEFAULT_BLOCK_CACHE_MIB)));
        p.put(
                BoundedRocksDbMemory.MEMTABLE_MIB_CONFIG,
                setting(
                        BoundedRocksDbMemory.MEMTABLE_MIB_CONFIG,
                        String.valueOf(BoundedRocksDbMemory.DEFAULT_MEMTABLE_MIB)));
        // erasure (docs/architecture.md §12): a value a store overwrote (an erased or purged memory's text) is
        // compacted out of its changelog within this bound, as RocksDB's periodic compaction bounds the local files;
        // Streams applies it to the internal topics it creates (existing ones keep their configuration)
        p.put(
                StreamsConfig.topicPrefix(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG),
                setting(CHANGELOG_MAX_COMPACTION_LAG, String.valueOf(DEFAULT_CHANGELOG_MAX_COMPACTION_LAG_MS)));
        return p;
    }

    /** The search indexes' settings: the defaults, with the RAM buffer of {@link #SEARCH_RAM_BUFFER_MIB}. */
    static IndexSettings indexSettings() {
        String value = setting(SEARCH_RAM_BUFFER_MIB, null);
        if (value == null) {
            return IndexSettings.DEFAULTS;
        }
        double mib;
        try {
            mib = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            mib = Double.NaN;
        }
        if (!(mib >= 1 && mib <= 2048)) {
            throw new IllegalArgumentException(SEARCH_RAM_BUFFER_MIB + " must be 1..2048 MiB, was " + value);
        }
        return IndexSettings.DEFAULTS.withRamBufferMb(mib);
    }

    /** A process-wide setting: the JVM system property {@code name}, else its environment form, else the default. */
    private static String setting(String name, String fallback) {
        String value = System.getProperty(name);
        if (value == null) {
            value = System.getenv(
                    name.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private StreamsProperties() {}
}
