package io.memorychain.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.contract.SharedKafkaApplication;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.examples.agent.JavaAgent;
import io.memorychain.generated.api.MemoriesApi;
import io.memorychain.generated.client.ApiClient;
import io.memorychain.generated.client.ApiException;
import io.memorychain.generated.model.CreateMemory;
import io.memorychain.generated.model.Memory;
import io.memorychain.generated.model.WriteResult;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients against the real service: one service (SharedKafkaApplication on the shared in-JVM broker) for the whole
 * class, an agent key and an admin key on every space, then each client's own test suite (its unit tests and its
 * integration tests, which the environment turns on) and the Python example, as subprocesses whose output goes to the
 * log, and the Java example (examples/java-agent) in-process. A client whose runtime is missing here is skipped with
 * the reason, never passed. A Java client openapi-generator writes from the service's OpenAPI document at build time
 * calls the same service, and so does memory-langgraph4j's checkpoint saver ({@link LangGraphCheckpoints}).
 */
@ExtendWith(SharedKafka.class)
class ClientsConformanceIT {

    private static final Logger LOG = LoggerFactory.getLogger(ClientsConformanceIT.class);
    private static final Duration STEP = Duration.ofMinutes(6);
    private static final Path ROOT = ClientSources.repoRoot();
    private static final Optional<String> PYTHON = pythonAtLeast311();
    private static final Optional<String> NODE = nodeAndNpm();

    private static EmbeddedServer server;
    private static Map<String, String> env;

    @BeforeAll
    static void startService() {
        server = SharedKafkaApplication.start(SharedKafka.uniquePrefix(), "clients-it");
        ApiKeys keys = server.getApplicationContext().getBean(ApiKeys.class);
        String agent = keys.issue(
                        new Principal("clients", Role.AGENT, "clients", List.of(Principal.ALL_SPACES)), "clients-it")
                .key()
                .toString();
        String admin = keys.issue(
                        new Principal("clients-admin", Role.ADMIN, "clients-admin", List.of(Principal.ALL_SPACES)),
                        "clients-it")
                .key()
                .toString();
        env = Map.of(
                "MEMORY_CHAIN_URL",
                "http://localhost:" + server.getPort(),
                "MEMORY_CHAIN_AGENT_KEY",
                agent,
                "MEMORY_CHAIN_ADMIN_KEY",
                admin);
    }

    @AfterAll
    static void stopService() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void pythonClientPassesItsUnitAndLiveTests() {
        assumeTrue(PYTHON.isPresent(), "python3 3.11 or newer not found on PATH: the Python client's tests cannot run");
        Subprocess.Result run = Subprocess.run(
                "python", ROOT.resolve("clients/python"), env, STEP, "python3", "-m", "unittest", "discover", "-v");
        assertThat(run.exitCode())
                .as("python3 -m unittest discover (output in the log)")
                .isZero();
        assertThat(run.output())
                .containsPattern("test_errors_of_the_real_service_are_typed \\(.*\\) \\.\\.\\. ok")
                .doesNotContain("skipped 'set MEMORY_CHAIN_URL");
        Matcher ran = Pattern.compile("Ran (\\d+) tests").matcher(run.output());
        assertThat(ran.find()).isTrue();
        assertThat(Integer.parseInt(ran.group(1))).isGreaterThan(30);
    }

