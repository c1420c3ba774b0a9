package io.memorychain.projector.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.projector.MemoryChainRuntime;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

class SpaceOwnersTest {

    private static final HostInfo SELF = new HostInfo("api-0", 8080);
    private static final HostInfo OTHER = new HostInfo("api-1", 8080);

    @Test
    void anotherInstancesActiveTaskMakesTheSpaceRemoteAtItsAdvertisedEndpoint() {
        SpaceOwner owner = SpaceOwners.decide(new KeyQueryMetadata(OTHER, Set.of(SELF), 4), SELF, p -> true);

        assertThat(owner)
                .isEqualTo(SpaceOwner.remote("api-1", 8080, 4)
                        .withStandbys(List.of(new SpaceOwner.Endpoint("api-0", 8080))));
    }

    @Test
    void aRunningActiveTaskHereMakesTheSpaceLocal() {
        SpaceOwner owner = SpaceOwners.decide(new KeyQueryMetadata(SELF, Set.of(OTHER), 2), SELF, p -> p == 2);

        assertThat(owner).isEqualTo(SpaceOwner.local(2).withStandbys(List.of(new SpaceOwner.Endpoint("api-1", 8080))));
    }

    @Test
    void anActiveTaskStillRestoringHereIsUnavailableNotLocal() {
        SpaceOwner owner = SpaceOwners.decide(new KeyQueryMetadata(SELF, Set.of(), 2), SELF, p -> false);

        assertThat(owner.kind()).isEqualTo(SpaceOwner.Kind.UNAVAILABLE);
        assertThat(owner.partition()).isEqualTo(2);
        assertThat(owner.reason()).contains("restoring");
    }

    @Test
    void theStandbyReplicasOfThePartitionAreNamedInAStableOrderWithoutPlaceholders() {
        HostInfo third = new HostInfo("api-2", 8080);
        SpaceOwner owner = SpaceOwners.decide(
                new KeyQueryMetadata(OTHER, Set.of(third, HostInfo.unavailable(), SELF), 1), SELF, p -> true);

        assertThat(owner.standbys())
                .containsExactly(new SpaceOwner.Endpoint("api-0", 8080), new SpaceOwner.Endpoint("api-2", 8080));
    }

    @Test
    void withoutARunningProjectionThereIsNoCopyHereToReadFrom() {
        assertThat(new SpaceOwners(null, SELF).copyAppliedSeq("tenant/agent", 3))
                .isEmpty();
    }

    @Test
    void noMetadataDuringARebalanceIsUnavailable() {
        assertThat(SpaceOwners.decide(KeyQueryMetadata.NOT_AVAILABLE, SELF, p -> true)
                        .kind())
                .isEqualTo(SpaceOwner.Kind.UNAVAILABLE);
        assertThat(SpaceOwners.decide(null, SELF, p -> true).kind()).isEqualTo(SpaceOwner.Kind.UNAVAILABLE);
    }

    @Test
    void withoutAnAdvertisedEndpointEverySpaceIsServedHere() {
        SpaceOwners owners = new SpaceOwners(null, null);

        assertThat(owners.routing()).isFalse();
        assertThat(owners.ownerOf("tenant/agent")).isEqualTo(SpaceOwner.UNROUTED);
    }

    @Test
    void routingRefusesAnEndpointThatIsNotHostAndPortAndNegativeStandbys() {
        assertThatThrownBy(() -> new MemoryChainRuntime.Routing("http://api-0:8080", 0))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> new MemoryChainRuntime.Routing("api-0:8080", -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new MemoryChainRuntime.Routing("api-0:8080", 1).applicationServer())
                .isEqualTo("api-0:8080");
    }

    @Test
    void aRemoteOwnerNeedsItsEndpoint() {
        assertThatThrownBy(() -> SpaceOwner.remote("", 8080, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SpaceOwner.remote("api-1", 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
