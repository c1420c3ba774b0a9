package io.memorychain.api.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.view.SpaceOwner;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The routing rule of docs/architecture.md §19: owner, standby (reads without a min seq), nobody. */
class RouteTest {

    private static final SpaceOwner.Endpoint SELF = new SpaceOwner.Endpoint("api-0", 8080);
    private static final SpaceOwner.Endpoint OTHER = new SpaceOwner.Endpoint("api-2", 8080);
    private static final SpaceOwner REMOTE = SpaceOwner.remote("api-1", 8080, 4).withStandbys(List.of(SELF));
    private static final SpaceOwner MOVING =
            SpaceOwner.unavailable(4, "rebalancing").withStandbys(List.of(OTHER));

    @Test
    void theActiveOwnerHereServesEvenWithAStandbyElsewhere() {
        Route route = Route.decide(
                "s",
                SpaceOwner.local(4).withStandbys(List.of(OTHER)),
                true,
                null,
                false,
                OptionalLong.empty(),
                7,
                SELF);

        assertThat(route).isEqualTo(new Route.Serve());
    }

    @Test
    void aReachableOwnerElsewhereIsForwardedToEvenWhenAStandbyHereHasEverything() {
        Route route = Route.decide("s", REMOTE, true, null, false, OptionalLong.of(99), 0, SELF);

        assertThat(route).isEqualTo(new Route.ToOwner(new SpaceOwner.Endpoint("api-1", 8080)));
    }

    @Test
    void anUnreachableOwnersReadWithoutAMinSeqIsAnsweredByTheStandbyHere() {
        assertThat(Route.decide("s", REMOTE, true, null, true, OptionalLong.of(12), 0, SELF))
                .isEqualTo(new Route.ServeStandby(12));
        assertThat(Route.decide("s", MOVING, true, null, false, OptionalLong.of(3), 0, SELF))
                .isEqualTo(new Route.ServeStandby(3));
    }

    /**
     * A standby's stores restore independently, so its applied seq does not prove that the store a read needs holds the
     * caller's write: a read with a min seq waits for the owner, even when the standby's applied seq is past it.
     */
    @Test
    void aReadWithAMinSeqIsRebalancingNotAStandbyAnswer() {
        for (long applied : new long[] {11, 12, 99}) {
            Route route = Route.decide("s", REMOTE, true, null, true, OptionalLong.of(applied), 12, SELF);

            assertThat(route)
                    .isInstanceOfSatisfying(
                            Route.Rebalancing.class,
                            r -> assertThat(r.message())
                                    .contains(RoutingHeaders.MIN_SEQ + " 12")
                                    .contains("not reachable"));
        }
        assertThat(Route.decide("s", MOVING, true, null, false, OptionalLong.empty(), 5, SELF))
                .as("nor forwarded to another standby")
                .isInstanceOf(Route.Rebalancing.class);
    }

    @Test
    void withoutACopyHereTheReadGoesOnceToAnotherStandby() {
        Route route = Route.decide("s", MOVING, true, null, false, OptionalLong.empty(), 0, SELF);

        assertThat(route).isInstanceOfSatisfying(Route.ToStandby.class, r -> {
            assertThat(r.standbys()).containsExactly(OTHER);
            assertThat(r.why()).contains("rebalancing");
        });
    }

    @Test
    void aForwardedReadIsNeverForwardedAgain() {
        Route moved = Route.decide("s", REMOTE, true, "api-9", false, OptionalLong.empty(), 0, SELF);
        Route noCopy = Route.decide("s", MOVING, true, "api-9", false, OptionalLong.empty(), 0, SELF);

        assertThat(moved)
                .isInstanceOfSatisfying(
                        Route.Rebalancing.class, r -> assertThat(r.message()).contains("api-9"));
        assertThat(noCopy).isInstanceOf(Route.Rebalancing.class);
        assertThat(Route.decide("s", REMOTE, true, "api-9", false, OptionalLong.of(4), 0, SELF))
                .as("a standby here still answers a forwarded read")
                .isEqualTo(new Route.ServeStandby(4));
    }

    @Test
    void writesQueriesAndContextNeedTheOwner() {
        Route unreachable = Route.decide("s", REMOTE, false, null, true, OptionalLong.of(50), 0, SELF);
        Route moving = Route.decide("s", MOVING, false, null, false, OptionalLong.of(50), 0, SELF);

        assertThat(unreachable)
                .isInstanceOfSatisfying(
                        Route.Rebalancing.class, r -> assertThat(r.message()).contains("search index"));
        assertThat(moving).isInstanceOf(Route.Rebalancing.class);
    }

    @Test
    void nobodyToReadFromIsRebalancing() {
        Route route = Route.decide(
                "s", SpaceOwner.unavailable(-1, "no metadata"), true, null, false, OptionalLong.empty(), 0, SELF);

        assertThat(route)
                .isInstanceOfSatisfying(
                        Route.Rebalancing.class,
                        r -> assertThat(r.message()).contains("no metadata").contains("no standby replica"));
    }

    @Test
    void aStandbyListNamingOnlyThisInstanceWithoutACopyHereIsRebalancing() {
        Route route = Route.decide("s", REMOTE, true, null, true, OptionalLong.empty(), 0, SELF);

        assertThat(route).isInstanceOf(Route.Rebalancing.class);
    }
}
