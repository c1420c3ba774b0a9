package io.memorychain.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.testing.SharedKafka;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedKafka.class)
class KafkaTopicSchemaRegistryIT {

    private static final Schema PERSON_V1 = SchemaBuilder.record("Person")
            .namespace("test")
            .fields()
            .requiredString("name")
            .endRecord();
    private static final Schema PERSON_V2_OPTIONAL_EMAIL = SchemaBuilder.record("Person")
            .namespace("test")
            .fields()
            .requiredString("name")
            .optionalString("email")
            .endRecord();
    private static final Schema PERSON_V2_REQUIRED_AGE = SchemaBuilder.record("Person")
            .namespace("test")
            .fields()
            .requiredString("name")
            .requiredInt("age")
            .endRecord();
    private static final Schema ORDER = SchemaBuilder.record("Order")
            .namespace("test")
            .fields()
            .requiredLong("id")
            .endRecord();

    private String topic;

    @BeforeEach
    void uniqueTopic() {
        topic = SharedKafka.uniquePrefix() + "_schemas";
    }

    private KafkaTopicSchemaRegistry open() {
        return new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topic, (short) 1);
    }

    @Test
    void createsItsTopicCompactedWithOnePartition() throws Exception {
        try (KafkaTopicSchemaRegistry registry = open();
                Admin admin = SharedKafka.admin()) {
            assertThat(registry.topic()).isEqualTo(topic);
            assertThat(admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get()
                            .get(topic)
                            .partitions())
                    .hasSize(1);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                    .isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        }
    }

    @Test
    void registeringTheSameSchemaTwiceReturnsTheSameId() {
        try (KafkaTopicSchemaRegistry registry = open()) {
            int first = registry.register("people-value", PERSON_V1);
            int second = registry.register("people-value", new Schema.Parser().parse(PERSON_V1.toString()));

            assertThat(second).isEqualTo(first);
            assertThat(registry.byId(first)).isEqualTo(PERSON_V1);
        }
    }

    @Test
    void aSchemaDifferingOnlyInDocumentationIsTheSameSchema() {
        Schema documented = SchemaBuilder.record("Person")
                .namespace("test")
                .doc("A person.")
                .fields()
                .name("name")
                .doc("Full name.")
                .type()
                .stringType()
                .noDefault()
                .endRecord();
        try (KafkaTopicSchemaRegistry registry = open()) {
            assertThat(registry.register("people-value", documented))
                    .isEqualTo(registry.register("people-value", PERSON_V1));
        }
    }

    @Test
    void theSameSchemaUnderTwoSubjectsGetsTheSameGlobalId() {
        try (KafkaTopicSchemaRegistry registry = open()) {
            int underPeople = registry.register("people-value", PERSON_V1);
            int order = registry.register("orders-value", ORDER);
            int underArchive = registry.register("archive-value", PERSON_V1);

            assertThat(underArchive).isEqualTo(underPeople);
            assertThat(order).isNotEqualTo(underPeople);
        }
    }

    @Test
    void idsAreStableAcrossASecondInstanceOverTheSameTopic() {
        int personId;
        int orderId;
        int evolvedId;
        try (KafkaTopicSchemaRegistry first = open()) {
            personId = first.register("people-value", PERSON_V1);
            orderId = first.register("orders-value", ORDER);
            evolvedId = first.register("people-value", PERSON_V2_OPTIONAL_EMAIL);
        }

        try (KafkaTopicSchemaRegistry second = open()) {
            assertThat(second.byId(personId)).isEqualTo(PERSON_V1);
            assertThat(second.byId(orderId)).isEqualTo(ORDER);
            assertThat(second.byId(evolvedId)).isEqualTo(PERSON_V2_OPTIONAL_EMAIL);
            assertThat(second.register("people-value", PERSON_V1)).isEqualTo(personId);
            assertThat(second.register("orders-value", ORDER)).isEqualTo(orderId);
            assertThat(second.isCompatible("people-value", PERSON_V2_REQUIRED_AGE))
                    .as("the compatibility check runs against the latest version loaded from the topic")
                    .isFalse();

            int next = second.register("outcomes-value", MemoryOutcome.getClassSchema());
            assertThat(next)
                    .as("a new id continues after the highest stored one")
                    .isEqualTo(Math.max(personId, Math.max(orderId, evolvedId)) + 1);
        }
    }

    @Test
    void aReaderInstanceSeesSchemasRegisteredAfterItStarted() {
        try (KafkaTopicSchemaRegistry writer = open();
                KafkaTopicSchemaRegistry reader = open()) {
            int id = writer.register("orders-value", ORDER);

            assertThat(reader.byId(id)).isEqualTo(ORDER);
        }
    }

    @Test
    void anIncompatibleSchemaIsRejectedWithAClearMessage() {
        try (KafkaTopicSchemaRegistry registry = open()) {
            int v1 = registry.register("people-value", PERSON_V1);

            assertThat(registry.isCompatible("people-value", PERSON_V2_REQUIRED_AGE))
                    .isFalse();
            assertThat(registry.isCompatible("people-value", PERSON_V2_OPTIONAL_EMAIL))
                    .isTrue();
            assertThat(registry.isCompatible("other-value", PERSON_V2_REQUIRED_AGE))
                    .as("a subject without versions accepts anything")
                    .isTrue();
            assertThatThrownBy(() -> registry.register("people-value", PERSON_V2_REQUIRED_AGE))
                    .isInstanceOf(SchemaRegistryException.class)
                    .hasMessageContaining(
                            "not BACKWARD compatible with version 1 (id " + v1 + ") of subject people-value")
                    .hasMessageContaining("READER_FIELD_MISSING_DEFAULT_VALUE")
                    .hasMessageContaining("age");

            int v2 = registry.register("people-value", PERSON_V2_OPTIONAL_EMAIL);
            assertThat(v2).isEqualTo(v1 + 1);
            assertThat(registry.register("other-value", PERSON_V2_REQUIRED_AGE))
                    .as("the rejected schema is fine under a subject of its own")
                    .isEqualTo(v2 + 1);
        }
        try (KafkaTopicSchemaRegistry reopened = open()) {
            assertThat(reopened.isCompatible("people-value", PERSON_V2_REQUIRED_AGE))
                    .as("nothing was written for the rejected registration")
                    .isFalse();
        }
    }

    @Test
    void byIdOfAnUnknownIdThrows() {
        try (KafkaTopicSchemaRegistry registry = open()) {
            int id = registry.register("people-value", PERSON_V1);

            assertThatThrownBy(() -> registry.byId(id + 100))
                    .isInstanceOf(SchemaRegistryException.class)
                    .hasMessageContaining("Unknown schema id " + (id + 100))
                    .hasMessageContaining(topic);
        }
    }

    @Test
    void concurrentRegistrationsOfOneSchemaGetOneId() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (KafkaTopicSchemaRegistry registry = open()) {
            List<Callable<Integer>> calls = IntStream.range(0, 8)
                    .mapToObj(i -> (Callable<Integer>)
                            () -> registry.register(i % 2 == 0 ? "a-value" : "b-value", MemoryOutcome.getClassSchema()))
                    .toList();
            Set<Integer> ids = new HashSet<>();
            for (Future<Integer> result : pool.invokeAll(calls)) {
                ids.add(result.get());
            }

            assertThat(ids).hasSize(1);
            assertThat(registry.byId(ids.iterator().next())).isEqualTo(MemoryOutcome.getClassSchema());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void worksWithExplicitClientSettings() {
        try (KafkaTopicSchemaRegistry registry = new KafkaTopicSchemaRegistry(
                Map.of("bootstrap.servers", SharedKafka.bootstrapServers(), "client.id", "registry-it"),
                topic,
                (short) 1,
                java.time.Duration.ofSeconds(20))) {
            int id = registry.register("orders-value", ORDER);
            assertThat(registry.byId(id)).isEqualTo(ORDER);
        }
    }
}
