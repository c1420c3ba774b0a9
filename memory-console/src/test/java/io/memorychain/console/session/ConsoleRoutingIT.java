package io.memorychain.console.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.routing.OwnerGuard;
import io.memorychain.api.routing.RoutingHeaders;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances, each serving half of the spaces: a browser signed in on one reads and changes a space the other serves
 * through the one it reached, as it would through a load balancer that knows nothing of spaces.
 */
@ExtendWith(SharedKafka.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ConsoleRoutingIT {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private static EmbeddedServer reached;
    private static EmbeddedServer owner;
    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void startTwoInstances() throws IOException {
        Path first = Files.createTempDirectory("console-routing-a");
        Path second = Files.createTempDirectory("console-routing-b");
        reached = start("console-a", first);
        // one signing key and one content master key for both, as a deployment mounts them
        for (String file : List.of("chain-signing.key", MasterKey.FILE_NAME)) {
            Files.createDirectories(second.resolve("keys"));
            Files.copy(
                    first.resolve("keys").resolve(file), second.resolve("keys").resolve(file));
        }
        owner = start("console-b", second);
    }

    @AfterAll
    static void stop() {
        for (EmbeddedServer server : new EmbeddedServer[] {owner, reached}) {
            if (server != null && server.getApplicationContext().isRunning()) {
                server.getApplicationContext().close();
            }
        }
    }

    @Test
    void aBrowserOnOneInstanceReadsAndChangesASpaceTheOtherServes() throws Exception {
        String key = reached.getApplicationContext()
                .getBean(ApiKeys.class)
                .issue(new Principal("routed-user", Role.USER, "routed-user", List.of("*")), "test")
                .key()
                .toString();
        await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(() ->
                        owner.getApplicationContext().getBean(ApiKeys.class).authenticate("Bearer " + key) != null);
        String space = await().atMost(PATIENCE).until(this::aSpaceTheOtherInstanceServes, s -> s != null);
        String content = "routed " + UUID.randomUUID();
        HttpResponse<String> created = send(HttpRequest.newBuilder(uri(reached, "/v1/spaces/" + space + "/memories"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"" + content + "\",\"category\":\"fact\"}")));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = match(Pattern.compile("\"id\":\"([^\"]+)\""), created.body());
        String cookie = signIn(key);
        String page = "/console/s/" + space + "/memories/" + id;

        HttpResponse<String> read = send(get(page, cookie));
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(read.body()).contains(content);
        assertThat(read.headers().map().keySet())
                .noneMatch(h -> h.equalsIgnoreCase("set-cookie") || h.equalsIgnoreCase(ConsoleRouting.FLASH));

        HttpResponse<String> pinned = send(form(
                page + "/change",
                cookie,
                "action=pin&csrf=" + URLEncoder.encode(match(CSRF, read.body()), StandardCharsets.UTF_8)));
        assertThat(pinned.statusCode()).as(pinned.body()).isEqualTo(303);
        assertThat(pinned.headers().firstValue("Location")).hasValue(page);
        HttpResponse<String> after = send(get(page, cookie));
        assertThat(after.body()).contains("id=\"flash\">Pinned.</p>", "id=\"memory-flags\">pinned ·");
        assertThat(owner.getApplicationContext().getBean(OwnerGuard.class).ownerUrl(space))
                .as("the change was answered by the instance serving the space")
                .isEmpty();

        HttpResponse<String> spoofed = send(get(page, cookie).header(ConsoleRouting.FLASH, "error|spoofed notice"));
        assertThat(spoofed.body())
                .as("a browser's own flash header is not this session's message")
                .doesNotContain("spoofed notice");

        HttpResponse<String> forged = send(form(page + "/change", cookie, "action=unpin&csrf=forged"));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("CSRF_REJECTED");
    }

    @Test
    void aForwardedPageWithoutTheConsoleHeadersOrAnAcceptedKeyGoesToSignIn() throws Exception {
        HttpResponse<String> page = send(HttpRequest.newBuilder(uri(owner, "/console/s/anything/memories"))
                .header(RoutingHeaders.FORWARDED_BY, "console-a")
                .header("Authorization", "Bearer not-a-key")
                .header(ConsoleRouting.CSRF, "token")
                .GET());

        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue(SessionFilter.LOGIN);
    }

    /** A space the reached instance does not serve, once both instances have their share. */
    private String aSpaceTheOtherInstanceServes() {
        OwnerGuard here = reached.getApplicationContext().getBean(OwnerGuard.class);
        OwnerGuard there = owner.getApplicationContext().getBean(OwnerGuard.class);
        return IntStream.range(0, 50)
                .mapToObj(i -> "routed-" + i)
                .filter(s -> here.ownerUrl(s).isPresent() && there.ownerUrl(s).isEmpty() && served(there, s))
                .findFirst()
                .orElse(null);
    }

    private static boolean served(OwnerGuard guard, String space) {
        try {
            guard.requireServedHere(space);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private String signIn(String key) {
        HttpResponse<String> signedIn = send(HttpRequest.newBuilder(uri(reached, "/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("key=" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
        assertThat(signedIn.statusCode()).isEqualTo(303);
        return signedIn.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
    }

    private static HttpRequest.Builder get(String path, String cookie) {
        return HttpRequest.newBuilder(uri(reached, path))
                .header("Cookie", cookie)
                .GET();
    }

    private static HttpRequest.Builder form(String path, String cookie, String body) {
        return HttpRequest.newBuilder(uri(reached, path))
                .header("Cookie", cookie)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String match(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return m.group(1);
    }

    private static URI uri(EmbeddedServer server, String path) {
        return URI.create(server.getURL() + path);
    }

    private static EmbeddedServer start(String instanceId, Path dataDir) {
        int port = freePort();
        return ApplicationContext.run(
                EmbeddedServer.class,
                Map.ofEntries(
                        Map.entry("micronaut.server.port", port),
                        Map.entry("grpc.server.port", 0),
                        Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                        Map.entry("memory.kafka.partitions", 2),
                        Map.entry("memory.kafka.replication-factor", 1),
                        Map.entry("memory.embeddings.stream-threads", 1),
                        Map.entry("memory.topic-prefix", PREFIX),
                        Map.entry("memory.data-dir", dataDir.toString()),
                        Map.entry("memory.instance-id", instanceId),
                        Map.entry("memory.instance.advertised-url", "http://localhost:" + port),
                        Map.entry("memory.auth.bootstrap", false),
                        Map.entry("memory.write-timeout", "20s"),
                        Map.entry("memory.startup-timeout", "90s"),
                        Map.entry("memory.retrieval.linker-enabled", false),
                        Map.entry("memory.refinement.trigger-enabled", false),
                        Map.entry("memory.contradictions.detect", false)));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
