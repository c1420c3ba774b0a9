package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.ConfluentRegistryClient;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.testing.ApicurioRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault suite, schema registry outage (issue #12 item 3, docs/architecture.md §19 "Faults"): the sequencer and the
 * projection, an agent's publisher and a chain reader all use a real Apicurio Registry through its Confluent API
 * ({@link ConfluentRegistryClient}, each its own client and cache, as separate processes would). After a warm-up the
 * registry is cut off ({@link ApicurioRegistry#outage()}: connections refused). Checked: writes and reads keep working
 * on the cached schemas; an agent that needs the registry for a schema it has not fetched yet either fails clearly and
 * retryably, writing nothing (a new agent's first publish), or waits (an outcome whose schema it has not seen), and
 * both succeed once the registry is back, with exactly one event per request.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RegistryOutageIT {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryOutageIT.class);
    private static final int SPACES = 3;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void cachedSchemasKeepWritesAndReadsUpAndWhatNeedsTheRegistryWaitsOrFailsRetryablyUntilItIsBack() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        ChainKeys keys = ChainKeys.generate();
        String bootstrap = SharedKafka.bootstrapServers();
        try (ApicurioRegistry apicurio = ApicurioRegistry.start()) {
            ConfluentRegistryClient service = client(apicurio);
            ConfluentRegistryClient agent = client(apicurio);
            ConfluentRegistryClient reader = client(apicurio);
            ConfluentRegistryClient latecomer = client(apicurio);
            try (MemoryChainRuntime runtime = MemoryChainRuntime.start(
                            new MemoryChainRuntime.Settings(
                                    bootstrap,
                                    topics,
                                    Files.createTempDirectory("registry-outage"),
                                    prefix + "app",
                                    3,
                                    (short) 1,
                                    WriteSettings.defaults()),
                            service,
                            keys,
                            null,
                            WAIT);
                    MemoryPublisher publisher = new MemoryPublisher(bootstrap, topics, agent);
                    MemoryPublisher newcomer = new MemoryPublisher(bootstrap, topics, client(apicurio));
                    MemoryPublisher waiter = new MemoryPublisher(bootstrap, topics, latecomer)) {
                List<MemoryRequest> warmUp = new ArrayList<>();
                for (int s = 0; s < SPACES; s++) {
                    warmUp.add(create(s, "before the outage"));
                }
                assertAccepted(publishAll(publisher, warmUp));
                EventsTopic.readAll(bootstrap, topics.events(), reader); // the reader has the event schema now
                // the latecomer registered its request schema at start but has not seen an outcome yet
                latecomer.register(topics.requests() + "-value", MemoryRequest.getClassSchema());

                apicurio.outage();
                LOG.info("INJECTED: schema registry outage (connections to {} refused)", apicurio.url());
                assertThatThrownBy(() -> client(apicurio).byId(1))
                        .as("the registry is really down")
                        .isInstanceOf(SchemaRegistryUnavailableException.class);

                List<MemoryRequest> during = new ArrayList<>();
                for (int i = 0; i < 30; i++) {
                    during.add(create(i % SPACES, "during the outage " + i));
                }
                List<MemoryOutcome> duringOutcomes = assertAccepted(publishAll(publisher, during));
                for (int i = 0; i < during.size(); i++) {
                    MemoryOutcome o = duringOutcomes.get(i);
                    assertThat(runtime.views().awaitApplied(o.getSpace(), o.getSeq(), WAIT))
                            .isTrue();
                    assertThat(runtime.views().memory(o.getSpace(), o.getMemoryId()))
                            .as("read during the outage")
                            .hasValueSatisfying(m -> assertThat(m.getContent()).startsWith("during the outage"));
                }
                assertThat(verify(bootstrap, topics, reader, keys))
                        .as("the chain verifies during the outage")
                        .allSatisfy((space, result) ->
                                assertThat(result.ok()).as(space).isTrue());

                MemoryRequest first = create(0, "a new agent's first write");
                assertThatThrownBy(() -> newcomer.publish(first).get(30, TimeUnit.SECONDS))
                        .as("a new agent cannot register its schema: a clear, retryable failure")
                        .isInstanceOf(ExecutionException.class)
                        .cause()
                        .isInstanceOf(MemoryPublisher.PublishException.class)
                        .hasMessageContaining("the schema registry is unavailable")
                        .hasMessageContaining("retry with the same request id")
                        .cause()
                        .isInstanceOf(SchemaRegistryUnavailableException.class);

                MemoryRequest waiting = create(1, "written while the registry is down, answered after");
                CompletableFuture<MemoryOutcome> waitingOutcome = waiter.publish(waiting);
                await("the latecomer's request sequenced during the outage")
                        .atMost(WAIT)
                        .until(() -> requestIds(bootstrap, topics, reader).contains(waiting.getRequestId()));
                assertThat(waitingOutcome)
                        .as("its outcome waits for the outcome schema, it is not dropped")
                        .isNotDone();

                apicurio.recover();
                LOG.info("Registry back: retrying the new agent's write with the same request id");
                assertThat(waitingOutcome.get(60, TimeUnit.SECONDS).getAccepted())
                        .isTrue();
                MemoryOutcome retried = newcomer.publish(first).get(60, TimeUnit.SECONDS);
                assertThat(retried.getAccepted()).isTrue();

                List<MemoryEvent> events = EventsTopic.readAll(bootstrap, topics.events(), reader);
                Map<String, Long> perRequest = events.stream()
                        .collect(Collectors.groupingBy(MemoryEvent::getRequestId, Collectors.counting()));
                assertThat(perRequest)
                        .hasSize(warmUp.size() + during.size() + 2)
                        .allSatisfy((id, count) -> assertThat(count).as(id).isOne())
                        .containsKeys(first.getRequestId(), waiting.getRequestId());
                assertThat(verify(bootstrap, topics, reader, keys))
                        .hasSize(SPACES)
                        .allSatisfy((space, result) ->
                                assertThat(result.ok()).as(space).isTrue());
                LOG.info(
                        "CHECKED during the outage: {} writes accepted and read back from the views, chains verified "
                                + "on cached schemas; a new agent's first write failed retryably and wrote nothing, then was "
                                + "accepted once the registry was back; an outcome waited for its schema instead of being "
                                + "dropped; {} events, one per request id",
                        during.size(),
                        events.size());
            }
        }
    }

    private static ConfluentRegistryClient client(ApicurioRegistry apicurio) {
        return new ConfluentRegistryClient(apicurio.url(), Duration.ofSeconds(2));
    }

    private static MemoryRequest create(int space, String content) {
        return Requests.create("outage-" + space, ChainHarness.AGENT, content).build();
    }

    private static List<MemoryOutcome> publishAll(MemoryPublisher publisher, List<MemoryRequest> requests)
            throws Exception {
        List<CompletableFuture<MemoryOutcome>> futures =
                requests.stream().map(publisher::publish).toList();
        List<MemoryOutcome> outcomes = new ArrayList<>();
        for (CompletableFuture<MemoryOutcome> f : futures) {
            outcomes.add(f.get(60, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    private static List<MemoryOutcome> assertAccepted(List<MemoryOutcome> outcomes) {
        assertThat(outcomes)
                .allSatisfy(o -> assertThat(o.getAccepted())
                        .as("%s: %s", o.getCode(), o.getMessage())
                        .isTrue());
        return outcomes;
    }

    private static List<String> requestIds(String bootstrap, Topics topics, ConfluentRegistryClient reader) {
        return EventsTopic.readAll(bootstrap, topics.events(), reader).stream()
                .map(MemoryEvent::getRequestId)
                .toList();
    }

    private static Map<String, VerificationResult> verify(
            String bootstrap, Topics topics, ConfluentRegistryClient reader, ChainKeys keys) {
        return new KafkaChainReader(
                        Map.of("bootstrap.servers", bootstrap),
                        topics.events(),
                        reader,
                        keys.publicRing(),
                        SignatureMode.ALL)
                .verifyAll();
    }
}
