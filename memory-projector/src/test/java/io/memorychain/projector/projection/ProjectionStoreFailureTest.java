package io.memorychain.projector.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.support.FullDiskRocksDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.junit.jupiter.api.Test;

/**
 * A view store that cannot write (view-memories) (RocksDB reporting a full disk, {@link FullDiskRocksDb}) fails the
 * projection task instead of setting the event aside and marking it applied, which left the views without the write
 * until a rebuild (docs/architecture.md §19, "Faults").
 */
class ProjectionStoreFailureTest {

    @Test
    void aViewStoreThatCannotWriteFailsTheTaskAndTheEventIsNeitherDeadLetteredNorMarkedApplied() throws Exception {
        List<MemoryEvent> chain;
        try (ChainHarness h = new ChainHarness()) {
            for (int i = 0; i < 4; i++) {
                h.submit(Requests.create("space-a", ChainHarness.AGENT, "memory " + i)
                        .build());
            }
            chain = h.chain();
            AvroWireSerde<MemoryEvent> events = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
            List<Long> applied = new CopyOnWriteArrayList<>();
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "projection-failure-" + java.util.UUID.randomUUID());
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    Files.createTempDirectory("projection-failure").toString());
            props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, FullDiskRocksDb.class.getName());
            SearchIndexes indexes = SearchIndexes.inMemory(IndexSettings.DEFAULTS, "none");
            TopologyTestDriver driver = new TopologyTestDriver(
                    ProjectionTopology.build(h.topics, h.registry, (space, seq) -> applied.add(seq), indexes), props);
            try {
                TestInputTopic<byte[], byte[]> in = driver.createInputTopic(
                        h.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
                TestOutputTopic<byte[], byte[]> deadLetters = driver.createOutputTopic(
                        h.topics.deadLetters(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
                in.pipeInput(key(chain.get(0)), events.serialize(h.topics.events(), chain.get(0)));
                assertThat(applied).containsExactly(1L);

                FullDiskRocksDb.fillOnly(ProjectionTopology.MEMORIES);
                try {
                    // the driver flushes the stores after each record: the first flush of view-memories fails, then
                    // the store is read-only and the next event's write to it (inside the projection) fails
                    for (MemoryEvent e : chain.subList(1, chain.size())) {
                        assertThatThrownBy(() -> in.pipeInput(key(e), events.serialize(h.topics.events(), e)))
                                .hasRootCauseMessage("Max allowed space was reached");
                    }
                } finally {
                    FullDiskRocksDb.free();
                }
                assertThat(deadLetters.isEmpty()).as("no event set aside").isTrue();
                assertThat(applied)
                        .as("no event after the first failed one marked applied")
                        .hasSizeLessThanOrEqualTo(2)
                        .doesNotContain(3L, 4L);
            } finally {
                try {
                    driver.close();
                } catch (ProcessorStateException expected) {
                    // the failed stores stay read-only until reopened, and closing flushes them
                }
                indexes.close();
            }
        }
    }

    private static byte[] key(MemoryEvent e) {
        return e.getSpace().getBytes(StandardCharsets.UTF_8);
    }
}
