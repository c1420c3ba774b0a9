package io.memorychain.api.contract;

import static io.memorychain.api.contract.ProtoMaps.plain;
import static io.memorychain.api.contract.ProtoMaps.plainJson;
import static io.memorychain.api.contract.ProtoMaps.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.memorychain.api.contract.MemoryApiContract.Resp;
import io.memorychain.api.grpc.v1.AcknowledgeAlertRequest;
import io.memorychain.api.grpc.v1.AlertList;
import io.memorychain.api.grpc.v1.ConfirmForgetRequest;
import io.memorychain.api.grpc.v1.Consent;
import io.memorychain.api.grpc.v1.CriticalAlert;
import io.memorychain.api.grpc.v1.DecideConsentRequest;
import io.memorychain.api.grpc.v1.ExportChainRequest;
import io.memorychain.api.grpc.v1.ExportSpaceRequest;
import io.memorychain.api.grpc.v1.ExportedSpace;
import io.memorychain.api.grpc.v1.ForgetConfirmed;
import io.memorychain.api.grpc.v1.GetAuditDigestRequest;
import io.memorychain.api.grpc.v1.GetErasureProofRequest;
import io.memorychain.api.grpc.v1.GetProfileRequest;
import io.memorychain.api.grpc.v1.Grant;
import io.memorychain.api.grpc.v1.GrantIdRequest;
import io.memorychain.api.grpc.v1.HardDeleteRequest;
import io.memorychain.api.grpc.v1.ImportResult;
import io.memorychain.api.grpc.v1.ImportSpaceRequest;
import io.memorychain.api.grpc.v1.ListAlertsRequest;
import io.memorychain.api.grpc.v1.ListConsentsRequest;
import io.memorychain.api.grpc.v1.ListGrantsRequest;
import io.memorychain.api.grpc.v1.ListOpsRequest;
import io.memorychain.api.grpc.v1.MessageAnswer;
import io.memorychain.api.grpc.v1.PostMessageRequest;
import io.memorychain.api.grpc.v1.ProfileFieldRequest;
import io.memorychain.api.grpc.v1.ProfileWrite;
import io.memorychain.api.grpc.v1.PutBlockRequest;
import io.memorychain.api.grpc.v1.RequestGrantRequest;
import io.memorychain.api.grpc.v1.RevokeGrantRequest;
import io.memorychain.api.grpc.v1.SetProfileFieldRequest;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The operations gRPC and MCP gained so that every operation is on every transport ({@code TransportParityTest}): each
 * group called end to end over gRPC (or MCP) and read back over REST alike, with one refusal per group carrying the
 * same code on every transport. Run on the real Kafka backend ({@code MemoryGrpcIT}), against the application it
 * already starts.
 */
public abstract class FeatureParityContract extends GrpcRestParityContract {

    /** The application's HTTP base URL (MCP is served at {@code /mcp}). */
    protected abstract String baseUrl();

    /**
     * Whether the backend has Kafka topics to read: the chain export and the erasure proof read the events and key
     * topics themselves, which TopologyTestDriver does not have (those tests run in {@code MemoryGrpcIT}).
     */
    protected boolean readsTopics() {
        return true;
    }

    private void assumeTopics() {
        Assumptions.assumeTrue(
                readsTopics(),
                "the chain export and erasure proofs read the Kafka topics: run by "
                        + "MemoryGrpcIT on the shared broker");
    }

    // ---------------------------------------------------------------- gRPC

