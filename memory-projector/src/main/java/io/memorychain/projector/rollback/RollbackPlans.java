package io.memorychain.projector.rollback;

import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackPlanner;
import io.memorychain.domain.rollback.RollbackSpec;
import io.memorychain.events.chain.SpaceChainReader;
import java.util.Objects;

/**
 * The dry run of a rollback (docs/architecture.md §17): reads the space's chain from the events topic and replays it
 * through the {@link RollbackPlanner}. Publishes nothing; the plan is applied by publishing
 * {@link RollbackPlan#toRequest(String)} as an admin.
 */
public final class RollbackPlans {

    private final SpaceChainReader reader;

    public RollbackPlans(SpaceChainReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /** Plans the rollback; {@code progress} hears the records read of the space's partition. */
    public RollbackPlan plan(String space, RollbackSpec spec, SpaceChainReader.Progress progress) {
        RollbackPlanner planner = new RollbackPlanner(space, spec);
        reader.read(space, planner::accept, progress);
        return planner.plan();
    }

    public RollbackPlan plan(String space, RollbackSpec spec) {
        return plan(space, spec, (read, total) -> {});
    }
}
