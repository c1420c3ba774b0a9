package io.memorychain.projector.view;

import io.memorychain.projector.projection.ProjectionTopology;
import java.util.function.IntPredicate;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsNotStartedException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Finds the instance that serves a space's views (docs/architecture.md §19) from the projection's interactive-query
 * metadata: the active task of the space's partition ({@code queryMetadataForKey} on {@code view-applied}, keyed by
 * space) and the {@code application.server} endpoint its instance advertises. This instance is the owner only when
 * that task is running here and queryable (a task still restoring is not), so a read is never answered from a store
 * that is behind the chain without the caller knowing.
 */
public final class SpaceOwners {

    private static final Serializer<String> KEYS = new StringSerializer();

    private final KafkaStreams projection;
    private final HostInfo self;

    /**
     * @param projection the projection's Streams instance
     * @param self       this instance's {@code application.server} endpoint; null: routing off, every space is local
     */
    public SpaceOwners(KafkaStreams projection, HostInfo self) {
        this.projection = projection;
        this.self = self;
    }

    /** True when this instance advertises an endpoint and so routes spaces it does not own. */
    public boolean routing() {
        return self != null;
    }

    public SpaceOwner ownerOf(String space) {
        if (self == null) {
            return SpaceOwner.UNROUTED;
        }
        KeyQueryMetadata metadata;
        try {
            metadata = projection.queryMetadataForKey(ProjectionTopology.APPLIED, space, KEYS);
        } catch (StreamsNotStartedException | IllegalStateException e) {
            return SpaceOwner.unavailable(-1, "the projection is not running: " + e.getMessage());
        }
        return decide(metadata, self, partition -> queryableHere(space, partition));
    }

    /**
     * The routing rule, pure: no metadata (or the placeholder of an unknown owner) is unavailable; another host is
     * remote; this host is local only when {@code runningHere} says the partition's active store is queryable.
     */
    static SpaceOwner decide(KeyQueryMetadata metadata, HostInfo self, IntPredicate runningHere) {
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata) || metadata.activeHost() == null
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            return SpaceOwner.unavailable(-1, "no instance owns the space's partition yet (rebalancing)");
        }
        int partition = metadata.partition();
        HostInfo active = metadata.activeHost();
        if (active.equals(self)) {
            return runningHere.test(partition) ? SpaceOwner.local(partition)
                    : SpaceOwner.unavailable(partition, "partition " + partition + " is restoring on this instance");
        }
        return SpaceOwner.remote(active.host(), active.port(), partition);
    }

    /** Whether the space's partition has a running active projection task here (a restoring one is not queryable). */
    private boolean queryableHere(String space, int partition) {
        try {
            projection.store(StoreQueryParameters.fromNameAndType(ProjectionTopology.APPLIED,
                    QueryableStoreTypes.<String, Long>keyValueStore()).withPartition(partition)).get(space);
            return true;
        } catch (InvalidStateStoreException e) {
            return false;
        }
    }
}
