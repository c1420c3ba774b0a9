package io.memorychain.events.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.SchemaVariants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroWireSerdeTest {

    private static final String TOPIC = "memory.requests.v1";
    private static final Instant REQUESTED_AT = Instant.parse("2025-03-04T05:06:07.089Z");

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroWireSerde<MemoryRequest> serde = AvroWireSerde.forValues(registry, MemoryRequest.class);

    @Test
    void requestsWithEitherUnionOperationSurviveTheRoundTrip() {
        MemoryRequest create = request(
                "r-1",
                CreateMemory.newBuilder()
                        .setKind(MemoryKind.EPISODIC)
                        .setTier(Tier.CORE)
                        .setContent("Alice prefers tea")
                        .setTags(List.of("drinks", "alice"))
                        .setImportance(5)
                        .setConfidence(Confidence.HIGH)
                        .setUserId("alice")
                        .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_123L))
                        .setPinned(true)
                        .build());
        MemoryRequest update = request(
                "r-2",
                UpdateMemory.newBuilder()
                        .setId("m-42")
                        .setContent("Alice prefers green tea")
                        .setImportance(4)
                        .build());

        MemoryRequest createRead = serde.deserialize(TOPIC, serde.serialize(TOPIC, create));
        MemoryRequest updateRead = serde.deserialize(TOPIC, serde.serialize(TOPIC, update));

        assertThat(createRead).isEqualTo(create);
        assertThat(createRead.getOp()).isInstanceOf(CreateMemory.class);
        assertThat(((CreateMemory) createRead.getOp()).getTags()).containsExactly("drinks", "alice");
        assertThat(updateRead).isEqualTo(update);
        assertThat(updateRead.getOp()).isInstanceOfSatisfying(UpdateMemory.class, op -> {
            assertThat(op.getId()).isEqualTo("m-42");
            assertThat(op.getTags()).isNull();
        });
    }

    @Test
    void framesTheRecordWithMagicZeroAndTheBigEndianIdRegisteredUnderTheValueSubject() throws IOException {
        List<String> subjects = new ArrayList<>();
        SchemaRegistry fixedId = new SchemaRegistry() {
            @Override
            public int register(String subject, Schema schema) {
                subjects.add(subject);
                return 0x0A0B0C0D;
            }

            @Override
            public Schema byId(int id) {
                return MemoryRequest.getClassSchema();
            }

            @Override
            public boolean isCompatible(String subject, Schema schema) {
                return true;
            }
        };
        AvroWireSerde<MemoryRequest> framed = AvroWireSerde.forValues(fixedId, MemoryRequest.class);
        MemoryRequest request =
                request("r-3", CreateMemory.newBuilder().setContent("x").build());

        byte[] bytes = framed.serialize(TOPIC, request);

        assertThat(bytes[0]).isZero();
        assertThat(Arrays.copyOfRange(bytes, 1, 5)).containsExactly(0x0A, 0x0B, 0x0C, 0x0D);
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(0x0A0B0C0D);
        assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(plainAvro(request));
        assertThat(subjects).containsExactly(TOPIC + "-value");
        framed.serialize(TOPIC, request);
        assertThat(subjects).as("the id is registered once per topic").hasSize(1);
    }

    @Test
    void anUnknownMagicByteIsASerializationException() {
        byte[] bytes = serde.serialize(
                TOPIC, request("r-4", CreateMemory.newBuilder().setContent("x").build()));
        bytes[0] = 1;

        assertThatThrownBy(() -> serde.deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("magic byte 1");
    }

    @Test
    void inputShorterThanTheHeaderIsASerializationException() {
        assertThatThrownBy(() -> serde.deserialize(TOPIC, new byte[] {0, 0, 0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("too short");
    }

    @Test
    void aRecordWrittenWithAnOlderSchemaIsReadIntoTheCurrentClassWithDefaults() {
        // (confidence stays: its first use defines the Confidence enum that UpdateMemory refers to by name)
        Schema older = SchemaVariants.withoutFields(
                MemoryRequest.getClassSchema(), "CreateMemory", "tags", "importance", "source");
        int olderId = registry.register(TOPIC + "-value", older);
        Schema olderCreate = older.getField("op").schema().getTypes().stream()
                .filter(s -> s.getName().equals("CreateMemory"))
                .findFirst()
                .orElseThrow();
        assertThat(olderCreate.getField("importance")).isNull();
        GenericRecord op = new GenericRecordBuilder(olderCreate)
                .set(
                        "kind",
                        new GenericData.EnumSymbol(olderCreate.getField("kind").schema(), "PROCEDURAL"))
                .set("content", "Run the tests before committing")
                .set("agent_id", "builder")
                .set("pinned", true)
                .build();
        Schema actorSchema = older.getField("actor").schema();
        GenericRecord written = new GenericRecordBuilder(older)
                .set("request_id", "r-old")
                .set("space", "team")
                .set(
                        "actor",
                        new GenericRecordBuilder(actorSchema)
                                .set(
                                        "type",
                                        new GenericData.EnumSymbol(
                                                actorSchema.getField("type").schema(), "AGENT"))
                                .set("id", "builder")
                                .build())
                .set("requested_at", REQUESTED_AT.toEpochMilli())
                .set("op", op)
                .build();

        MemoryRequest read = serde.deserialize(TOPIC, SchemaVariants.frame(olderId, older, written));

        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getActor()).isEqualTo(new Actor(ActorType.AGENT, "builder"));
        assertThat(read.getRequestedAt()).isEqualTo(REQUESTED_AT);
        assertThat(read.getOp()).isInstanceOfSatisfying(CreateMemory.class, create -> {
            assertThat(create.getKind()).isEqualTo(MemoryKind.PROCEDURAL);
            assertThat(create.getContent()).isEqualTo("Run the tests before committing");
            assertThat(create.getAgentId()).isEqualTo("builder");
            assertThat(create.getPinned()).isTrue();
            assertThat(create.getTags())
                    .as("default of a field the writer lacked")
                    .isEmpty();
            assertThat(create.getImportance())
                    .as("default of a field the writer lacked")
                    .isEqualTo(3);
            assertThat(create.getConfidence())
                    .as("default filled by the writer")
                    .isEqualTo(Confidence.MEDIUM);
            assertThat(create.getSource())
                    .as("default of a field the writer lacked")
                    .isNull();
        });
    }

    private static MemoryRequest request(String id, Object op) {
        return MemoryRequest.newBuilder()
                .setRequestId(id)
                .setSpace("team")
                .setActor(new Actor(ActorType.AGENT, "builder"))
                .setExpectedVersion(null)
                .setSessionId("s-1")
                .setRequestedAt(REQUESTED_AT)
                .setOp(op)
                .build();
    }

    private static byte[] plainAvro(MemoryRequest request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<MemoryRequest>(MemoryRequest.getClassSchema()).write(request, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
