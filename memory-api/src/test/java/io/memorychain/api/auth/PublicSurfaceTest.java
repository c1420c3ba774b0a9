package io.memorychain.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.memorychain.api.contract.RawBytes;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nothing is served without a key except what docs/architecture.md §13 lists ("Served without a key"): every HTTP route
 * and every gRPC method is called without credentials, and each must refuse with UNAUTHENTICATED unless it is on that
 * list. A route or method added later is checked without anyone remembering to.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "grpc.server.port", value = "0")
@Property(name = "memory.auth.bootstrap", value = "false")
class PublicSurfaceTest {

    /** The documented public HTTP surface (GET, and HEAD for the same routes). */
    private static final Set<String> PUBLIC =
            Set.of("/health", "/health/{selector}", "/instance", "/v1/tools", "/v1/chain/keys");

    @Inject
    Router router;

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    GrpcEmbeddedServer grpcServer;

    @Inject
    ApiKeys apiKeys;

    @Test
    void everyHttpRouteOutsideTheDocumentedListRefusesACallWithoutAKey() {
        Map<String, Integer> answers = new TreeMap<>();
        for (UriRouteInfo<?, ?> route : router.uriRoutes().toList()) {
            HttpMethod method = route.getHttpMethod();
            String template = route.getUriMatchTemplate().toString();
            if (method == HttpMethod.OPTIONS || isPublic(method, template)) {
                continue;
            }
            String path = template.replace("{space}", "acme.main")
                    .replace("{+path}", "facts/a.md")
                    .replaceAll("\\{[^}]+}", "m0000001abcd");
            answers.put(method + " " + template, statusOf(HttpRequest.create(method, path)));
        }
        assertThat(answers).as("routes checked").hasSizeGreaterThan(70);
        assertThat(answers)
                .as("status of each route called without a key")
                .allSatisfy((route, status) -> assertThat(status).as(route).isEqualTo(401));
    }

    @Test
    void theMetricsScrapeTakesAnAdminOrWorkerKeyAndTheDocumentedRoutesAnswerWithout() {
        assertThat(statusOf(HttpRequest.GET("/prometheus"))).isEqualTo(401);
        assertThat(statusOf(HttpRequest.GET("/prometheus").bearerAuth(key(Role.AGENT))))
                .isEqualTo(403);
        assertThat(statusOf(HttpRequest.GET("/prometheus").bearerAuth(key(Role.WORKER))))
                .isEqualTo(200);
        assertThat(statusOf(HttpRequest.GET("/prometheus").bearerAuth(key(Role.ADMIN))))
                .isEqualTo(200);
        for (String path :
                Set.of("/health", "/instance", "/v1/tools", "/v1/chain/keys", "/swagger/memory-chain-v1.yml")) {
            assertThat(statusOf(HttpRequest.GET(path))).as(path).isEqualTo(200);
        }
    }

    @Test
    void everyGrpcMethodRefusesACallWithoutAKey() throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("localhost", grpcServer.getPort())
                .usePlaintext()
                .build();
        try {
            Map<String, Status.Code> answers = new TreeMap<>();
            for (MethodDescriptor<?, ?> method :
                    MemoryServiceGrpc.getServiceDescriptor().getMethods()) {
                answers.put(
                        method.getBareMethodName(),
                        callWithoutKey(channel, method)
                                .get(30, TimeUnit.SECONDS)
                                .getCode());
            }
            assertThat(answers)
                    .hasSizeGreaterThan(70)
                    .allSatisfy((method, code) -> assertThat(code).as(method).isEqualTo(Status.Code.UNAUTHENTICATED));
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static boolean isPublic(HttpMethod method, String template) {
        return (method == HttpMethod.GET || method == HttpMethod.HEAD) && PUBLIC.contains(template);
    }

    private String key(Role role) {
        String name = role.name().toLowerCase(java.util.Locale.ROOT);
        return apiKeys.issue(new Principal(name + "-surface", role, "surface", java.util.List.of("*")), "test")
                .key()
                .toString();
    }

    private int statusOf(MutableHttpRequest<?> request) {
        try {
            HttpResponse<String> response = client.toBlocking().exchange(request, String.class);
            return response.getStatus().getCode();
        } catch (HttpClientResponseException e) {
            return e.getStatus().getCode();
        }
    }

    /** One call of {@code method} with an empty request message and no metadata: the status it closes with. */
    private static CompletableFuture<Status> callWithoutKey(ManagedChannel channel, MethodDescriptor<?, ?> method) {
        MethodDescriptor<byte[], byte[]> raw =
                method.toBuilder(RawBytes.MARSHALLER, RawBytes.MARSHALLER).build();
        ClientCall<byte[], byte[]> call = channel.newCall(raw, CallOptions.DEFAULT);
        CompletableFuture<Status> closed = new CompletableFuture<>();
        call.start(
                new ClientCall.Listener<>() {
                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        closed.complete(status);
                    }
                },
                new Metadata());
        call.request(1);
        call.sendMessage(new byte[0]);
        call.halfClose();
        return closed;
    }
}
