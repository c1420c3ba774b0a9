package io.memorychain.projector.refinement;

import io.memorychain.avro.RefinementTrigger;

/** Told of every start request the refinement trigger publishes (progress logs, tests). */
@FunctionalInterface
public interface TriggerListener {

    TriggerListener NONE = (space, trigger, requestId) -> {};

    void triggered(String space, RefinementTrigger trigger, String requestId);
}
