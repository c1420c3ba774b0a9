package io.memorychain.domain.decide;

import io.memorychain.avro.Actor;
import io.memorychain.domain.RejectionCode;
import java.util.List;
import java.util.Objects;

/** What the sequencer decided for one request: an event payload to append, or a rejection. */
public sealed interface Decision {

    /**
     * One event to append. {@link AcceptAll} appends several in order; a single Accept is the common case.
     *
     * @param payload the event payload (one of the MemoryEvent payload records)
     * @param memoryId the memory created or changed (for proposals: see SubmitProposal / ResolveProposal); null for an
     *     event that changes no memory (a session start)
     * @param version that memory's version after the change (block version for blocks); ignored without memoryId
     * @param actor the event's actor; null for the request's actor (the usual case). Set for an event written on
     *     someone's behalf, e.g. the MemoryCreated of a committed proposal, by commit-from:PROPOSER
     */
    record Accept(Object payload, String memoryId, int version, Actor actor) implements Decision {
        public Accept {
            Objects.requireNonNull(payload);
        }

        public Accept(Object payload, String memoryId, int version) {
            this(payload, memoryId, version, null);
        }

        /** An event that changes no memory: its outcome names none. */
        static Accept withoutMemory(Object payload) {
            return new Accept(payload, null, 0);
        }
    }

    /**
     * Several events decided at once (a refinement start: its duplicate cleanup, then the start; a proposal commit: the
     * resolution by the reviewer, then the MemoryCreated by commit-from:PROPOSER), appended in order with consecutive
     * seqs, the same request id, in the same transaction; the outcome names the last one.
     */
    record AcceptAll(List<Accept> events) implements Decision {
        public AcceptAll {
            if (events == null || events.isEmpty()) {
                throw new IllegalArgumentException("at least one event");
            }
            events = List.copyOf(events);
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
