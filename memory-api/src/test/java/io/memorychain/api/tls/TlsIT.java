package io.memorychain.api.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.routing.RoutingHeaders;
import io.memorychain.api.routing.SharedRegistryFactory;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.context.ApplicationContext;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS end to end with a CA the test makes: two instances on the shared broker, one serving a PEM identity with
 * client-auth want, the other a PKCS#12 identity with client-auth need (mutual TLS between instances); both trust the
 * CA (one from a PEM bundle, one from a PKCS#12 trust store). Shared by every test method.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TlsIT {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static final List<String> SPACES =
            List.of("tls-a", "tls-b", "tls-c", "tls-d", "tls-e", "tls-f", "tls-g", "tls-h");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static TestCa ca;
    private static EmbeddedServer pem;
    private static EmbeddedServer pkcs12;
    private static String key;
    private static JsonMapper json;

    @BeforeAll
    static void startTwoInstances() throws Exception {
        ca = new TestCa(dir, "ca");
        ca.issue("node-pem");
        ca.issue("node-p12");
        ca.issue("client");
        new TestCa(dir, "stranger-ca");
        Path pemData = dir.resolve("data-pem");
        pem = start(
                "tls-pem",
                pemData,
                Map.of(
                        "memory.tls.cert", dir.resolve("node-pem.crt").toString(),
                        "memory.tls.key", dir.resolve("node-pem.key").toString(),
                        "memory.tls.trust", dir.resolve("ca.crt").toString(),
                        "memory.tls.client-auth", "want"));
        Path p12Data = dir.resolve("data-p12");
        // one signing key and one content master key for both instances, as a deployment mounts them
        copy(
                pemData.resolve("keys").resolve("chain-signing.key"),
                p12Data.resolve("keys").resolve("chain-signing.key"));
        copy(
                pemData.resolve("keys").resolve(MasterKey.FILE_NAME),
                p12Data.resolve("keys").resolve(MasterKey.FILE_NAME));
        pkcs12 = start(
                "tls-p12",
                p12Data,
                Map.of(
                        "memory.tls.keystore",
                        dir.resolve("node-p12.p12").toString(),
                        "memory.tls.keystore-password",
                        new String(TestCa.PASSWORD),
                        "memory.tls.trust",
                        dir.resolve("ca.p12").toString(),
                        "memory.tls.trust-password",
                        new String(TestCa.PASSWORD),
                        "memory.tls.client-auth",
                        "need"));
        json = pem.getApplicationContext().getBean(JsonMapper.class);
        key = pem.getApplicationContext()
                .getBean(ApiKeys.class)
                .issue(new Principal("tls-test", Role.AGENT, "tls", List.of("*")), "test")
                .key()
                .toString();
        await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(() -> List.of(pem, pkcs12).stream()
                        .allMatch(server -> server.getApplicationContext()
                                        .getBean(ApiKeys.class)
                                        .authenticate("Bearer " + key)
                                != null));
    }

    private static EmbeddedServer start(String instanceId, Path dataDir, Map<String, Object> tls) {
        int port = freePort();
        Map<String, Object> properties = new HashMap<>(tls);
        properties.putAll(Map.ofEntries(
                Map.entry("memory.tls.enabled", true),
                Map.entry("micronaut.server.port", port),
                Map.entry("grpc.server.port", 0),
                Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                Map.entry("memory.kafka.partitions", 4),
                Map.entry("memory.kafka.replication-factor", 1),
                Map.entry("memory.topic-prefix", PREFIX),
                Map.entry("memory.data-dir", dataDir.toString()),
                Map.entry("memory.instance-id", instanceId),
                Map.entry("memory.instance.advertised-url", "https://localhost:" + port),
                Map.entry("memory.instance.standby-replicas", 0),
                Map.entry("memory.auth.bootstrap", false),
                Map.entry("memory.write-timeout", "10s"),
                Map.entry("memory.startup-timeout", "90s"),
                Map.entry("memory.retrieval.linker-enabled", false),
                Map.entry("memory.refinement.trigger-enabled", false),
                Map.entry("memory.embeddings.model", "minilm")));
        return ApplicationContext.run(EmbeddedServer.class, properties, SharedRegistryFactory.ENV);
    }

    @AfterAll
    static void stop() {
        for (EmbeddedServer server : new EmbeddedServer[] {pem, pkcs12}) {
            if (server != null && server.getApplicationContext().isRunning()) {
                server.getApplicationContext().close();
            }
        }
        SharedRegistryFactory.closeAll();
    }

    @Test
    void httpsWithTheCaTrustedIsAnsweredAndTheServerUrlIsHttps() throws Exception {
        assertThat(pem.getScheme()).isEqualTo("https");
        HttpResponse<String> health = client(false)
                .send(HttpRequest.newBuilder(url(pem, "/health")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).contains("UP");
    }

    @Test
    void aClientNotTrustingTheCaFailsTheHandshake() {
        HttpClient jdkDefaults =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> jdkDefaults.send(
                        HttpRequest.newBuilder(url(pem, "/health"))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void plaintextHttpToTheTlsPortGetsNoAnswerWithData() throws Exception {
        try (Socket socket = new Socket("localhost", pem.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] answer;
            try {
                answer = in.readAllBytes();
            } catch (IOException closed) {
                answer = new byte[0]; // reset by the TLS listener
            }
            String text = new String(answer, StandardCharsets.ISO_8859_1);
            assertThat(text).doesNotContain("HTTP/").doesNotContain("UP");
        }
    }

    @Test
    void clientAuthNeedServesAClientWithACertificateAndRefusesOneWithout() throws Exception {
        HttpResponse<String> health = client(true)
                .send(
                        HttpRequest.newBuilder(url(pkcs12, "/health")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThatThrownBy(() -> client(false)
                        .send(
                                HttpRequest.newBuilder(url(pkcs12, "/health"))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void grpcOverTlsWithTheCaIsAnsweredAndNeedRefusesAClientWithoutACertificate() throws Exception {
        String space = SPACES.get(0);
        String id = write(pem, space, "grpc over tls");
        // PEM instance, client-auth want: the CA is enough
        assertThat(getMemory(pem, grpcContext(false), space, id)).isEqualTo("grpc over tls");
        // PKCS#12 instance, client-auth need: a client certificate is required
        assertThat(getMemory(pkcs12, grpcContext(true), space, id)).isEqualTo("grpc over tls");
        assertThatThrownBy(() -> getMemory(pkcs12, grpcContext(false), space, id))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }

    @Test
    void writesAndReadsAreForwardedBetweenTheInstancesOverMutualTls() throws Exception {
        await().atMost(PATIENCE)
                .until(() -> SPACES.stream()
                                .anyMatch(s -> owner(pem, s) == SpaceOwner.Kind.REMOTE
                                        && owner(pkcs12, s) == SpaceOwner.Kind.LOCAL)
                        && SPACES.stream()
                                .anyMatch(s -> owner(pkcs12, s) == SpaceOwner.Kind.REMOTE
                                        && owner(pem, s) == SpaceOwner.Kind.LOCAL));
        for (EmbeddedServer via : List.of(pem, pkcs12)) {
            EmbeddedServer other = via == pem ? pkcs12 : pem;
            String space = SPACES.stream()
                    .filter(s -> owner(via, s) == SpaceOwner.Kind.REMOTE && owner(other, s) == SpaceOwner.Kind.LOCAL)
                    .findFirst()
                    .orElseThrow();
            String content = "forwarded over tls to " + space;
            String id = write(via, space, content);
            HttpResponse<String> read = send(via, "GET", space, "/memories/" + id, null);
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
            assertThat(read.body()).contains(content);
            assertThat(read.headers().firstValue(RoutingHeaders.SERVED_BY))
                    .contains(other == pem ? "tls-pem" : "tls-p12");
            // gRPC through the non-owner: relayed over a TLS channel presenting this instance's certificate
            assertThat(getMemory(via, grpcContext(true), space, id)).isEqualTo(content);
        }
    }

    @Test
    void aPeerWhoseCertificateIsNotTrustedIsRefusedAtOnce() throws Exception {
        TlsConfig config = new TlsConfig();
        config.setEnabled(true);
        config.setCert(dir.resolve("node-pem.crt"));
        config.setKey(dir.resolve("node-pem.key"));
        config.setTrust(dir.resolve("stranger-ca.crt"));
        HttpClient distrusting = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(new TlsContexts(config).httpClient().orElseThrow())
                .build();
        long start = System.nanoTime();
        assertThatThrownBy(() -> distrusting.send(
                        HttpRequest.newBuilder(url(pkcs12, "/health"))
                                .timeout(Duration.ofSeconds(20))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void badTlsConfigurationFailsStartUpNamingTheKeyAndTheFile() {
        Path missing = dir.resolve("missing.crt");
        assertThatThrownBy(() -> start(
                        "tls-bad",
                        dir.resolve("data-bad"),
                        Map.of(
                                "memory.tls.cert", missing.toString(),
                                "memory.tls.key", dir.resolve("node-pem.key").toString())))
                .satisfies(e -> assertThat(rootCause(e))
                        .isInstanceOf(TlsConfigException.class)
                        .hasMessage("memory.tls.cert: file not found: " + missing));
        assertThatThrownBy(() -> start(
                        "tls-bad",
                        dir.resolve("data-bad"),
                        Map.of(
                                "memory.tls.keystore",
                                dir.resolve("node-p12.p12").toString(),
                                "memory.tls.keystore-password",
                                "wrong")))
                .satisfies(e -> assertThat(rootCause(e))
                        .isInstanceOf(TlsConfigException.class)
                        .hasMessage("memory.tls.keystore: wrong password for " + dir.resolve("node-p12.p12")));
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static SpaceOwner.Kind owner(EmbeddedServer server, String space) {
        return server.getApplicationContext()
                .getBean(MemoryBackend.class)
                .ownerOf(space)
                .kind();
    }

    private String getMemory(EmbeddedServer server, SslContext context, String space, String id) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(
                        "localhost",
                        server.getApplicationContext()
                                .getBean(GrpcEmbeddedServer.class)
                                .getPort())
                .sslContext(context)
                .build();
        try {
            Metadata auth = new Metadata();
            auth.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + key);
            return MemoryServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(auth))
                    .withDeadlineAfter(30, TimeUnit.SECONDS)
                    .getMemory(GetMemoryRequest.newBuilder()
                            .setSpace(space)
                            .setId(id)
                            .build())
                    .getContent();
        } finally {
            channel.shutdownNow();
        }
    }

    private static SslContext grpcContext(boolean withClientCertificate) throws Exception {
        var builder =
                GrpcSslContexts.forClient().trustManager(dir.resolve("ca.crt").toFile());
        if (withClientCertificate) {
            builder.keyManager(
                    dir.resolve("client.crt").toFile(),
                    dir.resolve("client.key").toFile());
        }
        return builder.build();
    }

    /** Trusts the test CA; with a client certificate when asked. */
    private static HttpClient client(boolean withClientCertificate) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        KeyStore trustStore = KeyStore.getInstance("PKCS12");
        trustStore.load(null, null);
        trustStore.setCertificateEntry("ca", ca.certificate());
        trust.init(trustStore);
        KeyManagerFactory keys = null;
        if (withClientCertificate) {
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(dir.resolve("client.p12"))) {
                keyStore.load(in, TestCa.PASSWORD);
            }
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore, TestCa.PASSWORD);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(context)
                .build();
    }

    private String write(EmbeddedServer via, String space, String content) throws Exception {
        String idempotencyKey = UUID.randomUUID().toString();
        List<String> id = new ArrayList<>(1);
        await("a write to " + space)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    HttpResponse<String> created = send(
                            via,
                            "POST",
                            space,
                            "/memories",
                            json.writeValueAsString(Map.of("content", content)),
                            idempotencyKey);
                    if (created.statusCode() != 201) {
                        assertThat(created.statusCode()).as(created.body()).isEqualTo(503);
                        return false;
                    }
                    id.add((String) ((Map<?, ?>)
                                    json.readValue(created.body(), Map.class).get("memory"))
                            .get("id"));
                    return true;
                });
        return id.get(0);
    }

    private HttpResponse<String> send(
            EmbeddedServer server, String method, String space, String path, String body, String... idempotencyKey)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(url(server, "/v1/spaces/" + space + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (idempotencyKey.length > 0) {
            request.header("Idempotency-Key", idempotencyKey[0]);
        }
        return client(true).send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI url(EmbeddedServer server, String path) {
        return URI.create("https://localhost:" + server.getPort() + path);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to);
    }
}
