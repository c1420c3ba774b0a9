package io.memorychain.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * deploy/compose started for real (docs/architecture.md §19): 3 brokers, the registry, the shared key, 2 service
 * instances and the workers. A memory written through one instance is read back, and the chain verifies. Needs a Docker
 * engine and the jars of a package build (the image is built from them); where no engine runs (as on the build machine
 * of this project), JUnit reports it as skipped, never as passed.
 */
@Tag("integration")
@Testcontainers(disabledWithoutDocker = true)
class ComposeTopologyIT {

    private static final Duration STARTUP = Duration.ofMinutes(6);

    @Container
    static final ComposeContainer COMPOSE = new ComposeContainer(new File("compose/compose.yaml"))
            .withLocalCompose(true)
            .withBuild(true)
            .withExposedService(
                    "memory-1", 8080, Wait.forHttp("/health").forStatusCode(200).withStartupTimeout(STARTUP))
            .withExposedService(
                    "memory-2", 8080, Wait.forHttp("/health").forStatusCode(200).withStartupTimeout(STARTUP));

    @Test
    void aMemoryWrittenThroughOneInstanceIsReadBackAndTheChainVerifies() throws Exception {
        ContainerState memory1 = COMPOSE.getContainerByServiceName("memory-1").orElseThrow();
        Map<String, String> keys = memory1.execInContainer("cat", "/data/keys/api-keys.env")
                .getStdout()
                .lines()
                .filter(l -> l.startsWith("export MEMORY_") || l.startsWith("MEMORY_"))
                .map(l -> l.replaceFirst("^export ", "").split("=", 2))
                .collect(Collectors.toMap(
                        kv -> kv[0], kv -> kv[1].replace("'", "").replace("\"", "")));
        String base = "http://" + COMPOSE.getServiceHost("memory-1", 8080) + ":"
                + COMPOSE.getServicePort("memory-1", 8080) + "/v1/spaces/assistant";
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> created = http.send(
                HttpRequest.newBuilder(URI.create(base + "/memories"))
                        .header("Authorization", "Bearer " + keys.get("MEMORY_AGENT_KEY"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"Ana prefers dark mode\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> listed = http.send(
                HttpRequest.newBuilder(URI.create(base + "/memories"))
                        .header("Authorization", "Bearer " + keys.get("MEMORY_AGENT_KEY"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(listed.body()).contains("Ana prefers dark mode");
        HttpResponse<String> verified = http.send(
                HttpRequest.newBuilder(URI.create(base + "/chain/verify"))
                        .header("Authorization", "Bearer " + keys.get("MEMORY_ADMIN_KEY"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(verified.body()).contains("\"ok\":true");
    }
}
