package io.memorychain.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.memorychain.worker.DeployedCommands;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s cannot be applied here (no cluster), so the build checks it (docs/architecture.md §19): every document
 * reads into the Kubernetes object model of fabric8 with no field the model does not know (a misspelt or misplaced key
 * fails), workloads select their own pods and services a workload, probes and services name declared container ports,
 * every {@code MEMORY_*} setting is a documented configuration key, every worker command line is accepted by
 * memory-worker's own parser, and the service mounts the shared signing key where it reads it.
 */
class KubernetesManifestsTest {

    private static final Path K8S = Path.of("k8s");
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "Namespace",
            Namespace.class,
            "ConfigMap",
            ConfigMap.class,
            "Service",
            Service.class,
            "StatefulSet",
            StatefulSet.class);
    private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Z0-9_]+)\\)");

    private static final List<HasMetadata> resources = new ArrayList<>();
    private static final List<String> unknownFields = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (Stream<Path> files = Files.list(K8S)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : yaml.readValues(yaml.getFactory().createParser(file.toFile()), JsonNode.class)
                        .readAll()) {
                    String kind = doc.path("kind").asText();
                    assertThat(KINDS).as("%s: a kind this check knows", file).containsKey(kind);
                    HasMetadata resource = yaml.treeToValue(doc, KINDS.get(kind));
                    resources.add(resource);
                    collectUnknown(
                            resource,
                            file.getFileName() + ":" + kind + "/"
                                    + resource.getMetadata().getName(),
                            unknownFields);
                }
            }
        }
    }

    @Test
    void everyDocumentReadsIntoTheKubernetesModelWithNoUnknownField() {
        assertThat(resources)
                .extracting(r -> r.getKind() + "/" + r.getMetadata().getName())
                .contains(
                        "Namespace/memory-chain",
                        "ConfigMap/memory-chain",
                        "Service/memory-api",
                        "StatefulSet/memory-api",
                        "StatefulSet/tom",
                        "StatefulSet/consolidate",
                        "StatefulSet/reflect",
                        "StatefulSet/lifecycle");
        assertThat(unknownFields)
                .as("fields the Kubernetes model does not know")
                .isEmpty();
        assertThat(resources)
                .filteredOn(r -> !(r instanceof Namespace))
                .allSatisfy(r -> assertThat(r.getMetadata().getNamespace()).isEqualTo("memory-chain"));
    }

    @Test
    void workloadsSelectTheirOwnPodsAndServicesSelectAWorkload() {
        List<StatefulSet> sets = of(StatefulSet.class);
        for (StatefulSet set : sets) {
            assertThat(set.getSpec().getTemplate().getMetadata().getLabels())
                    .as(set.getMetadata().getName())
                    .containsAllEntriesOf(set.getSpec().getSelector().getMatchLabels());
        }
        for (Service service : of(Service.class)) {
            assertThat(sets)
                    .as("a workload for service " + service.getMetadata().getName())
                    .anySatisfy(set -> assertThat(
                                    set.getSpec().getTemplate().getMetadata().getLabels())
                            .containsAllEntriesOf(service.getSpec().getSelector()));
        }
    }

    @Test
    void probesAndServicesNameDeclaredContainerPorts() {
        StatefulSet api = named(StatefulSet.class, "memory-api");
        Container container =
                api.getSpec().getTemplate().getSpec().getContainers().get(0);
        Set<String> ports = new java.util.HashSet<>();
        container.getPorts().forEach(p -> ports.add(p.getName()));
        for (Probe probe :
                new Probe[] {container.getReadinessProbe(), container.getLivenessProbe(), container.getStartupProbe()
                }) {
            assertThat(probe).isNotNull();
            assertThat(ports).contains(probe.getHttpGet().getPort().getStrVal());
            assertThat(probe.getHttpGet().getPath())
                    .as("the service's health endpoints")
                    .startsWith("/health");
        }
        for (Service service : of(Service.class)) {
            for (ServicePort port : service.getSpec().getPorts()) {
                IntOrString target = port.getTargetPort();
                assertThat(ports).as(service.getMetadata().getName()).contains(target.getStrVal());
            }
        }
    }

    @Test
    void everyMemorySettingIsADocumentedConfigurationKey() {
        Set<String> documented = DocumentedSettings.environmentNames();
        List<String> used =
                new ArrayList<>(named(ConfigMap.class, "memory-chain").getData().keySet());
        containers().forEach(c -> c.getEnv().forEach(e -> used.add(e.getName())));
        assertThat(used.stream().filter(n -> n.startsWith("MEMORY_")))
                .isNotEmpty()
                .allSatisfy(name -> assertThat(documented)
                        .as("documented in memory-api/README.md")
                        .contains(name));
    }

    @Test
    void everyWorkerCommandLineIsAcceptedByMemoryWorker() {
        Map<String, String> values =
                new HashMap<>(named(ConfigMap.class, "memory-chain").getData());
        int workers = 0;
        for (StatefulSet set : of(StatefulSet.class)) {
            values.put("POD_NAME", set.getMetadata().getName() + "-0");
            for (Container c : set.getSpec().getTemplate().getSpec().getContainers()) {
                List<String> args =
                        c.getArgs().stream().map(a -> substitute(a, c, values)).toList();
                assertThat(args.get(0)).isIn("service", "worker");
                if (args.get(0).equals("worker")) {
                    DeployedCommands.parse(args.subList(1, args.size()));
                    workers++;
                }
            }
        }
        assertThat(workers).isEqualTo(4);
    }

    @Test
    void theServiceSignsWithTheSharedKeyWhereItReadsIt() {
        PodTemplateSpec pod = named(StatefulSet.class, "memory-api").getSpec().getTemplate();
        String dockerfile = DocumentedSettings.read(Path.of("docker/Dockerfile"));
        assertThat(dockerfile).as("the image's data dir").contains("MEMORY_DATA_DIR=/data");
        assertThat(pod.getSpec().getContainers().get(0).getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getMountPath()).isEqualTo("/data/keys/chain-signing.key");
            assertThat(m.getReadOnly()).isTrue();
            assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo(m.getName());
                assertThat(v.getSecret().getSecretName()).isEqualTo("memory-chain-signing-key");
            });
        });
        assertThat(named(StatefulSet.class, "memory-api").getSpec().getReplicas())
                .isGreaterThan(1);
    }

    /** Kubernetes' $(VAR) expansion in args, from the container's env (field refs as given) and the ConfigMap. */
    private static String substitute(String arg, Container c, Map<String, String> values) {
        Matcher m = VARIABLE.matcher(arg);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            boolean declared = values.containsKey(name)
                    || c.getEnv().stream().map(EnvVar::getName).anyMatch(name::equals);
            assertThat(declared).as("$(%s) is set for the container", name).isTrue();
            m.appendReplacement(out, Matcher.quoteReplacement(Objects.requireNonNullElse(values.get(name), name)));
        }
        return m.appendTail(out).toString();
    }

    private static List<Container> containers() {
        return of(StatefulSet.class).stream()
                .flatMap(s -> s.getSpec().getTemplate().getSpec().getContainers().stream())
                .toList();
    }

    private static <T extends HasMetadata> List<T> of(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static <T extends HasMetadata> T named(Class<T> type, String name) {
        return of(type).stream()
                .filter(r -> r.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Walks the object model: fabric8 keeps every key it has no field for in {@code additionalProperties}, so a
     * non-empty one anywhere is a key Kubernetes would reject or ignore.
     */
    private static void collectUnknown(Object node, String path, List<String> out) {
        if (node == null) {
            return;
        }
        if (node instanceof Collection<?> list) {
            int i = 0;
            for (Object item : list) {
                collectUnknown(item, path + "[" + i++ + "]", out);
            }
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknown(v, path + "." + k, out));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            try {
                Object value = getter.invoke(node);
                if (getter.getName().equals("getAdditionalProperties")) {
                    if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                        out.add(path + ": " + extra.keySet());
                    }
                } else {
                    collectUnknown(value, path + "." + getter.getName().substring(3), out);
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(path + "." + getter.getName(), e);
            }
        }
    }
}
