package io.memorychain.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.worker.DeployedCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/compose, checked without a Docker engine (docs/architecture.md §19): the topology the issue asks for (3
 * brokers with replication factor 3 and min ISR 2, a registry, 2 service instances, the workers), dependencies and
 * volumes that exist, distinct host ports, documented {@code MEMORY_*} settings, worker command lines memory-worker
 * accepts, and one shared signing key created before any instance starts. {@code ComposeTopologyIT} starts it for real
 * where a Docker engine exists.
 */
class ComposeTopologyTest {

    private static final Path COMPOSE = Path.of("compose/compose.yaml");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> compose() {
        return (Map<String, Object>) new Yaml().load(DocumentedSettings.read(COMPOSE));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services() {
        return (Map<String, Map<String, Object>>) compose().get("services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> service, String key) {
        Object value = service.get(key);
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(Map<String, Object> service, String key) {
        Object value = service.get(key);
        return value == null ? List.of() : (List<String>) value;
    }

    @Test
    void threeReplicatedBrokersARegistryTwoInstancesAndTheWorkers() {
        Map<String, Map<String, Object>> services = services();
        assertThat(services)
                .containsKeys(
                        "kafka-1",
                        "kafka-2",
                        "kafka-3",
                        "registry",
                        "keygen",
                        "memory-1",
                        "memory-2",
                        "tom",
                        "consolidate",
                        "reflect",
                        "lifecycle");
        for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
            Map<String, Object> env = map(services.get(broker), "environment");
            assertThat(env.get("KAFKA_DEFAULT_REPLICATION_FACTOR")).isEqualTo(3);
            assertThat(env.get("KAFKA_MIN_INSYNC_REPLICAS")).isEqualTo(2);
            assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")).isEqualTo(2);
            assertThat(String.valueOf(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS")))
                    .contains("1@kafka-1:9093", "2@kafka-2:9093", "3@kafka-3:9093");
            assertThat(String.valueOf(env.get("KAFKA_ADVERTISED_LISTENERS"))).contains(broker + ":9092");
        }
        for (String instance : List.of("memory-1", "memory-2")) {
            Map<String, Object> env = map(services.get(instance), "environment");
            assertThat(env.get("MEMORY_KAFKA_REPLICATION_FACTOR")).isEqualTo(3);
            assertThat(String.valueOf(env.get("MEMORY_REGISTRY_URL"))).startsWith("http://registry:8080/apis/ccompat/");
            assertThat(env.get("MEMORY_INSTANCE_ID")).isEqualTo(instance);
        }
    }

    @Test
    void dependenciesVolumesAndHostPortsAreConsistent() {
        Map<String, Map<String, Object>> services = services();
        @SuppressWarnings("unchecked")
        Set<String> volumes = ((Map<String, Object>) compose().get("volumes")).keySet();
        List<String> hostPorts = new ArrayList<>();
        services.forEach((name, service) -> {
            assertThat(services.keySet())
                    .as(name + " depends on")
                    .containsAll(map(service, "depends_on").keySet());
            for (String volume : list(service, "volumes")) {
                assertThat(volumes).as(name + " mounts").contains(volume.substring(0, volume.indexOf(':')));
            }
            list(service, "ports").forEach(p -> hostPorts.add(p.substring(0, p.indexOf(':'))));
            Object build = service.get("build");
            if (build != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> b = (Map<String, Object>) build;
                assertThat(COMPOSE.getParent()
                                .resolve(String.valueOf(b.get("context")))
                                .resolve(String.valueOf(b.get("dockerfile"))))
                        .as(name + " builds from")
                        .exists();
            }
        });
        assertThat(hostPorts).doesNotHaveDuplicates().isNotEmpty();
    }

    @Test
    void theInstancesShareOneSigningKeyCreatedBeforeThem() {
        Map<String, Map<String, Object>> services = services();
        assertThat(list(services.get("keygen"), "command"))
                .containsExactly("worker", "keygen", "--out", "/data/keys/chain-signing.key");
        assertThat(list(services.get("keygen"), "volumes")).containsExactly("keys:/data/keys");
        for (String instance : List.of("memory-1", "memory-2")) {
            assertThat(list(services.get(instance), "volumes")).contains("keys:/data/keys");
            @SuppressWarnings("unchecked")
            Map<String, Object> keygen = (Map<String, Object>)
                    map(services.get(instance), "depends_on").get("keygen");
            assertThat(keygen).containsEntry("condition", "service_completed_successfully");
        }
    }

    @Test
    void everySettingIsDocumentedAndEveryWorkerCommandIsAccepted() {
        Set<String> documented = DocumentedSettings.environmentNames();
        int workers = 0;
        for (Map.Entry<String, Map<String, Object>> e : services().entrySet()) {
            map(e.getValue(), "environment").keySet().stream()
                    .filter(n -> n.startsWith("MEMORY_"))
                    .forEach(n ->
                            assertThat(documented).as(e.getKey() + " sets " + n).contains(n));
            List<String> command = list(e.getValue(), "command");
            if (!command.isEmpty() && command.get(0).equals("worker")) {
                DeployedCommands.parse(command.subList(1, command.size()));
                workers++;
            }
        }
        assertThat(workers).as("keygen, tom, consolidate, reflect, lifecycle").isEqualTo(5);
    }

    @Test
    void theEntrypointRunsTheServiceOrAWorkerCommand() throws Exception {
        Path entrypoint = Path.of("docker/entrypoint.sh");
        assertThat(Files.isExecutable(entrypoint)).isTrue();
        Process p = new ProcessBuilder("sh", entrypoint.toString(), "nonsense")
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(2);
        assertThat(output).contains("usage: entrypoint.sh service [ARGS] | worker COMMAND [ARGS]");
    }
}
