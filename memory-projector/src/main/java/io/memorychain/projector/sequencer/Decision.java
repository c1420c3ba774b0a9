package io.memorychain.projector.sequencer;

import io.memorychain.avro.Actor;
import io.memorychain.events.RejectionCode;
import java.util.List;
import java.util.Objects;

/** What the sequencer decided for one request: an event payload to append, or a rejection. */
public sealed interface Decision {

    /**
     * @param payload   the event payload (one of the MemoryEvent payload records)
     * @param memoryId  the memory created or changed (for proposals: see SubmitProposal / ResolveProposal)
     * @param version   that memory's version after the change (block version for blocks)
     * @param followUps further events of the same decision, in order (usually none)
     */
    record Accept(Object payload, String memoryId, int version, List<FollowUp> followUps) implements Decision {
        public Accept {
            Objects.requireNonNull(payload);
            Objects.requireNonNull(memoryId);
            followUps = List.copyOf(followUps);
        }

        public Accept(Object payload, String memoryId, int version) {
            this(payload, memoryId, version, List.of());
        }
    }

    /**
     * A further event of an accepted decision, appended right after the first one (next seq, same request id, same
     * transaction) under its own actor: e.g. the MemoryCreated of a committed proposal, by commit-from:PROPOSER.
     * The outcome's seq is the last event's.
     */
    record FollowUp(Object payload, Actor actor) {
        public FollowUp {
            Objects.requireNonNull(payload);
            Objects.requireNonNull(actor);
        }
    }

    record Reject(RejectionCode code, String message) implements Decision {
        public Reject {
            Objects.requireNonNull(code);
            Objects.requireNonNull(message);
        }
    }

    static Decision reject(RejectionCode code, String message) {
        return new Reject(code, message);
    }
}
