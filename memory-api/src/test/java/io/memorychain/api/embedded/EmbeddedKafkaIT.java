package io.memorychain.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The embedded production broker: a real KRaft node in this JVM whose data survives restarts. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmbeddedKafkaIT {

    private static final Duration START = Duration.ofSeconds(60);

    private static Path freshDir() throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "embedded-kafka-it-" + UUID.randomUUID())
                .toAbsolutePath();
        Files.createDirectories(dir);
        return dir;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void formatsOnFirstStartAndKeepsTopicsAndRecordsAcrossRestarts() throws Exception {
        Path data = freshDir();
        EmbeddedKafka.Settings settings =
                new EmbeddedKafka.Settings("127.0.0.1", freePort(), freePort(), data.resolve("kafka"));
        try (EmbeddedKafka kafka = EmbeddedKafka.start(settings, START)) {
            assertThat(data.resolve("kafka").resolve("meta.properties")).exists();
            assertThat(data.resolve("kafka.formatting")).doesNotExist();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("durable", 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all"),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("durable", "k", "survives")).get(30, TimeUnit.SECONDS);
            }
        }

        try (EmbeddedKafka again = EmbeddedKafka.start(settings, START)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", again.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("durable");
            }
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                    Map.of("bootstrap.servers", again.bootstrapServers()),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                TopicPartition tp = new TopicPartition("durable", 0);
                consumer.assign(Set.of(tp));
                consumer.seekToBeginning(Set.of(tp));
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(20));
                assertThat(records.records(tp)).extracting(r -> r.value()).containsExactly("survives");
            }
        }
    }

    @Test
    void refusesAPortInUseWithAClearMessageAndFormatsNothing() throws Exception {
        Path data = freshDir();
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            EmbeddedKafka.Settings settings =
                    new EmbeddedKafka.Settings("127.0.0.1", taken.getLocalPort(), freePort(), data.resolve("kafka"));
            assertThatThrownBy(() -> EmbeddedKafka.start(settings, START))
                    .isInstanceOf(EmbeddedKafkaException.class)
                    .hasMessageContaining("port " + taken.getLocalPort())
                    .hasMessageContaining("in use")
                    .hasMessageContaining("memory.embedded.broker-port");
        }
        assertThat(data.resolve("kafka")).doesNotExist();
    }

    @Test
    void refusesToMoveTheControllerOfAFormattedDirectory() throws Exception {
        Path data = freshDir();
        EmbeddedKafka.Settings settings =
                new EmbeddedKafka.Settings("127.0.0.1", freePort(), freePort(), data.resolve("kafka"));
        EmbeddedKafka.start(settings, START).close();
        int otherPort = freePort();
        assertThatThrownBy(() -> EmbeddedKafka.start(
                        new EmbeddedKafka.Settings("127.0.0.1", settings.brokerPort(), otherPort, settings.logDir()),
                        START))
                .isInstanceOf(EmbeddedKafkaException.class)
                .hasMessageContaining("memory.embedded.controller-port=" + settings.controllerPort());
    }

    @Test
    void refusesANonEmptyUnformattedLogDirectory() throws Exception {
        Path data = freshDir();
        Files.createDirectories(data.resolve("kafka"));
        Files.writeString(data.resolve("kafka").resolve("something.txt"), "not kafka");
        EmbeddedKafka.Settings settings =
                new EmbeddedKafka.Settings("127.0.0.1", freePort(), freePort(), data.resolve("kafka"));
        assertThatThrownBy(() -> EmbeddedKafka.start(settings, START))
                .isInstanceOf(EmbeddedKafkaException.class)
                .hasMessageContaining("not a formatted Kafka log directory");
        assertThat(data.resolve("kafka").resolve("something.txt")).exists();
    }
}
