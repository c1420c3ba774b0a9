package io.memorychain.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.registry.ConfluentRegistryClient.CompatibilityLevel;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.ApicurioRegistry;
import io.memorychain.events.testing.SchemaVariants;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the client against a real Apicurio Registry 2.6 (its Confluent-compatible API), started as a child process from
 * the distribution the build unpacks into {@code target/apicurio} ({@link ApicurioRegistry}).
 */
class ConfluentRegistryClientIT {

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

    private static ApicurioRegistry apicurio;
    private static String baseUrl;
    private static ConfluentRegistryClient client;

    @BeforeAll
    static void startApicurio() throws IOException {
        apicurio = ApicurioRegistry.start();
        baseUrl = apicurio.url();
        client = new ConfluentRegistryClient(baseUrl, Duration.ofSeconds(10));
    }

    @AfterAll
    static void stopApicurio() {
        if (apicurio != null) {
            apicurio.close();
        }
    }

    private static String subject() {
        return "it-" + UUID.randomUUID() + "-value";
    }

    @Test
    void registeringTheSameSchemaTwiceReturnsTheSameId() {
        String subject = subject();
        int first = client.register(subject, PERSON_V1);
        int second = new ConfluentRegistryClient(baseUrl).register(subject, PERSON_V1);

        assertThat(second).as("a fresh client, so the registry itself answers").isEqualTo(first);
    }

    @Test
    void clientsRegisteringANewSubjectAtOnceAllGetItsId() throws Exception {
        // Apicurio answers all but one of simultaneous first registrations of a subject 409 "already exists" (seen
        // with two service instances writing their first records, NetworkFaultsIT): the client registers once more
        for (int round = 0; round < 5; round++) {
            String subject = subject();
            int clients = 6;
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(clients);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
            try {
                java.util.List<java.util.concurrent.Future<Integer>> ids = new java.util.ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    ids.add(pool.submit(() -> {
                        ConfluentRegistryClient fresh = new ConfluentRegistryClient(baseUrl, Duration.ofSeconds(10));
                        start.await();
                        return fresh.register(subject, PERSON_V1);
                    }));
                }
                java.util.Set<Integer> distinct = new java.util.HashSet<>();
                for (java.util.concurrent.Future<Integer> id : ids) {
                    distinct.add(id.get());
                }
                assertThat(distinct)
                        .as("ids given to %d clients registering %s at once", clients, subject)
                        .hasSize(1);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void byIdReturnsAnEqualSchema() {
        int id = client.register(subject(), MemoryOutcome.getClassSchema());

        Schema fetched = new ConfluentRegistryClient(baseUrl).byId(id);

        assertThat(fetched).isEqualTo(MemoryOutcome.getClassSchema());
    }

    @Test
    void subjectsWithSlashesAndSpacesAreEncoded() {
        String subject = "it/" + UUID.randomUUID() + " with space";
        int id = client.register(subject, PERSON_V1);

        assertThat(new ConfluentRegistryClient(baseUrl).register(subject, PERSON_V1))
                .isEqualTo(id);
        assertThat(client.isCompatible(subject, PERSON_V2_OPTIONAL_EMAIL)).isTrue();
    }

    @Test
    void compatibilityFollowsTheSubjectsBackwardLevel() {
        String subject = subject();
        client.register(subject, PERSON_V1);
        client.setCompatibility(subject, CompatibilityLevel.BACKWARD);

        assertThat(client.isCompatible(subject, PERSON_V2_REQUIRED_AGE))
                .as("new required field without default")
                .isFalse();
        assertThat(client.isCompatible(subject, PERSON_V2_OPTIONAL_EMAIL))
                .as("new optional field with default")
                .isTrue();
    }

    @Test
    void aSubjectWithoutVersionsAcceptsAnySchema() {
        assertThat(client.isCompatible(subject(), PERSON_V2_REQUIRED_AGE)).isTrue();
    }

    @Test
    void registeringAnIncompatibleSchemaFailsWithConflict() {
        String subject = subject();
        int v1 = client.register(subject, PERSON_V1);
        client.setCompatibility(subject, CompatibilityLevel.BACKWARD);

        assertThatThrownBy(() -> client.register(subject, PERSON_V2_REQUIRED_AGE))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(409);
                })
                .hasMessageContaining("HTTP 409")
                .hasMessageContaining(subject);
        assertThat(client.register(subject, PERSON_V2_OPTIONAL_EMAIL)).isNotEqualTo(v1);
    }

