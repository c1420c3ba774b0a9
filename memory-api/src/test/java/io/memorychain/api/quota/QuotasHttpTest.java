package io.memorychain.api.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.grpc.v1.ListMemoriesRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.mcp.MemoryTools;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Quotas over the real HTTP, gRPC and MCP stacks: a key past its rate or its day's writes gets 429 RATE_LIMITED with
 * Retry-After (gRPC RESOURCE_EXHAUSTED), whatever the transport, while other keys are served as before.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "grpc.server.port", value = "0")
@Property(name = "memory.auth.bootstrap", value = "false")
@Property(name = "memory.write-timeout", value = "2s")
@Property(name = "memory.quotas.keys.flood.requests-per-second", value = "0.01")
@Property(name = "memory.quotas.keys.flood.burst", value = "3")
@Property(name = "memory.quotas.keys.diary.writes-per-day", value = "1")
class QuotasHttpTest {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    ApiKeys apiKeys;

    @Inject
    GrpcEmbeddedServer grpcServer;

    @Inject
    MemoryTools tools;

    @Test
    void aKeyPastItsRateIsRefusedWithRetryAfterOnEveryTransportAndAnotherKeyIsNot() throws Exception {
        String flood = key("flood", "quota-a");
        String calm = key("calm", "quota-b");
        List<Integer> floodAnswers = new ArrayList<>();
        List<Integer> calmAnswers = new ArrayList<>();
        HttpResponse<?> refused = null;
        for (int i = 0; i < 15; i++) {
            HttpResponse<String> answer =
                    exchange(HttpRequest.GET("/v1/spaces/quota-a/memories").bearerAuth(flood));
            floodAnswers.add(answer.getStatus().getCode());
            if (answer.getStatus().getCode() == 429) {
                refused = answer;
            }
            calmAnswers.add(
                    exchange(HttpRequest.GET("/v1/spaces/quota-b/memories").bearerAuth(calm))
                            .getStatus()
                            .getCode());
        }
        assertThat(floodAnswers)
                .as("the burst of 3, then refusals")
                .startsWith(200, 200, 200)
                .containsOnly(200, 429)
                .filteredOn(s -> s == 429)
                .hasSize(12);
        assertThat(calmAnswers).containsOnly(200);
        assertThat(refused.getHeaders().get(HttpHeaders.RETRY_AFTER)).isEqualTo("100");
        assertThat(refused.getBody(String.class).orElseThrow())
                .contains("\"code\":\"RATE_LIMITED\"", "retry after 100 s");

        ManagedChannel channel = ManagedChannelBuilder.forAddress("localhost", grpcServer.getPort())
                .usePlaintext()
                .build();
        try {
            assertThatThrownBy(() -> grpc(channel, flood)
                            .listMemories(ListMemoriesRequest.newBuilder()
                                    .setSpace("quota-a")
                                    .build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                        assertThat(e.getStatus().getDescription()).contains("RATE_LIMITED");
                    });
            assertThat(grpc(channel, calm)
                            .listMemories(ListMemoriesRequest.newBuilder()
                                    .setSpace("quota-b")
                                    .build()))
                    .isNotNull();
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKeyPastItsDaysWritesMayStillReadAndNoTransportWritesForIt() {
        String diary = key("diary", "quota-c");
        HttpResponse<String> first =
                exchange(HttpRequest.POST("/v1/spaces/quota-c/memories", Map.of("content", "The user keeps a diary"))
                        .bearerAuth(diary));
        assertThat(first.getStatus().getCode()).as(first.body()).isEqualTo(201);
        HttpResponse<String> second =
                exchange(HttpRequest.POST("/v1/spaces/quota-c/memories", Map.of("content", "A second entry"))
                        .bearerAuth(diary));
        assertThat(second.getStatus().getCode()).isEqualTo(429);
        assertThat(second.getBody(String.class).orElseThrow()).contains("RATE_LIMITED", "its 1 writes of today");
        assertThat(Long.parseLong(second.getHeaders().get(HttpHeaders.RETRY_AFTER)))
                .isBetween(1L, 86_401L);
        assertThat(exchange(HttpRequest.GET("/v1/spaces/quota-c/memories").bearerAuth(diary))
                        .body())
                .contains("The user keeps a diary")
                .doesNotContain("A second entry");

        Principal caller = new Principal("diary", Role.AGENT, "diary", List.of("quota-c"));
        assertThatThrownBy(() -> tools.call("memory_commit", caller, Map.of("space", "quota-c", "content", "by MCP")))
                .isInstanceOfSatisfying(
                        QuotaExceededException.class, e -> assertThat(e.code()).isEqualTo("RATE_LIMITED"));
    }

    private String key(String name, String space) {
        return apiKeys.issue(new Principal(name, Role.AGENT, name, List.of(space)), "test")
                .key()
                .toString();
    }

    private HttpResponse<String> exchange(MutableHttpRequest<?> request) {
        try {
            return client.toBlocking().exchange(request, String.class);
        } catch (HttpClientResponseException e) {
            @SuppressWarnings("unchecked")
            HttpResponse<String> error = (HttpResponse<String>) e.getResponse();
            return error;
        }
    }

    private static MemoryServiceGrpc.MemoryServiceBlockingStub grpc(ManagedChannel channel, String key) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + key);
        return MemoryServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(30, TimeUnit.SECONDS);
    }
}
