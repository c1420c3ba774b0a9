package io.memorychain.events.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.registry.ConfluentRegistryClient.CompatibilityLevel;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.SchemaVariants;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the client against a real Apicurio Registry 2.6 (its Confluent-compatible API), started as a child process
 * from the distribution the build unpacks into {@code target/apicurio}.
 */
class ConfluentRegistryClientIT {

    private static final Logger LOG = LoggerFactory.getLogger(ConfluentRegistryClientIT.class);
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private static final Schema PERSON_V1 = SchemaBuilder.record("Person").namespace("test").fields()
            .requiredString("name").endRecord();
    private static final Schema PERSON_V2_OPTIONAL_EMAIL = SchemaBuilder.record("Person").namespace("test").fields()
            .requiredString("name").optionalString("email").endRecord();
    private static final Schema PERSON_V2_REQUIRED_AGE = SchemaBuilder.record("Person").namespace("test").fields()
            .requiredString("name").requiredInt("age").endRecord();

    private static Process apicurio;
    private static Thread killOnExit;
    private static String baseUrl;
    private static ConfluentRegistryClient client;

    @BeforeAll
    static void startApicurio() throws IOException {
        Path dir = Path.of(System.getProperty("apicurio.dir", "target/apicurio")).toAbsolutePath();
        Path runner = dir.resolve("apicurio-registry-app-" + System.getProperty("apicurio.version", "2.6.13.Final")
                + "-runner.jar");
        assertThat(runner).as("Apicurio runner unpacked by the build (mvn verify)").exists();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = dir.resolveSibling("apicurio-it.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        apicurio = new ProcessBuilder(java.toString(), "-Xmx384m", "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port, "-jar", runner.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        // if the test JVM is stopped before @AfterAll, do not leave the registry running
        killOnExit = new Thread(apicurio::destroyForcibly, "stop-apicurio");
        Runtime.getRuntime().addShutdownHook(killOnExit);
        LOG.info("Started Apicurio Registry (pid {}) on port {}, output in {}", apicurio.pid(), port, log);

        baseUrl = "http://127.0.0.1:" + port + "/apis/ccompat/v7";
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest subjects = HttpRequest.newBuilder(URI.create(baseUrl + "/subjects"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        await("Apicurio answering on " + baseUrl).atMost(STARTUP).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(() -> {
                    if (!apicurio.isAlive()) {
                        throw new AssertionError("Apicurio exited with " + apicurio.exitValue() + ": "
                                + Files.readString(log));
                    }
                    return http.send(subjects, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                });
        assertThat(apicurio.isAlive()).as("Apicurio still running, see " + log).isTrue();
        client = new ConfluentRegistryClient(baseUrl, Duration.ofSeconds(10));
    }

    @AfterAll
    static void stopApicurio() throws InterruptedException {
        if (apicurio != null) {
            apicurio.destroy();
            if (!apicurio.waitFor(20, TimeUnit.SECONDS)) {
                apicurio.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            LOG.info("Apicurio Registry stopped with exit code {}", apicurio.exitValue());
            Runtime.getRuntime().removeShutdownHook(killOnExit);
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
    void byIdReturnsAnEqualSchema() {
        int id = client.register(subject(), MemoryOutcome.getClassSchema());

        Schema fetched = new ConfluentRegistryClient(baseUrl).byId(id);

        assertThat(fetched).isEqualTo(MemoryOutcome.getClassSchema());
    }

    @Test
    void subjectsWithSlashesAndSpacesAreEncoded() {
        String subject = "it/" + UUID.randomUUID() + " with space";
        int id = client.register(subject, PERSON_V1);

        assertThat(new ConfluentRegistryClient(baseUrl).register(subject, PERSON_V1)).isEqualTo(id);
        assertThat(client.isCompatible(subject, PERSON_V2_OPTIONAL_EMAIL)).isTrue();
    }

    @Test
    void compatibilityFollowsTheSubjectsBackwardLevel() {
        String subject = subject();
        client.register(subject, PERSON_V1);
        client.setCompatibility(subject, CompatibilityLevel.BACKWARD);

        assertThat(client.isCompatible(subject, PERSON_V2_REQUIRED_AGE))
                .as("new required field without default").isFalse();
        assertThat(client.isCompatible(subject, PERSON_V2_OPTIONAL_EMAIL))
                .as("new optional field with default").isTrue();
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
                .isInstanceOfSatisfying(SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(404))
                .hasMessageContaining("HTTP 404");
    }

    @Test
    void anUnreachableRegistryIsASchemaRegistryException() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ConfluentRegistryClient nowhere = new ConfluentRegistryClient("http://127.0.0.1:" + closedPort + "/",
                Duration.ofSeconds(2));

        assertThatThrownBy(() -> nowhere.register(subject(), PERSON_V1))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("Cannot reach the schema registry");
    }

    @Test
    void wireSerdeRoundTripsThroughApicurio() {
        String topic = "it." + UUID.randomUUID();
        AvroWireSerde<MemoryOutcome> serde = AvroWireSerde.forValues(client, MemoryOutcome.class);
        MemoryOutcome outcome = MemoryOutcome.newBuilder()
                .setRequestId("r-1").setSpace("team").setAccepted(true).setSeq(42L).setMemoryId("m-7")
                .setVersion(3).setCode(null).setMessage("ok")
                .setOccurredAt(Instant.parse("2025-06-01T10:00:00.123Z")).build();

        byte[] bytes = serde.serialize(topic, outcome);

        int registered = new ConfluentRegistryClient(baseUrl).register(topic + "-value",
                MemoryOutcome.getClassSchema());
        assertThat(bytes[0]).isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(registered);
        AvroWireSerde<MemoryOutcome> reader = AvroWireSerde.forValues(new ConfluentRegistryClient(baseUrl),
                MemoryOutcome.class);
        assertThat(reader.deserialize(topic, bytes)).isEqualTo(outcome);
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
        assertThat(currentId).as("the current schema is a new version of the subject").isNotEqualTo(olderId);
        Instant occurredAt = Instant.parse("2024-12-31T23:59:59.999Z");
        GenericRecord written = new GenericRecordBuilder(older)
                .set("request_id", "r-old").set("space", "team").set("accepted", false)
                .set("code", "NOT_FOUND").set("occurred_at", occurredAt.toEpochMilli())
                .build();

        AvroWireSerde<MemoryOutcome> serde = AvroWireSerde.forValues(new ConfluentRegistryClient(baseUrl),
                MemoryOutcome.class);
        MemoryOutcome read = serde.deserialize(topic, SchemaVariants.frame(olderId, older, written));

        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getAccepted()).isFalse();
        assertThat(read.getCode()).isEqualTo("NOT_FOUND");
        assertThat(read.getMessage()).as("default of the field the writer lacked").isNull();
        assertThat(read.getOccurredAt()).as("the field after the missing one").isEqualTo(occurredAt);
        assertThat(read.getSeq()).isNull();
    }
}
