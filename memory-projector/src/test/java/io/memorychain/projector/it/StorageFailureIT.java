package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.support.FullDiskRocksDb;
import io.memorychain.projector.support.StreamFailures;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault suite, storage failure (issue #12 item 3, docs/architecture.md §19 "Faults"): the real sequencer and projection
 * run with {@link FullDiskRocksDb}, which makes RocksDB itself report a full disk ({@code Max allowed space was
 * reached}) at run time while writes arrive. Checked: the failure is reported with its code and the store it hit
 * ({@link MemoryChainRuntime#failures()}, what {@code /health} shows) and stays reported while the disk is full,
 * although the replaced stream threads bring the applications' states back to RUNNING; once space is free again every
 * request is accepted exactly once, the chains verify and the views hold every write.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StorageFailureIT {

    private static final Logger LOG = LoggerFactory.getLogger(StorageFailureIT.class);
    private static final int SPACES = 3;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aFullDiskUnderRunningStoresIsReportedWithItsStoreAndNoAcceptedWriteIsLost() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        String bootstrap = SharedKafka.bootstrapServers();
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                bootstrap,
                topics,
                Files.createTempDirectory("full-disk"),
                prefix + "app",
                3,
                (short) 1,
                WriteSettings.defaults());
        try (SchemaRegistry registry = new KafkaTopicSchemaRegistry(bootstrap, topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = startWithFullDiskInjection(settings, registry, keys);
                MemoryPublisher publisher = new MemoryPublisher(bootstrap, topics, registry)) {
            List<MemoryRequest> before = requests(30, "before");
            List<MemoryOutcome> accepted = new ArrayList<>(outcomesOf(publishAll(publisher, before)));
            assertThat(runtime.failures().current())
                    .as("healthy before the fault")
                    .isEmpty();

            List<CompletableFuture<MemoryOutcome>> during;
            StreamFailures.Failure reported;
            try {
                FullDiskRocksDb.fill();
                LOG.info(
                        "INJECTED: RocksDB reports a full disk (SstFileManager limit 1 byte) under the running stores");
                during = publishAll(publisher, requests(60, "during"));
                await("a store failure reported")
                        .atMost(WAIT)
                        .until(() -> !runtime.failures().current().isEmpty());
                Map<String, StreamFailures.Failure> failures =
                        runtime.failures().current();
                LOG.info("Reported: {}", failures);
                reported = failures.values().iterator().next();
                assertThat(reported.code()).isEqualTo(StreamFailures.STORAGE_FULL);
                assertThat(reported.store())
                        .as("the store that could not write is named")
                        .isNotBlank();
                assertThat(reported.error()).contains("Max allowed space was reached");
                await("a replacement thread failing on the same full disk")
                        .atMost(WAIT)
                        .until(() ->
                                runtime.failures().current().values().stream().anyMatch(f -> f.count() > 1));
                assertThat(runtime.failures().current())
                        .as("still reported while the disk stays full")
                        .containsKeys(failures.keySet().toArray(String[]::new));
            } finally {
                FullDiskRocksDb.free();
            }
            LOG.info("Disk space free again");
            accepted.addAll(outcomesOf(during));

            List<MemoryEvent> events = EventsTopic.readAll(bootstrap, topics.events(), registry);
            Map<String, Long> perRequest =
                    events.stream().collect(Collectors.groupingBy(MemoryEvent::getRequestId, Collectors.counting()));
            assertThat(perRequest)
                    .hasSize(accepted.size())
                    .allSatisfy((id, count) -> assertThat(count).as(id).isOne());
            assertThat(new KafkaChainReader(
                                    Map.of("bootstrap.servers", bootstrap),
                                    topics.events(),
                                    registry,
                                    keys.publicRing(),
                                    SignatureMode.ALL)
                            .verifyAll())
                    .hasSize(SPACES)
                    .allSatisfy((space, result) ->
                            assertThat(result.ok()).as("%s: %s", space, result).isTrue());
            for (MemoryOutcome o : accepted) {
                assertThat(runtime.views().awaitApplied(o.getSpace(), o.getSeq(), WAIT))
                        .isTrue();
                assertThat(runtime.views().memory(o.getSpace(), o.getMemoryId()))
                        .as("view of %s", o.getMemoryId())
                        .isPresent();
            }
            LOG.info(
                    "CHECKED: {} reported on store {} ({} thread failures) while the disk was full; afterwards {} "
                            + "requests accepted once each, {} events, chains verified, every write in the views",
                    reported.code(),
                    reported.store(),
                    reported.count(),
                    accepted.size(),
                    events.size());
        }
    }

    /** The runtime with {@link FullDiskRocksDb} on its stores (the setting is read when the runtime starts). */
    private static MemoryChainRuntime startWithFullDiskInjection(
            MemoryChainRuntime.Settings settings, SchemaRegistry registry, ChainKeys keys) {
        System.setProperty(StreamsProperties.ROCKSDB_CONFIG_SETTER, FullDiskRocksDb.class.getName());
        try {
            return MemoryChainRuntime.start(settings, registry, keys, null, WAIT);
        } finally {
            System.clearProperty(StreamsProperties.ROCKSDB_CONFIG_SETTER);
        }
    }

    /** Requests over the spaces with 4 KiB contents, so the stores' small memtables flush after a few of them. */
    private static List<MemoryRequest> requests(int count, String label) {
        List<MemoryRequest> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(Requests.create(
                            "disk-" + (i % SPACES), ChainHarness.AGENT, label + " " + i + " " + "x".repeat(4096))
                    .build());
        }
        return out;
    }

    private static List<CompletableFuture<MemoryOutcome>> publishAll(
            MemoryPublisher publisher, List<MemoryRequest> requests) {
        return requests.stream().map(publisher::publish).toList();
    }

    private static List<MemoryOutcome> outcomesOf(List<CompletableFuture<MemoryOutcome>> futures) throws Exception {
        List<MemoryOutcome> outcomes = new ArrayList<>();
        for (CompletableFuture<MemoryOutcome> f : futures) {
            MemoryOutcome o = f.get(90, TimeUnit.SECONDS);
            assertThat(o.getAccepted())
                    .as("%s: %s %s", o.getRequestId(), o.getCode(), o.getMessage())
                    .isTrue();
            outcomes.add(o);
        }
        return outcomes;
    }
}
