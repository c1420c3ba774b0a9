package io.memorychain.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client against a scripted HTTP server: error mapping, retries, Idempotency-Key reuse, paging. */
class ClientBehaviourTest {

    private HttpServer server;
    private final List<String> keysSeen = new CopyOnWriteArrayList<>();
    private final List<String> pathsSeen = new CopyOnWriteArrayList<>();

    private MemoryChainClient serve(Function<HttpExchange, Answer> script) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            keysSeen.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            pathsSeen.add(exchange.getRequestURI().toString());
            Answer a = script.apply(exchange);
            a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(a.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return MemoryChainClient.builder(
                        "http://127.0.0.1:" + server.getAddress().getPort(), "k")
                .retry(new RetryPolicy(3, Duration.ofMillis(10), Duration.ofSeconds(2)))
                .build();
    }

    record Answer(int status, String body, Map<String, String> headers) {}

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "INVALID_ARGUMENT, 400, InvalidArgument",
        "UNKNOWN_BLOCK_LABEL, 400, UnknownBlockLabel",
        "INVALID_PATH, 400, InvalidPath",
        "INVALID_FILTER, 400, InvalidFilter",
        "INVALID_CONFIRMATION, 400, InvalidConfirmation",
        "UNAUTHENTICATED, 401, Unauthenticated",
        "FORBIDDEN, 403, Forbidden",
        "SPACE_NOT_ALLOWED, 403, SpaceNotAllowed",
        "ROLE_NOT_ALLOWED, 403, RoleNotAllowed",
        "CONSTITUTIONAL, 403, Constitutional",
        "NOT_IN_REFINEMENT, 403, NotInRefinement",
        "CATEGORY_NOT_ALLOWED, 403, CategoryNotAllowed",
        "GRANT_REQUIRED, 403, GrantRequired",
        "CONFIRMATION_NOT_YOURS, 403, ConfirmationNotYours",
        "NOT_FOUND, 404, NotFound",
        "METHOD_NOT_ALLOWED, 405, MethodNotAllowed",
        "NOT_ACCEPTABLE, 406, NotAcceptable",
        "VERSION_CONFLICT, 409, VersionConflict",
        "INVALID_STATE, 409, InvalidState",
        "HELD_FOR_CONSENT, 409, HeldForConsent",
        "ALREADY_LINKED, 409, AlreadyLinked",
        "ALREADY_RESOLVED, 409, AlreadyResolved",
        "BUDGET_EXCEEDED, 409, BudgetExceeded",
        "EXPIRED, 409, Expired",
        "PATCH_CONFLICT, 409, PatchConflict",
        "CHAIN_BROKEN, 409, ChainBroken",
        "TOO_LARGE, 413, TooLarge",
        "UNSUPPORTED_MEDIA_TYPE, 415, UnsupportedMediaType",
        "NOT_OWNER, 421, NotOwner",
        "REJECTED, 422, Rejected",
        "INTERNAL, 500, Internal",
        "NOT_AVAILABLE, 501, NotAvailable",
        "TIMEOUT, 503, Timeout",
        "UNAVAILABLE, 503, Unavailable",
        "REBALANCING, 503, Rebalancing",
        "SOMETHING_NEWER, 422, Unknown"
    })
    void turnsEachErrorAnswerIntoTheExceptionOfItsCode(String code, int status, String type) throws IOException {
        MemoryChainClient client = serve(x -> new Answer(
                status,
                "{\"code\":\"" + code + "\",\"message\":\"what went wrong\",\"request_id\":\"r-42\"}",
                Map.of()));
        assertThatThrownBy(() -> client.createMemory("s", "text"))
                .isInstanceOf(MemoryChainException.class)
                .satisfies(e -> {
                    MemoryChainException m = (MemoryChainException) e;
                    assertThat(m.getClass().getSimpleName()).isEqualTo(type);
                    assertThat(m.code()).isEqualTo(code);
                    assertThat(m.detail()).isEqualTo("what went wrong");
                    assertThat(m.requestId()).isEqualTo("r-42");
                    assertThat(m.status()).isEqualTo(status);
                });
    }

    @Test
    void retriesA503WithTheSameIdempotencyKeyAndHonoursRetryAfter() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        MemoryChainClient client = serve(x -> calls.incrementAndGet() == 1
                ? new Answer(503, "{\"code\":\"REBALANCING\",\"message\":\"moving\"}", Map.of("Retry-After", "1"))
                : new Answer(201, "{\"memory\":{\"id\":\"m1\"},\"seq\":7}", Map.of()));
        long start = System.nanoTime();
        JsonNode written = client.createMemory("s", "text");
        assertThat(written.path("memory").path("id").asText()).isEqualTo("m1");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("waited the Retry-After")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(keysSeen).hasSize(2).doesNotContainNull();
        assertThat(keysSeen.get(1)).as("the retry reuses the write's key").isEqualTo(keysSeen.get(0));
    }

    @Test
    void givesUpAfterTheLastAttemptWithTheTypedError() throws IOException {
        MemoryChainClient client = serve(x -> new Answer(503, "{\"code\":\"TIMEOUT\",\"message\":\"slow\"}", Map.of()));
        assertThatThrownBy(() -> client.createMemory("s", "text")).isInstanceOf(MemoryChainException.Timeout.class);
        assertThat(keysSeen).hasSize(3).containsOnly(keysSeen.get(0));
    }

    @Test
    void eachLogicalWriteHasItsOwnKeyAndAGivenKeyIsSent() throws IOException {
        MemoryChainClient client = serve(x -> new Answer(201, "{\"memory\":{\"id\":\"m\"}}", Map.of()));
        client.createMemory("s", "one");
        client.createMemory("s", "two");
        client.createMemory("s", Map.of("content", "three"), Write.idempotencyKey("mine-1"));
        assertThat(keysSeen.get(0)).isNotEqualTo(keysSeen.get(1));
        assertThat(keysSeen.get(2)).isEqualTo("mine-1");
    }

    @Test
    void readsEveryPageFollowingTheCursor() throws IOException {
        MemoryChainClient client = serve(x -> x.getRequestURI().getQuery() == null
                        || !x.getRequestURI().getQuery().contains("after=")
                ? new Answer(200, "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"next\":\"b\"}", Map.of())
                : new Answer(200, "{\"items\":[{\"id\":\"c\"}],\"next\":null}", Map.of()));
        List<String> ids = new java.util.ArrayList<>();
        Pages.memories(client, "s", Map.of("limit", 2))
                .forEach(m -> ids.add(m.path("id").asText()));
        assertThat(ids).containsExactly("a", "b", "c");
        assertThat(pathsSeen.get(1)).contains("after=b").contains("limit=2");
    }
}
