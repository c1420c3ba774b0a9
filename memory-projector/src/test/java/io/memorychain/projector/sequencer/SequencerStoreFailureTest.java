package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.support.FullDiskRocksDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.junit.jupiter.api.Test;

/**
 * A state store that cannot write (here RocksDB reporting a full disk, {@link FullDiskRocksDb}) is an infrastructure
 * failure, not the request's fault: the sequencer must fail the task (exactly-once then aborts the transaction and the
 * request is retried) instead of rejecting a valid request as INTERNAL and setting it aside in the dead-letter topic,
 * which it did, keeping whatever store writes had happened before the failing one (docs/architecture.md §19).
 */
class SequencerStoreFailureTest {

    @Test
    void aStoreThatCannotWriteFailsTheTaskAndNothingIsDeadLetteredOrRejected() throws Exception {
        Topics topics = Topics.defaults();
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AvroWireSerde<MemoryRequest> requests = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "store-failure-" + java.util.UUID.randomUUID());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("store-failure").toString());
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, FullDiskRocksDb.class.getName());
        TopologyTestDriver driver = new TopologyTestDriver(
                SequencerTopology.build(
                        topics,
                        registry,
                        new ChainSealer(ChainKeys.generate()),
                        WriteSettings.defaults(),
                        Clock.systemUTC()),
                props);
        try {
            TestInputTopic<byte[], byte[]> in =
                    driver.createInputTopic(topics.requests(), new ByteArraySerializer(), new ByteArraySerializer());
            TestOutputTopic<byte[], byte[]> outcomes = driver.createOutputTopic(
                    topics.outcomes(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            TestOutputTopic<byte[], byte[]> deadLetters = driver.createOutputTopic(
                    topics.deadLetters(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            MemoryRequest first = Requests.create("space-a", ChainHarness.AGENT, "before the disk fills")
                    .build();
            in.pipeInput(key(first), requests.serialize(topics.requests(), first));
            assertThat(outcomes.readValuesToList()).hasSize(1);

            FullDiskRocksDb.fill();
            try {
                // the driver flushes the stores after each record: the first flush fails and the store goes read-only
                for (int i = 0; i < 3; i++) {
                    MemoryRequest r = Requests.create("space-a", ChainHarness.AGENT, "while the disk is full " + i)
                            .build();
                    assertThatThrownBy(() -> in.pipeInput(key(r), requests.serialize(topics.requests(), r)))
                            .hasRootCauseMessage("Max allowed space was reached")
                            .satisfies(e -> assertThat(causeChainHas(e, ProcessorStateException.class))
                                    .isTrue());
                }
            } finally {
                FullDiskRocksDb.free();
            }
            assertThat(deadLetters.isEmpty()).as("nothing set aside").isTrue();
            // (the driver keeps what a failed record forwarded before its flush failed; exactly-once would abort it)
            AvroWireSerde<MemoryOutcome> outcomeSerde = AvroWireSerde.forValues(registry, MemoryOutcome.class);
            assertThat(outcomes.readValuesToList())
                    .extracting(v -> outcomeSerde.deserialize(topics.outcomes(), v))
                    .as("no valid request rejected as INTERNAL")
                    .allSatisfy(o -> assertThat(o.getAccepted()).isTrue());
        } finally {
            try {
                driver.close();
            } catch (ProcessorStateException expected) {
                // the failed stores stay read-only until reopened, and closing flushes them
            }
        }
    }

    private static byte[] key(MemoryRequest r) {
        return r.getSpace().getBytes(StandardCharsets.UTF_8);
    }

    private static boolean causeChainHas(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
