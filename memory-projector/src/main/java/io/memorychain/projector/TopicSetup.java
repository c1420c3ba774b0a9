package io.memorychain.projector;

import io.memorychain.events.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the data topics when missing and checks that requests and events are co-partitioned. */
public final class TopicSetup {

    private static final Logger log = LoggerFactory.getLogger(TopicSetup.class);
    private static final String FOREVER = "-1";
    private static final long METADATA_WAIT_MS = 30_000;
    /** The requests topic's retention: one day (hourly segments, so the broker deletes them on time). */
    static final long REQUESTS_RETENTION_MS = 24L * 3600 * 1000;

    private TopicSetup() {}

    /** Creates the missing topics and checks co-partitioning; returns the events topic's partition count. */
    public static int ensure(String bootstrapServers, Topics topics, int partitions, short replicationFactor) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            Map<String, Map<String, String>> configs = Map.of(
                    // a request holds its texts in plain: one day bounds how long an erased memory's text stays in
                    // it (docs/architecture.md §12), like the changelogs; only the sequencer reads it, within moments
                    topics.requests(),
                            Map.of(
                                    TopicConfig.RETENTION_MS_CONFIG,
                                    String.valueOf(REQUESTS_RETENTION_MS),
                                    TopicConfig.SEGMENT_MS_CONFIG,
                                    String.valueOf(3600_000L)),
                    topics.events(),
                            Map.of(
                                    TopicConfig.RETENTION_MS_CONFIG,
                                    FOREVER,
                                    TopicConfig.RETENTION_BYTES_CONFIG,
                                    FOREVER),
                    topics.outcomes(), Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(7L * 24 * 3600 * 1000)),
                    topics.deadLetters(), Map.of(TopicConfig.RETENTION_MS_CONFIG, FOREVER),
                    // derived logs the views are rebuilt from: kept as long as the chain
                    topics.access(), Map.of(TopicConfig.RETENTION_MS_CONFIG, FOREVER),
                    topics.embeddings(),
                            Map.of(
                                    TopicConfig.RETENTION_MS_CONFIG,
                                    FOREVER,
                                    TopicConfig.RETENTION_BYTES_CONFIG,
                                    FOREVER),
                    topics.ops(), Map.of(TopicConfig.RETENTION_MS_CONFIG, FOREVER),
                    // data keys (docs/architecture.md §12): the latest record per memory is all that counts, and
                    // compaction is what removes a destroyed key's earlier (wrapped) record from the log
                    topics.keys(),
                            Map.of(
                                    TopicConfig.CLEANUP_POLICY_CONFIG,
                                    TopicConfig.CLEANUP_POLICY_COMPACT,
                                    TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG,
                                    "0.01",
                                    TopicConfig.SEGMENT_MS_CONFIG,
                                    String.valueOf(3600_000L)));
            for (String topic : topics.dataTopics()) {
                if (!existing.contains(topic)) {
                    int count = topic.equals(topics.keys()) ? 1 : partitions;
                    missing.add(new NewTopic(topic, count, replicationFactor).configs(configs.get(topic)));
                }
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get();
                    log.info(
                            "Created topics {}",
                            missing.stream().map(NewTopic::name).toList());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            Map<String, TopicDescription> described = describe(admin, topics.coPartitioned());
            int eventPartitions = described.get(topics.events()).partitions().size();
            for (String topic : topics.coPartitioned()) {
                int count = described.get(topic).partitions().size();
                if (count != eventPartitions) {
                    throw new IllegalStateException(topic + " has " + count + " partitions but " + topics.events()
                            + " has " + eventPartitions + "; they must be co-partitioned");
                }
            }
            return eventPartitions;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot create topics on " + bootstrapServers + ": " + e.getCause(), e);
        }
    }

    /**
     * Describes topics, waiting out the moment after their creation when a broker does not know them yet
     * (UnknownTopicOrPartition while the new metadata propagates), for at most {@value #METADATA_WAIT_MS} ms.
     */
    private static Map<String, TopicDescription> describe(Admin admin, List<String> names)
            throws InterruptedException, ExecutionException {
        long deadline = System.currentTimeMillis() + METADATA_WAIT_MS;
        while (true) {
            try {
                return admin.describeTopics(names).allTopicNames().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
                        || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                log.debug("Topics {} not known to the broker yet; retrying", names);
                Thread.sleep(100); // back-off between metadata requests in production code
            }
        }
    }
}