    @Test
    void anUnknownIdIsANotFoundError() {
        assertThatThrownBy(() -> client.byId(Integer.MAX_VALUE))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(404))
                .hasMessageContaining("HTTP 404");
    }

    @Test
    void anUnreachableRegistryIsASchemaRegistryException() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ConfluentRegistryClient nowhere =
                new ConfluentRegistryClient("http://127.0.0.1:" + closedPort + "/", Duration.ofSeconds(2));

        assertThatThrownBy(() -> nowhere.register(subject(), PERSON_V1))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("Cannot reach the schema registry");
    }

    @Test
    void wireSerdeRoundTripsThroughApicurio() {
        String topic = "it." + UUID.randomUUID();
        AvroWireSerde<MemoryOutcome> serde = AvroWireSerde.forValues(client, MemoryOutcome.class);
        MemoryOutcome outcome = MemoryOutcome.newBuilder()
                .setRequestId("r-1")
                .setSpace("team")
                .setAccepted(true)
                .setSeq(42L)
                .setMemoryId("m-7")
                .setVersion(3)
                .setCode(null)
                .setMessage("ok")
                .setOccurredAt(Instant.parse("2025-06-01T10:00:00.123Z"))
                .build();

        byte[] bytes = serde.serialize(topic, outcome);

        int registered =
                new ConfluentRegistryClient(baseUrl).register(topic + "-value", MemoryOutcome.getClassSchema());
        assertThat(bytes[0]).isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(registered);
        AvroWireSerde<MemoryOutcome> reader =
                AvroWireSerde.forValues(new ConfluentRegistryClient(baseUrl), MemoryOutcome.class);
        assertThat(reader.deserialize(topic, bytes)).isEqualTo(outcome);
    }

    @Test
    void duringAnOutageCachedSchemasKeepWorkingAndANewRegistrationFailsRetryablyThenSucceedsOnceTheRegistryIsBack() {
        String topic = "it." + UUID.randomUUID();
        ConfluentRegistryClient agent = new ConfluentRegistryClient(baseUrl, Duration.ofSeconds(2));
        AvroWireSerde<MemoryOutcome> serde = AvroWireSerde.forValues(agent, MemoryOutcome.class);
        MemoryOutcome outcome = MemoryOutcome.newBuilder()
                .setRequestId("r-1")
                .setSpace("team")
                .setAccepted(true)
                .setSeq(1L)
                .setOccurredAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        byte[] warm = serde.serialize(topic, outcome);
        assertThat(serde.deserialize(topic, warm)).isEqualTo(outcome);
        String newSubject = subject();

        apicurio.outage();
        try {
            assertThat(serde.deserialize(
                            topic,
                            serde.serialize(
                                    topic,
                                    MemoryOutcome.newBuilder(outcome).setSeq(2L).build())))
                    .as("writes and reads on the cached schema while the registry is down")
                    .extracting("seq")
                    .isEqualTo(2L);
            assertThatThrownBy(() -> agent.register(newSubject, PERSON_V1))
                    .as("a new subject needs the registry")
                    .isInstanceOf(SchemaRegistryUnavailableException.class)
                    .hasMessageContaining("Cannot reach the schema registry")
                    .hasMessageContaining("(" + ConfluentRegistryClient.ATTEMPTS + " attempts)");
        } finally {
            apicurio.recover();
        }

        int id = agent.register(newSubject, PERSON_V1);
        assertThat(new ConfluentRegistryClient(baseUrl).byId(id))
                .as("registered once the registry is back")
                .isEqualTo(PERSON_V1);
        assertThat(AvroWireSerde.forValues(new ConfluentRegistryClient(baseUrl), MemoryOutcome.class)
                        .deserialize(topic, warm))
                .as("ids unchanged by the outage")
                .isEqualTo(outcome);
    }

    @Test
    void aRecordWrittenWithAnOlderPublishedSchemaReadsIntoTheCurrentClass() {
        String topic = "it." + UUID.randomUUID();
        String subject = topic + "-value";
        Schema published = SchemaVariants.published("v1", "MemoryOutcome.avsc");
        Schema older = SchemaVariants.withoutFields(published, "MemoryOutcome", "message");
        assertThat(older.getField("message")).isNull();
        assertThat(older.getField("occurred_at").pos()).isEqualTo(7);
        client.setCompatibility(subject, CompatibilityLevel.BACKWARD);
        int olderId = client.register(subject, older);
        int currentId = client.register(subject, MemoryOutcome.getClassSchema());
        assertThat(currentId)
                .as("the current schema is a new version of the subject")
                .isNotEqualTo(olderId);
        Instant occurredAt = Instant.parse("2024-12-31T23:59:59.999Z");
        GenericRecord written = new GenericRecordBuilder(older)
                .set("request_id", "r-old")
                .set("space", "team")
                .set("accepted", false)
                .set("code", "NOT_FOUND")
                .set("occurred_at", occurredAt.toEpochMilli())
                .build();

        AvroWireSerde<MemoryOutcome> serde =
                AvroWireSerde.forValues(new ConfluentRegistryClient(baseUrl), MemoryOutcome.class);
        MemoryOutcome read = serde.deserialize(topic, SchemaVariants.frame(olderId, older, written));

        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getAccepted()).isFalse();
        assertThat(read.getCode()).isEqualTo("NOT_FOUND");
        assertThat(read.getMessage())
                .as("default of the field the writer lacked")
                .isNull();
        assertThat(read.getOccurredAt()).as("the field after the missing one").isEqualTo(occurredAt);
        assertThat(read.getSeq()).isNull();
    }
}
