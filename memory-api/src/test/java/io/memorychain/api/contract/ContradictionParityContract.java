package io.memorychain.api.contract;

import static io.memorychain.api.contract.GrpcRestParityContract.AGENT;
import static io.memorychain.api.contract.GrpcRestParityContract.PERSON;
import static io.memorychain.api.contract.GrpcRestParityContract.SUBAGENT;
import static io.memorychain.api.contract.ProtoMaps.plain;
import static io.memorychain.api.contract.ProtoMaps.plainJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.memorychain.api.contract.MemoryApiContract.Resp;
import io.memorychain.api.grpc.v1.Contradiction;
import io.memorychain.api.grpc.v1.ContradictionList;
import io.memorychain.api.grpc.v1.FlagContradictionRequest;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.ListContradictionsRequest;
import io.memorychain.api.grpc.v1.ResolveContradictionRequest;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contradictions over gRPC and MCP on the same service as REST (docs/architecture.md §10): flagged, listed, shown on a
 * memory read and resolved with REST's answers and REST's refusal codes. Run as a nested class of a gRPC test, on its
 * one application.
 */
public abstract class ContradictionParityContract {

    protected abstract FeatureParityContract parity();

    @Test
    void contradictionsAreFlaggedListedAndResolvedAlikeOverRestGrpcAndMcp() {
        FeatureParityContract p = parity();
        String space = GrpcRestParityContract.space();
        String base = "/v1/spaces/" + space;
        String dark = p.createOverRest(space, "User prefers dark mode");
        String light = p.createOverRest(space, "User prefers light mode");
        Contradiction flagged = p.grpc()
                .flagContradiction(FlagContradictionRequest.newBuilder()
                        .setSpace(space)
                        .setFirstId(dark)
                        .setSecondId(light)
                        .setSimilarity(0.9)
                        .build());
        assertThat(flagged.getOpen()).isTrue();
        assertThat(flagged.getFlaggedBy().getType()).isEqualTo("agent");
        String id = flagged.getId();
        ContradictionList listed = p.grpc()
                .listContradictions(
                        ListContradictionsRequest.newBuilder().setSpace(space).build());
        assertThat(listed.getItemsList()).extracting(Contradiction::getId).containsExactly(id);
        assertThat(plain(listed))
                .isEqualTo(plainJson(p.rest(HttpRequest.GET(base + "/contradictions"), p.key(AGENT))
                        .json()));
        assertThat(p.grpc()
                        .getMemory(GetMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setId(dark)
                                .build())
                        .getContradictions()
                        .getOpenList())
                .containsExactly(id);

        p.assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> p.rest(
                        HttpRequest.POST(
                                base + "/contradictions/" + id + ":resolve", Map.of("resolution", "keep_both")),
                        p.key(SUBAGENT)),
                () -> p.grpc(p.key(SUBAGENT))
                        .resolveContradiction(resolve(space, id, "keep_both").build()));
        p.assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> p.rest(
                        HttpRequest.POST(base + "/contradictions/" + id + ":resolve", Map.of("resolution", "one_wins")),
                        p.key(AGENT)),
                () -> p.grpc()
                        .resolveContradiction(resolve(space, id, "one_wins").build()));
        p.assertSameRejection(
                space,
                "INVALID_STATE",
                409,
                Status.Code.FAILED_PRECONDITION,
                () -> p.rest(
                        HttpRequest.POST(base + "/contradictions", Map.of("first_id", light, "second_id", dark)),
                        p.key(AGENT)),
                () -> p.grpc()
                        .flagContradiction(FlagContradictionRequest.newBuilder()
                                .setSpace(space)
                                .setFirstId(light)
                                .setSecondId(dark)
                                .build()));

        try (McpSyncClient agent = mcp(p.key(AGENT));
                McpSyncClient subagent = mcp(p.key(SUBAGENT))) {
            assertThat(plainJson(ok(agent, Map.of("space", space, "action", "list"))))
                    .isEqualTo(plainJson(p.rest(HttpRequest.GET(base + "/contradictions"), p.key(AGENT))
                            .json()));
            assertThat(error(agent, Map.of("space", space, "action", "resolve", "id", id, "resolution", "one_wins")))
                    .containsEntry("code", "INVALID_ARGUMENT");
            assertThat(error(subagent, Map.of("space", space, "action", "list")))
                    .containsEntry("code", "ROLE_NOT_ALLOWED");
            assertThat(ok(agent, Map.of("space", space, "action", "resolve", "id", id, "resolution", "keep_both")))
                    .containsEntry("resolution", "keep_both")
                    .containsEntry("open", false);

            String five = p.createOverRest(space, "The staging server is at 10.0.0.5");
            String seven = p.createOverRest(space, "The staging server is at 10.0.0.7");
            Map<String, Object> second =
                    ok(agent, Map.of("space", space, "action", "flag", "first_id", five, "second_id", seven));
            String secondId = (String) second.get("id");
            Contradiction asked = p.grpc(p.key(PERSON))
                    .resolveContradiction(resolve(space, secondId, "ask_user").build());
            assertThat(asked.getResolution()).isEqualTo("ask_user");
            assertThat(asked.getOpen()).isTrue();
        }
        assertThat(p.grpc()
                        .getMemory(GetMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setId(dark)
                                .build())
                        .getConfidence())
                .isEqualTo("low");
        ContradictionList all = p.grpc()
                .listContradictions(ListContradictionsRequest.newBuilder()
                        .setSpace(space)
                        .setState("all")
                        .build());
        assertThat(all.getItemsList())
                .extracting(Contradiction::getResolution)
                .containsExactly("keep_both", "ask_user");
        assertThat(plain(all))
                .isEqualTo(plainJson(p.rest(HttpRequest.GET(base + "/contradictions?state=all"), p.key(AGENT))
                        .json()));
        Resp context =
                p.rest(HttpRequest.POST(base + "/context", Map.of("message", "where is staging?")), p.key(AGENT));
        assertThat(context.list("questions"))
                .extracting(q -> q.get("id"))
                .containsExactly(all.getItems(1).getId());
    }

    private static ResolveContradictionRequest.Builder resolve(String space, String id, String resolution) {
        return ResolveContradictionRequest.newBuilder()
                .setSpace(space)
                .setId(id)
                .setResolution(resolution);
    }

    private McpSyncClient mcp(String key) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(parity().baseUrl())
                        .endpoint("/mcp")
                        .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    private Map<String, Object> ok(McpSyncClient client, Map<String, Object> args) {
        McpSchema.CallToolResult result = call(client, args);
        assertThat(result.isError()).as(text(result)).isFalse();
        return parse(text(result));
    }

    private Map<String, Object> error(McpSyncClient client, Map<String, Object> args) {
        McpSchema.CallToolResult result = call(client, args);
        assertThat(result.isError()).as(text(result)).isTrue();
        return parse(text(result));
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest("contradictions_review", args, null));
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private Map<String, Object> parse(String text) {
        try {
            return parity().json().readValue(text, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }
}
