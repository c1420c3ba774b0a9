package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Request ids are idempotency keys per space, end to end: publisher, sequencer and outcome routing agree. */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PublisherIdempotencyIT {

    @Test
    @SuppressWarnings("try") // the runtime is not referenced: it sequences while the test publishes
    void theSameRequestIdInTwoSpacesIsTwoRequestsAndARetryInOneSpaceIsTheOriginal() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        new MemoryChainRuntime.Settings(
                                SharedKafka.bootstrapServers(),
                                topics,
                                Files.createTempDirectory("idem"),
                                prefix + "app",
                                3,
                                (short) 1,
                                WriteSettings.defaults()),
                        registry,
                        ChainKeys.generate(),
                        null,
                        Duration.ofSeconds(60));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            MemoryRequest inA = Requests.create("space-a", ChainHarness.AGENT, "in a")
                    .setRequestId("key-1")
                    .build();
            MemoryRequest inB = Requests.create("space-b", ChainHarness.AGENT, "in b")
                    .setRequestId("key-1")
                    .build();
            CompletableFuture<MemoryOutcome> a = publisher.publish(inA);
            CompletableFuture<MemoryOutcome> b = publisher.publish(inB);
            MemoryOutcome outcomeA = a.get(60, TimeUnit.SECONDS);
            MemoryOutcome outcomeB = b.get(60, TimeUnit.SECONDS);
            assertThat(outcomeA.getSpace()).isEqualTo("space-a");
            assertThat(outcomeB.getSpace()).isEqualTo("space-b");
            assertThat(outcomeA.getMemoryId()).isNotEqualTo(outcomeB.getMemoryId());

            MemoryOutcome retry = publisher
                    .publish(Requests.create("space-a", ChainHarness.AGENT, "in a, again")
                            .setRequestId("key-1")
                            .build())
                    .get(60, TimeUnit.SECONDS);
            assertThat(retry).isEqualTo(outcomeA);
            List<MemoryEvent> events = EventsTopic.readAll(SharedKafka.bootstrapServers(), topics.events(), registry);
            assertThat(events).extracting(MemoryEvent::getSpace).containsExactlyInAnyOrder("space-a", "space-b");
        }
    }
}
