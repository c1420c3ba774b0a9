package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.view.MemoryViews;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The embedder application with two stream threads ({@code memory.embeddings.stream-threads}) on an events topic of two
 * partitions, on a real broker: each thread owns one partition's task and embeds its spaces' memories, and every vector
 * is the one the model gives the text alone (embedding at once on two threads changes no vector).
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class EmbedderThreadsIT {

    private static final int PARTITIONS = 2;
    private static final int PER_SPACE = 12;

    @Test
    void twoStreamThreadsEachEmbedTheirPartitionsMemoriesWithTheVectorsOfTheTextAlone() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                SharedKafka.bootstrapServers(),
                topics,
                Files.createTempDirectory("embedder-threads-it"),
                prefix + "app",
                PARTITIONS,
                (short) 1,
                WriteSettings.defaults());
        OnnxSentenceEmbedder embedder = SharedEmbedder.of(EmbeddingModel.MINILM);
        var actor = Requests.actor(ActorType.AGENT, "helper");
        List<String> spaces = spacesOnEveryPartition();
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        settings, registry, ChainKeys.generate(), embedder, null, Duration.ofSeconds(90), null, 2);
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            Set<ThreadMetadata> threads = runtime.embedderStreams().metadataForLocalThreads();
            assertThat(threads)
                    .hasSize(2)
                    .allSatisfy(t -> assertThat(t.activeTasks()).hasSize(1));

            Map<String, String> contents = new LinkedHashMap<>(); // "space/id" -> content
            List<CompletableFuture<MemoryOutcome>> outcomes = new ArrayList<>();
            List<String> written = new ArrayList<>();
            for (String space : spaces) {
                for (int i = 0; i < PER_SPACE; i++) {
                    String content = "Note " + i + " of " + space + ": the user mentioned topic " + (i * 7 % 11);
                    written.add(space + "/" + content);
                    outcomes.add(publisher.publish(Requests.create(
                                    space,
                                    actor,
                                    CreateMemory.newBuilder()
                                            .setContent(content)
                                            .build())
                            .build()));
                }
            }
            for (int i = 0; i < outcomes.size(); i++) {
                MemoryOutcome o = outcomes.get(i).get(60, TimeUnit.SECONDS);
                assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
                String[] spaceAndContent = written.get(i).split("/", 2);
                contents.put(spaceAndContent[0] + "/" + o.getMemoryId(), spaceAndContent[1]);
            }

            MemoryViews views = runtime.views();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .until(() -> contents.keySet().stream().allMatch(key -> embedding(views, key) != null));
            for (Map.Entry<String, String> e : contents.entrySet()) {
                float[] alone = embedder.embedAll(List.of(e.getValue())).get(0);
                List<Float> stored = embedding(views, e.getKey()).getVector();
                assertThat(stored).as(e.getKey()).hasSize(alone.length);
                for (int i = 0; i < alone.length; i++) {
                    assertThat(stored.get(i)).as(e.getKey() + "[" + i + "]").isEqualTo(alone[i]);
                }
            }
            assertThat(processedPerThread(runtime))
                    .as("records each embedder thread processed")
                    .hasSize(2)
                    .allSatisfy(count -> assertThat(count).isPositive());
        }
    }

    /** Two spaces per partition of the events topic (keyed by space, Kafka's default partitioner). */
    private static List<String> spacesOnEveryPartition() {
        Map<Integer, List<String>> byPartition = new LinkedHashMap<>();
        for (int i = 0; byPartition.values().stream().mapToInt(List::size).sum() < 2 * PARTITIONS; i++) {
            String space = "threads-" + i;
            int partition = Utils.toPositive(Utils.murmur2(space.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            List<String> spaces = byPartition.computeIfAbsent(partition, p -> new ArrayList<>());
            if (spaces.size() < 2) {
                spaces.add(space);
            }
        }
        return byPartition.values().stream().flatMap(List::stream).toList();
    }

    private static MemoryEmbedding embedding(MemoryViews views, String spaceAndId) {
        String[] parts = spaceAndId.split("/", 2);
        return views.embedding(parts[0], parts[1]).orElse(null);
    }

    /** The embedder's stream threads' {@code process-total}, by thread. */
    private static List<Double> processedPerThread(MemoryChainRuntime runtime) {
        Map<String, Double> byThread = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> m :
                runtime.embedderStreams().metrics().entrySet()) {
            MetricName name = m.getKey();
            if (name.name().equals("process-total") && name.group().equals("stream-thread-metrics")) {
                byThread.put(
                        name.tags().get("thread-id"), ((Number) m.getValue().metricValue()).doubleValue());
            }
        }
        return new ArrayList<>(byThread.values());
    }
}
