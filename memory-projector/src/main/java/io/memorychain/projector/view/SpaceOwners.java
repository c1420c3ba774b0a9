package io.memorychain.projector.view;

import io.memorychain.projector.projection.ProjectionTopology;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;
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
 * space) and the {@code application.server} endpoint its instance advertises. This instance is the owner only when that
 * task is running here and queryable (a task still restoring is not), so a read is never answered from a store that is
 * behind the chain without the caller knowing. The metadata also names the standby replicas of the partition;
 * {@link #copyAppliedSeq} tells how far this instance's own copy (a standby, or an active task still restoring) has
 * applied a space, so a read can be answered from it when the caller's last write is in it.
 */
public final class SpaceOwners {

    private static final Serializer<String> KEYS = new StringSerializer();

    private final KafkaStreams projection;
    private final HostInfo self;
    private final ToIntFunction<String> partitionOf;

    /**
     * @param projection the projection's Streams instance
     * @param self this instance's {@code application.server} endpoint; null: routing off, every space is local
     */
    public SpaceOwners(KafkaStreams projection, HostInfo self) {
        this(projection, self, space -> -1);
    }

    /**
     * @param partitionOf the events partition of a space (the producers' partitioner), used when the metadata does not
     *     name it
     */
    public SpaceOwners(KafkaStreams projection, HostInfo self, ToIntFunction<String> partitionOf) {
        this.projection = projection;
        this.self = self;
        this.partitionOf = partitionOf;
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
        if (metadata == null
                || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || metadata.activeHost() == null
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            return SpaceOwner.unavailable(-1, "no instance owns the space's partition yet (rebalancing)");
        }
        int partition = metadata.partition();
        HostInfo active = metadata.activeHost();
        List<SpaceOwner.Endpoint> standbys = metadata.standbyHosts() == null
                ? List.of()
                : metadata.standbyHosts().stream()
                        .filter(h -> h != null && !HostInfo.unavailable().equals(h) && h.port() > 0)
                        .map(h -> new SpaceOwner.Endpoint(h.host(), h.port()))
                        .sorted(Comparator.comparing(SpaceOwner.Endpoint::host)
                                .thenComparingInt(SpaceOwner.Endpoint::port))
                        .toList();
        if (active.equals(self)) {
            return (runningHere.test(partition)
                            ? SpaceOwner.local(partition)
                            : SpaceOwner.unavailable(
                                    partition, "partition " + partition + " is restoring on this instance"))
                    .withStandbys(standbys);
        }
        return SpaceOwner.remote(active.host(), active.port(), partition).withStandbys(standbys);
    }

    /** This instance's advertised endpoint, or null when it does not route. */
    public SpaceOwner.Endpoint self() {
        return self == null ? null : new SpaceOwner.Endpoint(self.host(), self.port());
    }

    /**
     * How far this instance's copy of the space's views has applied it (the {@code view-applied} store of that copy
     * alone, never this process's memory of what it applied as an owner): a standby replica of the partition, or its
     * active task while it restores (Kafka Streams' stale stores). 0 when the copy holds nothing of the space yet;
     * empty when this instance holds no copy of the partition or it cannot be read now.
     *
     * @param partition the space's partition, or -1 to compute it from the space
     */
    public OptionalLong copyAppliedSeq(String space, int partition) {
        int p = partition >= 0 ? partition : partitionOf.applyAsInt(space);
        if (projection == null || p < 0) {
            return OptionalLong.empty();
        }
        try {
            Long applied = projection
                    .store(StoreQueryParameters.fromNameAndType(
                                    ProjectionTopology.APPLIED, QueryableStoreTypes.<String, Long>keyValueStore())
                            .enableStaleStores()
                            .withPartition(p))
                    .get(space);
            return OptionalLong.of(applied == null ? 0 : applied);
        } catch (InvalidStateStoreException | IllegalStateException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether the space's partition has a running active projection task here (a restoring one is not queryable). */
    private boolean queryableHere(String space, int partition) {
        try {
            projection
                    .store(StoreQueryParameters.fromNameAndType(
                                    ProjectionTopology.APPLIED, QueryableStoreTypes.<String, Long>keyValueStore())
                            .withPartition(partition))
                    .get(space);
            return true;
        } catch (InvalidStateStoreException e) {
            return false;
        }
    }
}
