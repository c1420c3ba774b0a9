package io.memorychain.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.memorychain.events.testing.SharedKafka;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java client against the real service (its application on the shared in-JVM broker), one service for the class.
 */
@ExtendWith(SharedKafka.class)
class MemoryChainClientIT {

    static TestService service;
    static MemoryChainClient agent;

    @BeforeAll
    static void start() {
        service = TestService.start("memory-client-it");
        agent = service.client(service.agentKey());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void createsReadsAndChangesAMemoryWithItsVersion() {
        JsonNode written = agent.createMemory(
                "client-crud", Map.of("content", "The user prefers tea", "kind", "semantic"), Write.DEFAULT);
        String id = written.path("memory").path("id").asText();
        MemoryChainClient.Versioned read = agent.getMemoryVersioned("client-crud", id);
        assertThat(read.body().path("content").asText()).isEqualTo("The user prefers tea");
        JsonNode updated = agent.updateMemory(
                "client-crud", id, Map.of("content", "The user prefers green tea"), Write.ifMatch(read.etag()));
        assertThat(updated.path("memory").path("version").asInt())
                .isEqualTo(read.body().path("version").asInt() + 1);
        assertThatThrownBy(() ->
                        agent.updateMemory("client-crud", id, Map.of("content", "stale"), Write.ifMatch(read.etag())))
                .isInstanceOfSatisfying(MemoryChainException.VersionConflict.class, e -> {
                    assertThat(e.code()).isEqualTo("VERSION_CONFLICT");
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.detail()).isNotBlank();
                    assertThat(e.requestId()).isNotBlank();
                });
    }

    @Test
    void aRetryAfterADroppedAnswerGivesOneMemoryNotTwo() throws IOException {
        AtomicBoolean dropped = new AtomicBoolean();
        List<String> keys = new CopyOnWriteArrayList<>();
        HttpClient forward = HttpClient.newHttpClient();
        HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        proxy.createContext("/", exchange -> {
            try {
                HttpRequest.Builder out = HttpRequest.newBuilder(URI.create(service.url() + exchange.getRequestURI()))
                        .method(
                                exchange.getRequestMethod(),
                                HttpRequest.BodyPublishers.ofByteArray(
                                        exchange.getRequestBody().readAllBytes()));
                for (String h : List.of("Authorization", "Content-Type", "Idempotency-Key", "If-Match")) {
                    String v = exchange.getRequestHeaders().getFirst(h);
                    if (v != null) {
                        out.header(h, v);
                    }
                }
                keys.add(String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
                HttpResponse<byte[]> answer = forward.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
                if (exchange.getRequestMethod().equals("POST") && dropped.compareAndSet(false, true)) {
                    exchange.close(); // the service applied the write; its answer never reaches the client
                    return;
                }
                answer.headers()
                        .firstValue("Content-Type")
                        .ifPresent(v -> exchange.getResponseHeaders().add("Content-Type", v));
                exchange.sendResponseHeaders(
                        answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
                exchange.getResponseBody().write(answer.body());
                exchange.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        proxy.start();
        try {
            MemoryChainClient viaProxy = MemoryChainClient.builder(
                            "http://127.0.0.1:" + proxy.getAddress().getPort(), service.agentKey())
                    .retry(new RetryPolicy(3, Duration.ofMillis(50), Duration.ofSeconds(1)))
                    .build();
            JsonNode written = viaProxy.createMemory("client-retry", "Written once, answered on the retry");
            assertThat(dropped).isTrue();
            assertThat(keys).hasSize(2).containsOnly(keys.get(0));
            List<JsonNode> all = new ArrayList<>();
            Pages.memories(agent, "client-retry", Map.of()).forEach(all::add);
            assertThat(all).hasSize(1);
            assertThat(all.get(0).path("id").asText())
                    .isEqualTo(written.path("memory").path("id").asText());
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void pagesThroughEveryMemoryAndTheAuditLog() {
        for (int i = 0; i < 5; i++) {
            agent.createMemory("client-pages", "Fact number " + i);
        }
        List<String> contents = new ArrayList<>();
        Pages.memories(agent, "client-pages", Map.of("limit", 2))
                .forEach(m -> contents.add(m.path("content").asText()));
        assertThat(contents).hasSize(5).contains("Fact number 0", "Fact number 4");
        List<JsonNode> audit = new ArrayList<>();
        Pages.audit(agent, "client-pages", Map.of("limit", 2)).forEach(audit::add);
        assertThat(audit).hasSizeGreaterThanOrEqualTo(5);
    }

    @Test
    void watchesASpacesChangesInOrderFromTheBacklogOnAndStopsWhenClosed() throws InterruptedException {
        List<JsonNode> seen = new CopyOnWriteArrayList<>();
        agent.createMemory("client-watch", "first");
        ChangeWatch watch = agent.watchChanges("client-watch", 0, seen::add);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 1);
            agent.createMemory("client-watch", "second");
            agent.createMemory("client-watch", "third");
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 3);
            assertThat(seen).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L, 3L);
            assertThat(seen).extracting(e -> e.path("event_type").asText()).containsOnly("MemoryCreated");
            assertThat(watch.lastSeq()).isEqualTo(3);
        } finally {
            watch.close();
        }
        assertThat(watch.awaitEnd(Duration.ofSeconds(5))).isTrue();
        assertThat(watch.isRunning()).isFalse();
        assertThat(watch.failure()).isEmpty();
        assertThat(watch.connections()).isEqualTo(1);
    }

    @Test
    void aWatchWhoseConnectionIsCutResumesWithoutAGapOrADuplicate() throws IOException {
        String space = "client-watch-cut";
        for (String text : List.of("one", "two", "three")) {
            agent.createMemory(space, text);
        }
        List<JsonNode> seen = new CopyOnWriteArrayList<>();
        // the first connection is cut inside the event of seq 2 (after its id line, before its data)
        try (CuttingProxy proxy = new CuttingProxy(service.server.getPort(), Pattern.compile("id: ?2\\r?\\n"));
                ChangeWatch watch = MemoryChainClient.builder(proxy.url(), service.agentKey())
                        .build()
                        .watchChanges(space, 0, seen::add)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() >= 3);
            agent.createMemory(space, "four");
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() >= 4);
            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(watch.connections()).isEqualTo(2);
            assertThat(seen).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L, 3L, 4L);
            assertThat(watch.failure()).isEmpty();
        }
    }

