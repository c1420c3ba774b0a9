package io.memorychain.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.events.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CeilingTopologyTest {

    private static final Topics CEILING = Topics.withPrefix(LoadHarness.CEILING_PREFIX);

    @Test
    void copiesEveryRequestUnchangedInOrderToTheSinkTopic(@TempDir Path dir) throws Exception {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "ceiling-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        config.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createDirectories(dir.resolve("state")).toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(CeilingTopology.build(CEILING), config)) {
            TestInputTopic<byte[], byte[]> requests =
                    driver.createInputTopic(CEILING.requests(), new ByteArraySerializer(), new ByteArraySerializer());
            TestOutputTopic<byte[], byte[]> copies = driver.createOutputTopic(
                    CEILING.events(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<KeyValue<byte[], byte[]>> sent = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                byte[] key = ("space-" + (i % 7)).getBytes(StandardCharsets.UTF_8);
                byte[] value = new byte[100 + i * 13];
                for (int b = 0; b < value.length; b++) {
                    value[b] = (byte) (b * 31 + i);
                }
                sent.add(KeyValue.pair(key, value));
                requests.pipeInput(key, value);
            }
            List<KeyValue<byte[], byte[]>> copied = copies.readKeyValuesToList();
            assertThat(copied).hasSize(sent.size());
            for (int i = 0; i < sent.size(); i++) {
                assertThat(copied.get(i).key).isEqualTo(sent.get(i).key);
                assertThat(copied.get(i).value).isEqualTo(sent.get(i).value);
            }
            assertThat(driver.producedTopicNames()).containsExactly(CEILING.events());
        }
    }

    @Test
    void readsAndWritesOnlyTheCeilingsOwnTopics() {
        assertThat(CEILING.requests()).startsWith(LoadHarness.CEILING_PREFIX);
        assertThat(CeilingTopology.build(CEILING).describe().toString())
                .contains(CEILING.requests(), CEILING.events())
                .doesNotContain(
                        " " + Topics.defaults().requests(),
                        " " + Topics.defaults().events());
    }
}
