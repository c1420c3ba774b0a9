package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ServerServiceDefinition;
import io.memorychain.api.audit.AuditDigest;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.export.ImportResult;
import io.memorychain.api.export.SpaceExport;
import io.memorychain.api.grants.GrantJson;
import io.memorychain.api.grpc.v1.Grant;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.memories.ActorJson;
import io.micronaut.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mappings the new gRPC groups rely on: maps, absent values, the request-to-body inverse, stream lines, binding.
 */
class FeatureMappingTest {

    private static final ProtoJson PROTO = new ProtoJson(JsonMapper.createDefault());

    @Test
    void jsonObjectsOfCountsAndIdsFillProtoMapFields() {
        AuditDigest digest = new AuditDigest(
                "a",
                "2026-11",
                3,
                Map.of("MemoryCreated", 2L, "MemoryUpdated", 1L),
                Map.of("agent:api", 3L),
                List.of(),
                List.of(),
                "# November");
        io.memorychain.api.grpc.v1.AuditDigest message = PROTO.fill(
                        digest, io.memorychain.api.grpc.v1.AuditDigest.newBuilder())
                .build();
        assertThat(message.getByTypeMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of("MemoryCreated", 2L, "MemoryUpdated", 1L));
        assertThat(message.getByActorMap()).containsEntry("agent:api", 3L);
        assertThat(message.getEvents()).isEqualTo(3);

        ImportResult imported = new ImportResult(2, 0, 1, Map.of("m-old", "m-new"), 9);
        assertThat(PROTO.fill(imported, io.memorychain.api.grpc.v1.ImportResult.newBuilder())
                        .build()
                        .getIdsMap())
                .containsExactly(Map.entry("m-old", "m-new"));
    }

    @Test
    void nullsOfTheRestAnswerLeaveOptionalFieldsAndMessagesUnset() {
        GrantJson pending = new GrantJson(
                "g1",
                "a",
                "pending",
                "admin-ops",
                "debug",
                600,
                List.of(),
                new ActorJson("admin", "ops"),
                4,
                "2026-11-28T00:00:00Z",
                null,
                null,
                null,
                null,
                null,
                null,
                0,
                null);
        Grant grant = PROTO.fill(pending, Grant.newBuilder()).build();
        assertThat(grant.getRequestedBy().getType()).isEqualTo("admin");
        assertThat(grant.hasConsentedBy()).isFalse();
        assertThat(grant.hasExpiresAt()).isFalse();
        assertThat(grant.getDurationSeconds()).isEqualTo(600);
    }

    @Test
    void aRequestMessageBecomesItsRestBodyRecordAndAMalformedOneIsInvalid() {
        io.memorychain.api.grpc.v1.SpaceExport message = io.memorychain.api.grpc.v1.SpaceExport.newBuilder()
                .setFormat(SpaceExport.FORMAT)
                .setSpace("a")
                .setHeadSeq(7)
                .addMemories(io.memorychain.api.grpc.v1.Memory.newBuilder()
                        .setId("m1")
                        .setContent("Ana drinks tea")
                        .setKind("semantic")
                        .addTags("drinks")
                        .setImportance(4)
                        .setPinned(true))
                .addRelations(io.memorychain.api.grpc.v1.ExportedRelation.newBuilder()
                        .setFrom("m1")
                        .setTo("m1")
                        .setType("related_to")
                        .setStrength(0.5))
                .build();
        SpaceExport export = PROTO.record(message, SpaceExport.class);
        assertThat(export.format()).isEqualTo(SpaceExport.FORMAT);
        assertThat(export.headSeq()).isEqualTo(7);
        assertThat(export.userId()).as("unset optional: absent").isNull();
        assertThat(export.memories()).singleElement().satisfies(m -> {
            assertThat(m.content()).isEqualTo("Ana drinks tea");
            assertThat(m.tags()).containsExactly("drinks");
            assertThat(m.importance()).isEqualTo(4);
            assertThat(m.pinned()).isTrue();
        });
        assertThat(export.relations())
                .singleElement()
                .satisfies(e -> assertThat(e.strength()).isEqualTo(0.5));
        assertThat(PROTO.fill(export, io.memorychain.api.grpc.v1.SpaceExport.newBuilder())
                        .getMemories(0)
                        .getContent())
                .isEqualTo("Ana drinks tea");

        assertThatThrownBy(() -> PROTO.record(message, Integer.class))
                .as("a type that cannot hold it: 400, not 500")
                .isInstanceOf(ApiException.class)
                .hasMessageStartingWith("invalid SpaceExport: ");
    }

    @Test
    void theChainExportIsSplitIntoItsLinesWhateverTheWriteBoundaries() {
        List<String> lines = new ArrayList<>();
        try (LineStream out = new LineStream(lines::add)) {
            byte[] text = "{\"format\":\"h\"}\n{\"seq\":1,\"é\":\"ü\"}\n{\"seq\":2}"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.write(text, 0, 5);
            out.write(text, 5, 20);
            for (int i = 25; i < text.length; i++) {
                out.write(text[i]);
            }
        }
        assertThat(lines).containsExactly("{\"format\":\"h\"}", "{\"seq\":1,\"é\":\"ü\"}", "{\"seq\":2}");
    }

    @Test
    void theServiceCannotBeBoundWithAMethodNoFeatureServes() {
        ServerServiceDefinition.Builder service =
                ServerServiceDefinition.builder(MemoryServiceGrpc.getServiceDescriptor());
        new GrpcMethods(service).unary(MemoryServiceGrpc.getWhoAmIMethod(), r -> null);
        assertThatThrownBy(service::build).isInstanceOf(IllegalStateException.class);
    }
}
