package io.memorychain.api.contract;

import io.memorychain.events.testing.SharedKafka;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The whole application (real {@code MemoryChainBackend}: registry, signing key, sequencer and projection in Kafka
 * Streams, publisher; HTTP and gRPC servers on free ports) on the shared in-JVM broker, with topics and Streams
 * application ids of its own, for the contracts' integration runs.
 */
public final class SharedKafkaApplication {

    private SharedKafkaApplication() {}

    /**
     * @param prefix topic and application-id prefix ({@link SharedKafka#uniquePrefix()})
     * @param name names the data directory under java.io.tmpdir
     */
    public static EmbeddedServer start(String prefix, String name) {
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), name + "-" + UUID.randomUUID());
        return ApplicationContext.run(
                EmbeddedServer.class,
                Map.ofEntries(
                        Map.entry("micronaut.server.port", -1),
                        Map.entry("grpc.server.port", 0),
                        Map.entry("memory.kafka.bootstrap-servers", SharedKafka.bootstrapServers()),
                        Map.entry("memory.kafka.partitions", 3),
                        // two embedder threads over the three partitions: the contracts' vector searches run on their
                        // vectors
                        Map.entry("memory.embeddings.stream-threads", 2),
                        Map.entry("memory.kafka.replication-factor", 1),
                        Map.entry("memory.topic-prefix", prefix),
                        Map.entry("memory.data-dir", dataDir.toString()),
                        Map.entry("memory.write-timeout", "30s"),
                        Map.entry("memory.startup-timeout", "90s"),
                        // the linker would publish link requests on its own, into the spaces whose chains these tests
                        // compare
                        Map.entry("memory.retrieval.linker-enabled", false),
                        // likewise the refinement trigger (EmbeddedRestartIT runs it)
                        Map.entry("memory.refinement.trigger-enabled", false),
                        // ChangeEventsContract waits for a keep-alive of the server-sent events
                        Map.entry("memory.changes.heartbeat", "1s"),
                        // the space MemoryApiContract's core-cap test opens a refinement session in (over-cap: refine)
                        Map.entry(
                                "memory.core.space-caps", List.of(MemoryApiContract.CORE_REFINE_SPACE + "=200:refine")),
                        // MemoryApiContract's review-mode tests: a manual space, a trusted auto-committing proposer
                        Map.entry(
                                "memory.proposals.space-review-modes",
                                List.of(MemoryApiContract.MANUAL_REVIEW_SPACE + "=manual")),
                        Map.entry(
                                "memory.proposals.proposer-review-modes",
                                List.of(MemoryApiContract.AUTO_PROPOSER + "=auto_commit")),
                        Map.entry("memory.proposals.trusted-proposers", List.of(MemoryApiContract.AUTO_PROPOSER)),
                        // the refinement agent job: only RefinementAgentContract's space has a (scripted) model
                        Map.entry(
                                "memory.llm.agents." + RefinementAgentContract.SPACE + ".base-url",
                                RefinementAgentContract.LLM.baseUrl()),
                        Map.entry("memory.llm.agents." + RefinementAgentContract.SPACE + ".model", "refine-model"),
                        Map.entry("memory.refinement.agent.check-interval", "1s"),
                        // contradiction detection (off in the tests' configuration) where ContradictionContract expects
                        // it
                        Map.entry(
                                "memory.contradictions.space-detect",
                                ContradictionContract.DETECTING.stream()
                                        .map(space -> space + "=on")
                                        .toList())));
    }
}
