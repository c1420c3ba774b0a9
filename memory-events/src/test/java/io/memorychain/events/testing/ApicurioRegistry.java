package io.memorychain.events.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apicurio Registry 2.6 (its Confluent-compatible API) in a child process, from the distribution the build
 * unpacks into {@code target/apicurio} (system properties {@code apicurio.dir}, {@code apicurio.version}), reached
 * through a TCP relay so that a test can cut the registry off ({@link #outage()}: the port refuses connections and open
 * connections are dropped, as when the registry is stopped) and bring it back ({@link #recover()}) with its schemas and
 * ids intact (the registry keeps them in memory, so stopping the process would lose them).
 */
public final class ApicurioRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApicurioRegistry.class);
    private static final Duration STARTUP = Duration.ofSeconds(90);
    /** The path of the registry's Confluent-compatible API. */
    public static final String API = "/apis/ccompat/v7";

    private final Process process;
    private final Thread killOnExit;
    private final int upstreamPort;
    private final Relay relay;

    private ApicurioRegistry(Process process, Thread killOnExit, int upstreamPort) throws IOException {
        this.process = process;
        this.killOnExit = killOnExit;
        this.upstreamPort = upstreamPort;
        this.relay = new Relay(upstreamPort);
    }

    /**
     * The registry's runnable jar in the distribution the build unpacked ({@code apicurio.dir}, by default the module's
     * {@code target/apicurio}); IllegalStateException when the build has not unpacked it.
     */
    public static Path runnerJar() {
        Path runner = Path.of(System.getProperty("apicurio.dir", "target/apicurio"))
                .toAbsolutePath()
                .resolve("apicurio-registry-app-" + System.getProperty("apicurio.version", "2.6.13.Final")
                        + "-runner.jar");
        if (!Files.exists(runner)) {
            throw new IllegalStateException("Apicurio runner not unpacked by the build (mvn verify): " + runner);
        }
        return runner;
    }

    /** Starts the registry and waits until its API answers. */
    public static ApicurioRegistry start() throws IOException {
        Path runner = runnerJar();
        Path dir = runner.getParent();
        int port = freePort();
        Path log = Files.createTempFile(dir.getParent(), "apicurio-", ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(
                        java.toString(),
                        "-Xmx384m",
                        "-Dquarkus.http.host=127.0.0.1",
                        "-Dquarkus.http.port=" + port,
                        "-jar",
                        runner.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        // if the test JVM is stopped before close(), do not leave the registry running
        Thread killOnExit = new Thread(process::destroyForcibly, "stop-apicurio");
        Runtime.getRuntime().addShutdownHook(killOnExit);
        LOG.info("Started Apicurio Registry (pid {}) on port {}, output in {}", process.pid(), port, log);
        ApicurioRegistry registry = new ApicurioRegistry(process, killOnExit, port);
        try {
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();
            HttpRequest subjects = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + API + "/subjects"))
                    .timeout(Duration.ofSeconds(5))
                    .GET()
                    .build();
            await("Apicurio answering on port " + port)
                    .atMost(STARTUP)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(
                                    "Apicurio exited with " + process.exitValue() + ": " + Files.readString(log));
                        }
                        return http.send(subjects, HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200;
                    });
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
        return registry;
    }

    /** The Confluent-compatible API root, through the relay (what clients use). */
    public String url() {
        return "http://127.0.0.1:" + relay.port + API;
    }

    /** The API root on the registry's own port, bypassing the relay (unaffected by {@link #outage()}). */
    public String directUrl() {
        return "http://127.0.0.1:" + upstreamPort + API;
    }

    /** Cuts the registry off: new connections to {@link #url()} are refused and open ones are dropped. */
    public void outage() {
        relay.stop();
        LOG.info("Schema registry outage: port {} refuses connections", relay.port);
    }

    /** Ends the outage: {@link #url()} reaches the registry again, with every schema and id it had. */
    public void recover() {
        relay.start();
        LOG.info("Schema registry back on port {}", relay.port);
    }

    @Override
    public void close() {
        relay.stop();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A TCP relay from a fixed local port to the registry's port that can be switched off and on. */
    private static final class Relay {

        private final int upstreamPort;
        private final int port;
        private final Set<Socket> open = ConcurrentHashMap.newKeySet();
        private volatile ServerSocket server;

        Relay(int upstreamPort) throws IOException {
            this.upstreamPort = upstreamPort;
            this.port = freePort();
            start();
        }

        synchronized void start() {
            if (server != null) {
                return;
            }
            try {
                ServerSocket s = new ServerSocket();
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                server = s;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot listen on port " + port, e);
            }
            ServerSocket listening = server;
            Thread acceptor = new Thread(() -> accept(listening), "registry-relay-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        }

        synchronized void stop() {
            if (server == null) {
                return;
            }
            closeQuietly(server);
            server = null;
            open.forEach(Relay::closeQuietly);
            open.clear();
        }

        private void accept(ServerSocket listening) {
            while (!listening.isClosed()) {
                try {
                    Socket client = listening.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                    open.add(client);
                    open.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    if (!listening.isClosed()) {
                        LOG.warn("Registry relay on port {}: {}", port, e.toString());
                    }
                }
            }
        }

        private void pump(Socket from, Socket to) {
            Thread t = new Thread(
                    () -> {
                        byte[] buffer = new byte[16 * 1024];
                        try (InputStream in = from.getInputStream();
                                OutputStream out = to.getOutputStream()) {
                            int n;
                            while ((n = in.read(buffer)) >= 0) {
                                out.write(buffer, 0, n);
                                out.flush();
                            }
                        } catch (IOException e) {
                            // a side closed: close both
                        } finally {
                            closeQuietly(from);
                            closeQuietly(to);
                            open.remove(from);
                            open.remove(to);
                        }
                    },
                    "registry-relay-pump");
            t.setDaemon(true);
            t.start();
        }

        private static void closeQuietly(AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // already closed
            }
        }
    }
}