    @Test
    void javaAgentExampleRecallsAcrossSessions() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        MemoryChainClient memory = MemoryChainClient.builder(
                        env.get("MEMORY_CHAIN_URL"), env.get("MEMORY_CHAIN_AGENT_KEY"))
                .build();
        int exit = JavaAgent.run(
                memory,
                "java-example-" + UUID.randomUUID().toString().substring(0, 8),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);
        LOG.info("examples/java-agent:\n{}", output);
        assertThat(exit).as("examples/java-agent (output in the log)").isZero();
        assertThat(output.lines()
                        .filter(l -> l.startsWith("agent: From memory:"))
                        .toList())
                .as("the second session answers from the facts the first stored, the best match first")
                .satisfiesExactly(
                        l -> assertThat(l).contains("Eva lives in Lisbon"),
                        l -> assertThat(l).contains("allergic to peanuts"));
        assertThat(output).contains("the second session recalled what the first was told");
    }

    @Test
    void pythonAgentExampleRecallsAcrossSessions() {
        assumeTrue(PYTHON.isPresent(), "python3 3.11 or newer not found on PATH: the Python example cannot run");
        Subprocess.Result run = Subprocess.run(
                "python-agent",
                ROOT.resolve("examples/python-agent"),
                env,
                STEP,
                "python3",
                "agent.py",
                "--space",
                "example-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(run.exitCode())
                .as("examples/python-agent/agent.py (output in the log)")
                .isZero();
        assertThat(run.output()).contains("From memory:").contains("Lisbon").contains("peanuts");
    }

    @Test
    void typescriptClientTypeChecksAndPassesItsUnitAndLiveTests() {
        assumeTrue(NODE.isPresent(), "node 20+ and npm not found on PATH: the TypeScript client's tests cannot run");
        Path dir = ROOT.resolve("clients/typescript");
        Subprocess.Result install = Subprocess.run("npm-ci", dir, env, STEP, "npm", "ci", "--no-audit", "--no-fund");
        assertThat(install.exitCode()).as("npm ci (output in the log)").isZero();
        Subprocess.Result types = Subprocess.run("tsc", dir, env, STEP, "npm", "run", "typecheck");
        assertThat(types.exitCode()).as("npm run typecheck (output in the log)").isZero();
        Subprocess.Result tests = Subprocess.run("vitest", dir, env, STEP, "npx", "vitest", "run");
        assertThat(tests.exitCode()).as("npx vitest run (output in the log)").isZero();
        assertThat(tests.output())
                .contains("integration.test.ts")
                .doesNotContain("integration tests skipped")
                .doesNotContainPattern("Tests .*skipped");
    }

    @Test
    void langGraph4jCheckpointsLiveOnTheService() throws Exception {
        LangGraphCheckpoints.run(
                MemoryChainClient.builder(env.get("MEMORY_CHAIN_URL"), env.get("MEMORY_CHAIN_AGENT_KEY"))
                        .build());
    }

    /**
     * A client openapi-generator (java, native) wrote from memory-api's OpenAPI document at build time: it creates a
     * memory and reads it back, the same Idempotency-Key answers the first outcome, and an error carries the Error
     * body.
     */
    @Test
    void generatedJavaClientCreatesAMemoryAndReadsItBack() throws ApiException {
        URI url = URI.create(env.get("MEMORY_CHAIN_URL"));
        ApiClient api = new ApiClient()
                .setScheme(url.getScheme())
                .setHost(url.getHost())
                .setPort(url.getPort())
                .setRequestInterceptor(r -> r.header("Authorization", "Bearer " + env.get("MEMORY_CHAIN_AGENT_KEY")));
        MemoriesApi memories = new MemoriesApi(api);
        String space = "generated-" + UUID.randomUUID().toString().substring(0, 8);

        String key = UUID.randomUUID().toString();
        WriteResult written = memories.createMemory(
                space,
                key,
                null,
                new CreateMemory()
                        .content("Generated clients can trust this spec")
                        .kind("semantic"));
        Memory read = memories.getMemory(space, written.getMemory().getId(), null, null);
        assertThat(read.getContent()).isEqualTo("Generated clients can trust this spec");
        assertThat(read.getVersion()).isEqualTo(written.getMemory().getVersion());

        WriteResult again = memories.createMemory(
                space,
                key,
                null,
                new CreateMemory()
                        .content("Generated clients can trust this spec")
                        .kind("semantic"));
        assertThat(again.getMemory().getId())
                .as("the same Idempotency-Key answers the first outcome")
                .isEqualTo(written.getMemory().getId());

        assertThatThrownBy(() -> memories.getMemory(space, "no-such-memory", null, null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getResponseBody()).contains("\"code\":\"NOT_FOUND\"");
                });
    }

    private static Optional<String> pythonAtLeast311() {
        return Subprocess.version("python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])")
                .filter(v -> v.matches("\\d+\\.\\d+"))
                .filter(v -> {
                    String[] parts = v.split("\\.");
                    int major = Integer.parseInt(parts[0]);
                    return major > 3 || (major == 3 && Integer.parseInt(parts[1]) >= 11);
                });
    }

    private static Optional<String> nodeAndNpm() {
        Optional<String> node = Subprocess.version("node", "--version")
                .filter(v -> v.matches("v\\d+\\..*") && Integer.parseInt(v.substring(1, v.indexOf('.'))) >= 20);
        return node.flatMap(n -> Subprocess.version("npm", "--version").map(npm -> n + " / npm " + npm));
    }
}