    @Test
    void errorAnswersOfTheServiceSurfaceAsTheirTypedExceptions() {
        expect(
                () -> agent.createMemory("client-errors", Map.of("content", " "), Write.DEFAULT),
                MemoryChainException.InvalidArgument.class,
                "INVALID_ARGUMENT");
        expect(
                () -> agent.getMemory("client-errors", "no-such-id", Map.of()),
                MemoryChainException.NotFound.class,
                "NOT_FOUND");
        expect(
                () -> service.client("not-a-key").listMemories("client-errors", Map.of()),
                MemoryChainException.Unauthenticated.class,
                "UNAUTHENTICATED");
        expect(() -> agent.listKeys(Map.of()), MemoryChainException.RoleNotAllowed.class, "ROLE_NOT_ALLOWED");
        expect(
                () -> agent.createMemory("client-errors", Map.of("content", "x".repeat(40_000)), Write.DEFAULT),
                MemoryChainException.TooLarge.class,
                "TOO_LARGE");
        expect(
                () -> agent.putBlock("client-errors", "no_such_label", Map.of("content", "x"), Write.DEFAULT),
                MemoryChainException.UnknownBlockLabel.class,
                "UNKNOWN_BLOCK_LABEL");
        expect(
                () -> agent.query(
                        "client-errors", Map.of("query", "tea", "filters", Map.of("colour", "red")), Write.DEFAULT),
                MemoryChainException.InvalidFilter.class,
                "INVALID_FILTER");
    }

    private static void expect(Runnable call, Class<? extends MemoryChainException> type, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(type, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.detail()).isNotBlank();
            assertThat(e.status()).isBetween(400, 599);
        });
    }
}
