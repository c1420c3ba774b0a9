package io.memorychain.projector.sequencer;

import io.memorychain.events.RejectionCode;
import java.util.Objects;

/** What the sequencer decided for one request: an event payload to append, or a rejection. */
public sealed interface Decision {

    /**
     * @param payload  the event payload (one of the MemoryEvent payload records)
     * @param memoryId the memory created or changed
     * @param version  that memory's version after the change (block version for blocks)
     */
    record Accept(Object payload, String memoryId, int version) implements Decision {
        public Accept {
            Objects.requireNonNull(payload);
            Objects.requireNonNull(memoryId);
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
