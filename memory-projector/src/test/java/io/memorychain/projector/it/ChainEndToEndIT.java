package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.MixedLoad;
import io.memorychain.projector.ViewSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** 1,000 mixed requests across 20 spaces through the real sequencer and projection on a real KRaft broker. */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ChainEndToEndIT {

    private static final int SPACES = 20;

    @Test
    void everyValidRequestYieldsOneEventEveryInvalidOneItsCodeChainsVerifyAndReplayEqualsLiveViews() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        Path state = Files.createTempDirectory("e2e");
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                SharedKafka.bootstrapServers(),
                topics,
                state.resolve("live"),
                prefix + "app",
                3,
                (short) 1,
                WriteSettings.defaults());
        List<String> spaces = MixedLoad.spaces(SPACES);
        Map<String, MemoryOutcome> accepted = new LinkedHashMap<>();
        int requests = 0;
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime =
                        MemoryChainRuntime.start(settings, registry, keys, null, Duration.ofSeconds(60));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {

            Map<String, List<String>> created = new HashMap<>();
            List<MixedLoad.Expected> round1 =
                    spaces.stream().flatMap(s -> MixedLoad.round1(s).stream()).toList();
            requests += runRound(publisher, round1, accepted);
            for (String space : spaces) {
                created.put(
                        space,
                        round1.stream()
                                .filter(e -> e.request().getSpace().equals(space) && e.code() == null)
                                .map(e ->
                                        accepted.get(e.request().getRequestId()).getMemoryId())
                                .toList());
            }
            for (BiFunction<String, List<String>, List<MixedLoad.Expected>> round :
                    List.<BiFunction<String, List<String>, List<MixedLoad.Expected>>>of(
                            MixedLoad::round2, MixedLoad::round3)) {
                requests += runRound(
                        publisher,
                        spaces.stream()
                                .flatMap(s -> round.apply(s, created.get(s)).stream())
                                .toList(),
                        accepted);
            }
            assertThat(requests).isEqualTo(1_000);
            assertThat(accepted).hasSize(SPACES * MixedLoad.acceptedPerSpace());

            List<MemoryEvent> events = EventsTopic.readAll(SharedKafka.bootstrapServers(), topics.events(), registry);
            // each space's two agent edits of the critical persona block are followed by their alerts (§21)
            assertThat(events.stream()
                            .filter(e -> e.getPayload() instanceof io.memorychain.avro.CriticalChangeAlerted)
                            .count())
                    .isEqualTo((long) SPACES * MixedLoad.criticalEditsPerSpace());
            assertThat(events).hasSize(accepted.size() + SPACES * MixedLoad.criticalEditsPerSpace());
            assertThat(events.stream().map(MemoryEvent::getRequestId).collect(Collectors.toSet()))
                    .isEqualTo(accepted.keySet());
            Map<String, List<MemoryEvent>> chains = events.stream()
                    .collect(Collectors.groupingBy(MemoryEvent::getSpace, LinkedHashMap::new, Collectors.toList()));
            assertThat(chains).hasSize(SPACES);
            chains.values().forEach(chain -> assertIntact(chain, keys.publicRing()));

            for (String space : spaces) {
                long head = chains.get(space).size();
                assertThat(runtime.views().awaitApplied(space, head, Duration.ofSeconds(30)))
                        .isTrue();
            }
            Map<String, ViewSnapshot> live = snapshot(runtime, spaces);
            assertThat(live.get("space-0").core()).contains("## Who I Am\nI am the careful agent of space-0");

            MemoryChainRuntime.Settings replaySettings = new MemoryChainRuntime.Settings(
                    settings.bootstrapServers(),
                    topics,
                    state.resolve("replay"),
                    prefix + "replay",
                    3,
                    (short) 1,
                    WriteSettings.defaults());
            try (MemoryChainRuntime replay = MemoryChainRuntime.startProjection(
                    replaySettings, registry, MemoryChainRuntime.NO_MODEL, Duration.ofSeconds(60))) {
                for (String space : spaces) {
                    assertThat(replay.views()
                                    .awaitApplied(space, chains.get(space).size(), Duration.ofSeconds(60)))
                            .isTrue();
                }
                assertThat(snapshot(replay, spaces)).isEqualTo(live);
            }
        }
    }

    /** Publishes a round concurrently, waits for every outcome and checks it against the expectation. */
    private static int runRound(
            MemoryPublisher publisher, List<MixedLoad.Expected> round, Map<String, MemoryOutcome> accepted)
            throws Exception {
        List<CompletableFuture<MemoryOutcome>> futures = new ArrayList<>();
        for (MixedLoad.Expected e : round) {
            futures.add(publisher.publish(e.request()));
        }
        for (int i = 0; i < round.size(); i++) {
            MixedLoad.Expected expected = round.get(i);
            MemoryOutcome outcome = futures.get(i).get(60, TimeUnit.SECONDS);
            assertThat(outcome.getCode())
                    .as(
                            "outcome of %s: %s",
                            expected.request().getOp().getClass().getSimpleName(), outcome.getMessage())
                    .isEqualTo(expected.code());
            assertThat(outcome.getAccepted()).isEqualTo(expected.code() == null);
            if (outcome.getAccepted()) {
                accepted.put(outcome.getRequestId(), outcome);
            }
        }
        return round.size();
    }

    private static Map<String, ViewSnapshot> snapshot(MemoryChainRuntime runtime, List<String> spaces) {
        Map<String, ViewSnapshot> out = new LinkedHashMap<>();
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            spaces.forEach(s -> out.put(s, ViewSnapshot.of(runtime.views(), s)));
            return true;
        });
        return out;
    }

    /** Seqs 1..n without gaps, every hash recomputes, every link and signature holds. */
    static void assertIntact(List<MemoryEvent> chain, KeyRing ring) {
        byte[] prev = Canonical.GENESIS;
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < chain.size(); i++) {
            MemoryEvent e = chain.get(i);
            assertThat(e.getSeq()).isEqualTo(i + 1L);
            assertThat(seen.add(e.getSeq())).isTrue();
            byte[] hash = Canonical.toArray(e.getHash());
            assertThat(Canonical.toArray(e.getPrevHash())).isEqualTo(prev);
            assertThat(Canonical.hash(e)).isEqualTo(hash);
            assertThat(ring.verify(e.getKeyId(), hash, Canonical.toArray(e.getSignature())))
                    .isTrue();
            prev = hash;
        }
        Objects.requireNonNull(prev);
    }
}
