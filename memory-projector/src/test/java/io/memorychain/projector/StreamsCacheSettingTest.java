package io.memorychain.projector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each Streams application's record cache: 16 MiB unless the process sets {@code memory.streams.cache-mib}. */
class StreamsCacheSettingTest {

    @AfterEach
    void clear() {
        System.clearProperty(StreamsProperties.STREAMS_CACHE_MIB);
    }

    private static Object cacheBytes() {
        Properties p = StreamsProperties.streamsConfig("127.0.0.1:9092", Path.of("state"), (short) 1, "app", "i1");
        return p.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG);
    }

    @Test
    void sixteenMibByDefault() {
        // the environment form (MEMORY_STREAMS_CACHE_MIB) is what run.sh sets; a test JVM does not have it
        assertThat(System.getenv("MEMORY_STREAMS_CACHE_MIB")).isNull();
        assertThat(cacheBytes()).isEqualTo(16L * 1024 * 1024);
    }

    @Test
    void theProcessSettingSetsEveryApplicationsCache() {
        System.setProperty(StreamsProperties.STREAMS_CACHE_MIB, "2");
        assertThat(cacheBytes()).isEqualTo(2L * 1024 * 1024);
        System.setProperty(StreamsProperties.STREAMS_CACHE_MIB, "0");
        assertThat(cacheBytes()).isEqualTo(0L);
    }
}
