package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.EventsTopic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kills the JVM running the sequencer with SIGKILL in the middle of a load, restarts it, and checks that every accepted
 * request is on the chain exactly once and every chain is intact.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SequencerCrashIT {

    private static final int REQUESTS = 3_000;
    private static final int SPACES = 10;

    @Test
    void noAcceptedRequestIsLostOrDuplicatedWhenTheSequencerIsKilledMidLoad() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        Path dir = Files.createTempDirectory("crash");
        Path state = dir.resolve("state");
        Path keyFile = dir.resolve("chain-signing.key");
        Process first = startRuntime(prefix, state, keyFile);
        Process second = null;
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            AtomicInteger done = new AtomicInteger();
            CountDownLatch halfway = new CountDownLatch(1);
            List<CompletableFuture<MemoryOutcome>> futures = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                CompletableFuture<MemoryOutcome> f = publisher.publish(
                        Requests.create("crash-" + (i % SPACES), ChainHarness.AGENT, "memory number " + i)
                                .build());
                f.thenRun(() -> {
                    if (done.incrementAndGet() == REQUESTS / 3) {
                        halfway.countDown();
                    }
                });
                futures.add(f);
            }
            assertThat(halfway.await(120, TimeUnit.SECONDS))
                    .as("a third of the outcomes arrived")
                    .isTrue();
            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL: no clean shutdown, no commit
            assertThat(done.get()).as("killed in the middle of the load").isLessThan(REQUESTS);

            second = startRuntime(prefix, state, keyFile);
            List<MemoryOutcome> outcomes = new ArrayList<>();
            for (CompletableFuture<MemoryOutcome> f : futures) {
                outcomes.add(f.get(180, TimeUnit.SECONDS));
            }
            assertThat(outcomes).allSatisfy(o -> assertThat(o.getAccepted()).isTrue());
            Set<String> acceptedIds =
                    outcomes.stream().map(MemoryOutcome::getRequestId).collect(Collectors.toSet());
            assertThat(acceptedIds).hasSize(REQUESTS);

            List<MemoryEvent> events = EventsTopic.readAll(SharedKafka.bootstrapServers(), topics.events(), registry);
            assertThat(events).hasSize(REQUESTS);
            assertThat(events.stream().map(MemoryEvent::getRequestId).collect(Collectors.toSet()))
                    .isEqualTo(acceptedIds);
            Map<String, List<MemoryEvent>> chains = events.stream()
                    .collect(Collectors.groupingBy(MemoryEvent::getSpace, LinkedHashMap::new, Collectors.toList()));
            KeyRing ring = KeyRing.read(keyFile.resolveSibling(keyFile.getFileName() + ".pub"));
            assertThat(chains).hasSize(SPACES);
            chains.values().forEach(chain -> ChainEndToEndIT.assertIntact(chain, ring));
            Set<Long> outcomeSeqs = new HashSet<>();
            outcomes.stream().filter(o -> o.getSpace().equals("crash-0")).forEach(o -> outcomeSeqs.add(o.getSeq()));
            assertThat(outcomeSeqs).hasSize(REQUESTS / SPACES);
        } finally {
            first.destroyForcibly();
            if (second != null) {
                second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Process startRuntime(String prefix, Path state, Path keyFile) throws IOException {
        return RuntimeProcess.start(prefix, state, keyFile);
    }
}