    @Test
    void postsMessagesAndConfirmsForgetsAlikeOnBothTransports() {
        String space = space();
        MessageAnswer remembered = grpc(key(PERSON))
                .postMessage(PostMessageRequest.newBuilder()
                        .setSpace(space)
                        .setMessage("Remember that I play the cello")
                        .build());
        assertThat(remembered.getTrigger()).isEqualTo("remember");
        assertThat(remembered.getStoredList()).isNotEmpty();
        String stored = remembered.getStored(0).getId();
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + stored), key(AGENT))
                        .json())
                .containsEntry("state", "active");

        MessageAnswer forget = grpc(key(PERSON))
                .postMessage(PostMessageRequest.newBuilder()
                        .setSpace(space)
                        .setMessage("Forget that I play the cello")
                        .build());
        assertThat(forget.getTrigger()).isEqualTo("forget");
        assertThat(forget.getConfirmation().getMemoryIdsList()).contains(stored);
        ForgetConfirmed confirmed = grpc(key(PERSON))
                .confirmForget(ConfirmForgetRequest.newBuilder()
                        .setSpace(space)
                        .setToken(forget.getConfirmation().getToken())
                        .addMemoryIds(stored)
                        .build());
        assertThat(confirmed.getForgottenList()).containsExactly(stored);
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + stored), key(AGENT))
                        .json())
                .containsEntry("state", "soft_deleted");

        assertSameRejection(
                space,
                "INVALID_CONFIRMATION",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/messages:confirm-forget", Map.of("token", "forged")),
                        key(PERSON)),
                () -> grpc(key(PERSON))
                        .confirmForget(ConfirmForgetRequest.newBuilder()
                                .setSpace(space)
                                .setToken("forged")
                                .build()));
    }

    @Test
    void grantsAreRequestedConsentedReadUnderAndRevokedAlikeOnBothTransports() {
        String space = space();
        createOverRest(space, "Ana's diary: a private note");
        Grant requested = grpc(key(ADMIN))
                .requestGrant(RequestGrantRequest.newBuilder()
                        .setSpace(space)
                        .setPurpose("debug a bad recall")
                        .setDurationSeconds(600)
                        .build());
        assertThat(requested.getStatus()).isEqualTo("pending");
        GrantIdRequest id = GrantIdRequest.newBuilder()
                .setSpace(space)
                .setId(requested.getId())
                .build();
        assertThat(plain(grpc(key(ADMIN)).getGrant(id)))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/grants/" + requested.getId()), key(ADMIN))
                                .json()));

        assertThat(grpc(key(PERSON)).consentGrant(id).getStatus()).isEqualTo("active");
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/memories"), key(ADMIN))
                        .status())
                .as("an admin reads content under the grant")
                .isEqualTo(200);
        assertThat(plain(grpc(key(ADMIN)).listGrantReads(id)))
                .isEqualTo(plainJson(rest(
                                HttpRequest.GET("/v1/spaces/" + space + "/grants/" + requested.getId() + "/reads"),
                                key(ADMIN))
                        .json()));
        assertThat(grpc(key(ADMIN)).listGrantReads(id).getItemsList()).hasSize(1);

        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/grants",
                                Map.of("purpose", "curious", "duration_seconds", 60)),
                        key(AGENT)),
                () -> grpc().requestGrant(RequestGrantRequest.newBuilder()
                        .setSpace(space)
                        .setPurpose("curious")
                        .setDurationSeconds(60)
                        .build()));
        assertThat(grpc(key(PERSON))
                        .revokeGrant(RevokeGrantRequest.newBuilder()
                                .setSpace(space)
                                .setId(requested.getId())
                                .setReason("done")
                                .build())
                        .getStatus())
                .isEqualTo("revoked");
        assertThat(plain(grpc(key(ADMIN))
                        .listGrants(
                                ListGrantsRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/grants"), key(ADMIN))
                        .json()));
    }

    @Test
    void theProfileAndItsConsentRequestsAlikeOnBothTransports() {
        String space = space();
        ProfileWrite proposed = grpc().setProfileField(SetProfileFieldRequest.newBuilder()
                .setSpace(space)
                .setField("preferred_name")
                .setValue("Ana")
                .setReason("she said so")
                .build());
        assertThat(proposed.getResult()).as("sensitive: the user decides").isEqualTo("consent_requested");
        String consent = proposed.getConsentId();
        assertThat(plain(grpc().getProfile(
                                GetProfileRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/profile"), key(AGENT))
                        .json()));
        assertThat(plain(grpc().listConsents(
                                ListConsentsRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/consents"), key(AGENT))
                        .json()));

        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consents/" + consent + ":decide", Map.of("grant", true)),
                        key(AGENT)),
                () -> grpc().decideConsent(DecideConsentRequest.newBuilder()
                        .setSpace(space)
                        .setId(consent)
                        .setGrant(true)
                        .build()));
        Consent granted = grpc(key(PERSON))
                .decideConsent(DecideConsentRequest.newBuilder()
                        .setSpace(space)
                        .setId(consent)
                        .setGrant(true)
                        .build());
        assertThat(granted.getStatus()).isEqualTo("granted");
        ProfileFieldRequest field = ProfileFieldRequest.newBuilder()
                .setSpace(space)
                .setField("preferred_name")
                .build();
        assertThat(grpc().getProfileField(field).getValue()).isEqualTo("Ana");
        assertThat(plain(grpc().getProfileField(field)))
                .isEqualTo(
                        plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/profile/preferred_name"), key(AGENT))
                                .json()));
    }

    @Test
    void criticalChangeAlertsAreListedAndAcknowledgedAlikeOnBothTransports() {
        String space = space();
        grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("persona")
                .setContent("I am a terse assistant.")
                .build());
        AlertList alerts =
                grpc().listAlerts(ListAlertsRequest.newBuilder().setSpace(space).build());
        assertThat(alerts.getItemsList()).hasSize(1);
        assertThat(plain(alerts))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/alerts"), key(AGENT))
                        .json()));
        String alert = alerts.getItems(0).getId();

        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/alerts/" + alert + ":acknowledge", Map.of()),
                        key(AGENT)),
                () -> grpc().acknowledgeAlert(AcknowledgeAlertRequest.newBuilder()
                        .setSpace(space)
                        .setId(alert)
                        .build()));
        CriticalAlert acknowledged = grpc(key(PERSON))
                .acknowledgeAlert(AcknowledgeAlertRequest.newBuilder()
                        .setSpace(space)
                        .setId(alert)
                        .setReason("intentional")
                        .build());
        assertThat(acknowledged.getAcknowledged()).isTrue();
        assertThat(grpc().listAlerts(ListAlertsRequest.newBuilder()
                                .setSpace(space)
                                .setUnacknowledged(true)
                                .build())
                        .getItemsList())
                .isEmpty();
    }

    @Test
    void exportsAndImportsASpaceAlikeOnBothTransports() {
        String space = space();
        String tea = createOverRest(space, "Ana drinks green tea");
        createOverRest(space, "Ana lives in Porto");
        ExportedSpace exported = grpc().exportSpace(
                        ExportSpaceRequest.newBuilder().setSpace(space).build());
        Map<String, Object> rest = new HashMap<>(rest(HttpRequest.GET("/v1/spaces/" + space + "/export"), key(AGENT))
                .json());
        rest.remove("exported_at");
        assertThat(without(exported.getExport(), "exported_at")).isEqualTo(plainJson(rest));
        ExportedSpace markdown = grpc().exportSpace(ExportSpaceRequest.newBuilder()
                .setSpace(space)
                .setFormat("markdown")
                .build());
        assertThat(markdown.hasExport()).isFalse();
        assertThat(markdown.getMarkdown()).contains("Ana drinks green tea", "Ana lives in Porto");
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/export?format=xml"), key(AGENT)),
                () -> grpc().exportSpace(ExportSpaceRequest.newBuilder()
                        .setSpace(space)
                        .setFormat("xml")
                        .build()));

        String target = space();
        ImportResult imported = grpc().importSpace(ImportSpaceRequest.newBuilder()
                .setSpace(target)
                .setExport(exported.getExport())
                .build());
        assertThat(imported.getMemories()).isEqualTo(2);
        assertThat(imported.getIdsMap()).containsKey(tea);
        assertThat(rest(
                                HttpRequest.GET("/v1/spaces/" + target + "/memories/"
                                        + imported.getIdsMap().get(tea)),
                                key(AGENT))
                        .json())
                .containsEntry("content", "Ana drinks green tea");
        assertSameRejection(
                target,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.POST("/v1/spaces/" + target + "/import", Map.of("format", "nope")), key(AGENT)),
                () -> grpc().importSpace(ImportSpaceRequest.newBuilder()
                        .setSpace(target)
                        .setExport(io.memorychain.api.grpc.v1.SpaceExport.newBuilder()
                                .setFormat("nope"))
                        .build()));
    }

    @Test
    void theAuditDigestAndOpsCountsAlikeOnBothTransports() {
        String space = space();
        createOverRest(space, "Ana drinks green tea");
        createOverRest(space, "Ana lives in Porto");
        assertThat(plain(grpc().listAudit(io.memorychain.api.grpc.v1.ListAuditRequest.newBuilder()
                        .setSpace(space)
                        .setOrder("desc")
                        .setLimit(1)
                        .setType("MemoryCreated")
                        .build())))
                .as("the REST filters")
                .isEqualTo(plainJson(rest(
                                HttpRequest.GET("/v1/spaces/" + space + "/audit?order=desc&limit=1&type=MemoryCreated"),
                                key(AGENT))
                        .json()));
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        assertThat(plain(grpc().getAuditDigest(GetAuditDigestRequest.newBuilder()
                        .setSpace(space)
                        .setMonth(month)
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/audit/digest?month=" + month), key(AGENT))
                                .json()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/audit/digest?month=nope"), key(AGENT)),
                () -> grpc().getAuditDigest(GetAuditDigestRequest.newBuilder()
                        .setSpace(space)
                        .setMonth("nope")
                        .build()));

        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        String since = hour.minus(1, ChronoUnit.HOURS).toString();
        String until = hour.plus(1, ChronoUnit.HOURS).toString();
        ListOpsRequest ops = ListOpsRequest.newBuilder()
                .setSpace(space)
                .setSince(since)
                .setUntil(until)
                .build();
        Supplier<Resp> restOps = () ->
                rest(HttpRequest.GET("/v1/spaces/" + space + "/ops?since=" + since + "&until=" + until), key(ADMIN));
        if (restOps.get().status() == 503) {
            GrpcFailure unavailable = failure(() -> grpc(key(ADMIN)).listOps(ops));
            assertThat(unavailable.code()).isEqualTo(restOps.get().code());
        } else {
            await().untilAsserted(() -> assertThat(plain(grpc(key(ADMIN)).listOps(ops)))
                    .isEqualTo(plainJson(restOps.get().json())));
        }
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/ops?bucket=week"), key(ADMIN)),
                () -> grpc(key(ADMIN))
                        .listOps(ListOpsRequest.newBuilder()
                                .setSpace(space)
                                .setBucket("week")
                                .build()));
    }

    @Test
    void theChainExportStreamsTheLinesRestSends() {
        assumeTopics();
        String space = space();
        createOverRest(space, "Ana drinks green tea");
        createOverRest(space, "Ana lives in Porto");
        String ndjson = http().toBlocking()
                .retrieve(
                        HttpRequest.GET("/v1/spaces/" + space + "/chain/export")
                                .accept("application/x-ndjson")
                                .bearerAuth(key(AGENT)),
                        String.class);
        List<String> lines = new ArrayList<>();
        grpc().exportChain(ExportChainRequest.newBuilder().setSpace(space).build())
                .forEachRemaining(l -> lines.add(l.getLine()));
        List<String> restLines = ndjson.lines().toList();
        assertThat(lines)
                .as("the header and one line per event")
                .hasSizeGreaterThanOrEqualTo(3)
                .hasSameSizeAs(restLines);
        assertThat(lines.subList(1, lines.size()))
                .as("the events, as REST sends them")
                .isEqualTo(restLines.subList(1, restLines.size()));
        Map<String, Object> header = new HashMap<>(parse(lines.get(0)));
        Map<String, Object> restHeader = new HashMap<>(parse(restLines.get(0)));
        assertThat(header.remove("exported_at")).isNotNull();
        restHeader.remove("exported_at");
        assertThat(header).as("the header, but for its time").isEqualTo(restHeader);
        Resp restAdmin = rest(HttpRequest.GET("/v1/spaces/" + space + "/chain/export"), key(ADMIN));
        GrpcFailure grpcAdmin = failure(() -> grpc(key(ADMIN))
                .exportChain(ExportChainRequest.newBuilder().setSpace(space).build())
                .hasNext());
        assertThat(restAdmin.code()).as("content: refused to admins").isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(grpcAdmin.code()).isEqualTo(restAdmin.code());
        assertThat(grpcAdmin.status()).isEqualTo(Status.Code.PERMISSION_DENIED);
    }

    @Test
    void theProofOfAnErasureIsTheSameOnBothTransports() {
        assumeTopics();
        String space = space();
        String pin = createOverRest(space, "My PIN is 4417");
        GetErasureProofRequest proof =
                GetErasureProofRequest.newBuilder().setSpace(space).setId(pin).build();
        assertSameRejection(
                space,
                "INVALID_STATE",
                409,
                Status.Code.FAILED_PRECONDITION,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + pin + "/erasure"), key(PERSON)),
                () -> grpc(key(PERSON)).getErasureProof(proof));
        grpc(key(PERSON))
                .eraseMemory(HardDeleteRequest.newBuilder()
                        .setSpace(space)
                        .setId(pin)
                        .setReason("forget my PIN")
                        .build());
        assertThat(plain(grpc(key(PERSON)).getErasureProof(proof)))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + pin + "/erasure"), key(PERSON))
                                .json()));
        assertThat(grpc(key(PERSON))
                        .getErasureProof(proof)
                        .getChain()
                        .getVerification()
                        .getOk())
                .isTrue();
    }

    // ---------------------------------------------------------------- MCP

    @Test
    void theMcpToolsForLinksHistoryFlagsAndPointInTimeAnswerAsRestDoes() {
        String space = space();
        String a = createOverRest(space, "Ana drinks green tea");
        String b = createOverRest(space, "Tea comes from Taiwan");
        String memories = "/v1/spaces/" + space + "/memories/";
        try (McpSyncClient agent = mcp(key(AGENT))) {
            Map<String, Object> linked =
                    ok(agent, "memory_link", Map.of("space", space, "id", a, "to", b, "strength", 0.8));
            assertThat(plainJson(linked))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(memories + a + "/relations"), key(AGENT))
                            .json()));
            assertThat(plainJson(ok(agent, "memory_relations", Map.of("space", space, "id", b))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(memories + b + "/relations"), key(AGENT))
                            .json()));
            assertSameCode(
                    rest(HttpRequest.POST(memories + a + "/links", Map.of("to", b)), key(AGENT)),
                    error(agent, "memory_link", Map.of("space", space, "id", a, "to", b)),
                    "ALREADY_LINKED");
            assertThat((List<?>) ok(agent, "memory_unlink", Map.of("space", space, "id", a, "to", b))
                            .get("relations"))
                    .isEmpty();

            assertThat(rest(HttpRequest.DELETE(memories + a), key(AGENT)).status())
                    .isEqualTo(200);
            assertThat(memory(ok(agent, "memory_restore", Map.of("space", space, "id", a))))
                    .containsEntry("state", "active");
            assertThat(memory(ok(agent, "memory_pin", Map.of("space", space, "id", a))))
                    .containsEntry("pinned", true);
            Map<String, Object> unpinned =
                    memory(ok(agent, "memory_unpin", Map.of("space", space, "id", a, "expected_version", 4)));
            assertThat(plainJson(unpinned))
                    .isEqualTo(plainJson(
                            rest(HttpRequest.GET(memories + a), key(AGENT)).json()));
            assertSameCode(
                    rest(HttpRequest.POST(memories + "m-gone:restore", Map.of()), key(AGENT)),
                    error(agent, "memory_restore", Map.of("space", space, "id", "m-gone")),
                    "NOT_FOUND");

            assertThat(plainJson(ok(agent, "memory_history", Map.of("space", space, "id", a))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(memories + a + "/history"), key(AGENT))
                            .json()));
            assertThat(plainJson(ok(agent, "memory_get", Map.of("space", space, "id", a, "as_of_seq", 1))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(memories + a + "?as_of_seq=1"), key(AGENT))
                            .json()));
            Map<String, Object> then = ok(
                    agent,
                    "memory_query",
                    Map.of("space", space, "query", "tea", "as_of_seq", 1, "include_dormant", true, "return", "full"));
            assertThat(ids(then)).as("at seq 1 only the first memory existed").containsExactly(a);
            assertThat(ids(then))
                    .isEqualTo(ids(rest(
                                    HttpRequest.POST(
                                            "/v1/spaces/" + space + "/query",
                                            Map.of(
                                                    "query",
                                                    "tea",
                                                    "as_of_seq",
                                                    1,
                                                    "include_dormant",
                                                    true,
                                                    "return",
                                                    "full")),
                                    key(AGENT))
                            .json()));
        }
    }

    @Test
    void theMcpToolsForAuditChainErasureAndRollbackAnswerAsRestDoes() {
        String space = space();
        String a = createOverRest(space, "Ana drinks green tea");
        String b = createOverRest(space, "My PIN is 4417");
        String base = "/v1/spaces/" + space;
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        try (McpSyncClient agent = mcp(key(AGENT));
                McpSyncClient person = mcp(key(PERSON));
                McpSyncClient admin = mcp(key(ADMIN))) {
            assertThat(plainJson(ok(agent, "audit_log", Map.of("space", space, "memory_id", a))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/audit?memory_id=" + a), key(AGENT))
                            .json()));
            assertThat(plainJson(ok(agent, "audit_digest", Map.of("space", space, "month", month))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/audit/digest?month=" + month), key(AGENT))
                            .json()));
            assertSameCode(
                    rest(HttpRequest.GET(base + "/audit/digest?month=nope"), key(AGENT)),
                    error(agent, "audit_digest", Map.of("space", space, "month", "nope")),
                    "INVALID_ARGUMENT");

            assertThat(plainJson(ok(agent, "chain_verify", Map.of("space", space, "full", true))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/chain/verify?full=true"), key(AGENT))
                            .json()));
            Map<String, Object> checkpoint = new HashMap<>(ok(admin, "chain_checkpoint", Map.of("space", space)));
            Map<String, Object> restCheckpoint =
                    new HashMap<>(rest(HttpRequest.GET(base + "/chain/checkpoint"), key(ADMIN))
                            .json());
            checkpoint.remove("signed_at");
            restCheckpoint.remove("signed_at");
            assertThat(plainJson(checkpoint)).isEqualTo(plainJson(restCheckpoint));

            assertThat(rest(
                                    HttpRequest.PATCH(base + "/memories/" + a, Map.of("content", "Ana drinks coffee")),
                                    key(AGENT))
                            .status())
                    .isEqualTo(200);
            Map<String, Object> plan = Map.of("memory_id", a, "to_seq", 1);
            Map<String, Object> planArgs = new LinkedHashMap<>(plan);
            planArgs.put("space", space);
            assertThat(plainJson(ok(admin, "rollback_plan", planArgs)))
                    .isEqualTo(plainJson(rest(HttpRequest.POST(base + "/rollback/plan", plan), key(ADMIN))
                            .json()));
            assertSameCode(
                    rest(HttpRequest.POST(base + "/rollback/plan", plan), key(AGENT)),
                    error(agent, "rollback_plan", planArgs),
                    "ROLE_NOT_ALLOWED");

            assertSameCode(
                    rest(HttpRequest.POST(base + "/memories/" + b + ":erase", Map.of("reason", "x")), key(AGENT)),
                    error(agent, "memory_erase", Map.of("space", space, "id", b, "reason", "x")),
                    "FORBIDDEN");
            assertThat(memory(ok(person, "memory_erase", Map.of("space", space, "id", b, "reason", "forget my PIN"))))
                    .containsEntry("content", "[erased]");
        }
    }

    @Test
    void theMcpErasureProofIsTheRestOne() {
        assumeTopics();
        String space = space();
        String pin = createOverRest(space, "My PIN is 4417");
        try (McpSyncClient person = mcp(key(PERSON))) {
            assertSameCode(
                    rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + pin + "/erasure"), key(PERSON)),
                    error(person, "erasure_proof", Map.of("space", space, "id", pin)),
                    "INVALID_STATE");
            ok(person, "memory_erase", Map.of("space", space, "id", pin, "reason", "forget my PIN"));
            assertThat(plainJson(ok(person, "erasure_proof", Map.of("space", space, "id", pin))))
                    .isEqualTo(plainJson(
                            rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + pin + "/erasure"), key(PERSON))
                                    .json()));
        }
    }

    @Test
    void theMcpToolsForTheProfileConsentsAndAlertsAnswerAsRestDoes() {
        String space = space();
        String base = "/v1/spaces/" + space;
        try (McpSyncClient agent = mcp(key(AGENT));
                McpSyncClient person = mcp(key(PERSON))) {
            Map<String, Object> proposed =
                    ok(agent, "profile_set", Map.of("space", space, "field", "preferred_name", "value", "Ana"));
            assertThat(proposed).containsEntry("result", "consent_requested");
            String consent = (String) proposed.get("consent_id");
            assertThat(plainJson(ok(agent, "profile_get", Map.of("space", space))))
                    .isEqualTo(plainJson(
                            rest(HttpRequest.GET(base + "/profile"), key(AGENT)).json()));
            assertThat(plainJson(ok(agent, "consent_list", Map.of("space", space))))
                    .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/consents"), key(AGENT))
                            .json()));
            assertSameCode(
                    rest(
                            HttpRequest.POST(base + "/consents/" + consent + ":decide", Map.of("grant", true)),
                            key(AGENT)),
                    error(agent, "consent_decide", Map.of("space", space, "id", consent, "grant", true)),
                    "FORBIDDEN");
            assertThat(ok(person, "consent_decide", Map.of("space", space, "id", consent, "grant", true)))
                    .containsEntry("status", "granted");
            assertThat(ok(agent, "profile_get", Map.of("space", space, "field", "preferred_name")))
                    .containsEntry("value", "Ana");

            ok(agent, "block_update", Map.of("space", space, "label", "persona", "content", "I am terse."));
            Map<String, Object> alerts = ok(agent, "alert_list", Map.of("space", space));
            assertThat(plainJson(alerts))
                    .isEqualTo(plainJson(
                            rest(HttpRequest.GET(base + "/alerts"), key(AGENT)).json()));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> items = (List<Map<String, Object>>) alerts.get("items");
            String alert = (String) items.get(0).get("id");
            assertSameCode(
                    rest(HttpRequest.POST(base + "/alerts/" + alert + ":acknowledge", Map.of()), key(AGENT)),
                    error(agent, "alert_acknowledge", Map.of("space", space, "id", alert)),
                    "FORBIDDEN");
            assertThat(ok(person, "alert_acknowledge", Map.of("space", space, "id", alert, "reason", "intended")))
                    .containsEntry("acknowledged", true);
        }
    }

    // ---------------------------------------------------------------- MCP helpers

    private McpSyncClient mcp(String key) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(baseUrl())
                        .endpoint("/mcp")
                        .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    private Map<String, Object> ok(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args, null));
        assertThat(result.isError()).as(tool + ": " + text(result)).isFalse();
        return parse(text(result));
    }

    private Map<String, Object> error(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args, null));
        assertThat(result.isError()).as(tool + ": " + text(result)).isTrue();
        return parse(text(result));
    }

    /** The same refusal over REST and MCP: the same machine-readable code. */
    private static void assertSameCode(Resp rest, Map<String, Object> mcp, String code) {
        assertThat(rest.code()).as(rest.raw()).isEqualTo(code);
        assertThat(mcp).as("MCP refusal").containsEntry("code", code);
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private Map<String, Object> parse(String text) {
        try {
            return json().readValue(text, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> memory(Map<String, Object> written) {
        return (Map<String, Object>) written.get("memory");
    }

    @SuppressWarnings("unchecked")
    private static List<String> ids(Map<String, Object> answer) {
        return ((List<Map<String, Object>>) answer.get("items"))
                .stream().map(i -> (String) i.get("id")).toList();
    }
}
