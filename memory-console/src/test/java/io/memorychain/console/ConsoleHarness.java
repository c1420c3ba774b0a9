package io.memorychain.console;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The whole service (API and console on one HTTP port, real backend on the shared in-JVM broker), started once per test
 * JVM and shared by every console integration test; each test works in spaces of its own. Use with
 * {@code @ExtendWith({SharedKafka.class, ConsoleHarness.class})}.
 */
public final class ConsoleHarness implements BeforeAllCallback {

    private static EmbeddedServer server;

    /**
     * Registers the service in JUnit's root store after the shared broker, so that it is closed before the broker is
     * (the root store closes in reverse order).
     */
    @Override
    public void beforeAll(ExtensionContext context) {
        EmbeddedServer started = server();
        context.getRoot()
                .getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(ConsoleHarness.class.getName(), k ->
                        (AutoCloseable) () -> started.getApplicationContext().close());
    }

    /** The running service; the first call starts it (needs {@code @ExtendWith(SharedKafka.class)}). */
    public static synchronized EmbeddedServer server() {
        if (server == null) {
            String prefix = SharedKafka.uniquePrefix();
            Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "console-it-" + UUID.randomUUID());
            server = ApplicationContext.run(
                    EmbeddedServer.class,
                    Map.ofEntries(
                            Map.entry("micronaut.server.port", -1),
                            Map.entry("grpc.server.port", 0),
                            Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                            Map.entry("memory.kafka.partitions", 3),
                            Map.entry("memory.embeddings.stream-threads", 1),
                            Map.entry("memory.kafka.replication-factor", 1),
                            Map.entry("memory.topic-prefix", prefix),
                            Map.entry("memory.data-dir", dataDir.toString()),
                            Map.entry("memory.write-timeout", "30s"),
                            Map.entry("memory.startup-timeout", "90s"),
                            Map.entry("memory.retrieval.linker-enabled", false),
                            Map.entry("memory.refinement.trigger-enabled", false),
                            // contradiction detection would add FlagContradiction requests of its own to the spaces the
                            // tests read
                            Map.entry("memory.contradictions.detect", false)));
        }
        return server;
    }

    public static String url() {
        return server().getURL().toString();
    }

    public static <T> T bean(Class<T> type) {
        return server().getApplicationContext().getBean(type);
    }

    /** A new key with its secret, for a principal of this role on these spaces. */
    public static String issue(String id, Role role, List<String> spaces) {
        return bean(ApiKeys.class)
                .issue(new Principal(id, role, id, spaces), "console-it")
                .key()
                .toString();
    }

    /** A space name of its own for one test. */
    public static String space(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
