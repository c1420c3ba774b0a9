package io.memorychain.domain;

import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.DuplicateRemoval;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPinned;
import io.memorychain.avro.MemoryProtected;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUnpinned;
import io.memorychain.avro.MemoryUnprotected;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.RollbackApplied;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code evolve(state, event)}: the memory snapshots an event produces. Used by the sequencer for its write model and
 * by the projection for its views, so both see the same state. Pure: reads only the event and the prior snapshots.
 */
public final class Evolver {

    private Evolver() {}

    /**
     * @param event an event of the chain
     * @param current looks up the current snapshot of a memory of the event's space (null when unknown)
     * @return the changed snapshots, each as {@code before -> after} (before null for new memories)
     */
    public static List<Change> evolve(MemoryEvent event, Function<String, Memory> current) {
        Instant at = event.getOccurredAt();
        Object payload = event.getPayload();
        List<Change> changes = new ArrayList<>(2);
        if (payload instanceof MemoryCreated p) {
            changes.add(new Change(null, p.getMemory()));
        } else if (payload instanceof MemoryUpdated p) {
            changes.add(new Change(current.apply(p.getAfter().getId()), p.getAfter()));
        } else if (payload instanceof MemoriesConsolidated p) {
            for (String id : p.getSupersededIds()) {
                changes.add(change(current, id, at, m -> {
                    m.setState(MemoryState.SUPERSEDED);
                    m.setSupersededBy(p.getCreated().getId());
                }));
            }
            changes.add(new Change(null, p.getCreated()));
        } else if (payload instanceof MemoryDeleted p) {
            changes.add(change(current, p.getMemoryId(), at, m -> m.setState(MemoryState.SOFT_DELETED)));
        } else if (payload instanceof MemoryRestored p) {
            changes.add(change(current, p.getMemoryId(), at, m -> {
                m.setState(MemoryState.ACTIVE);
                m.setDecayStatus(DecayStatus.ACTIVE);
                m.setPurgeAt(null);
            }));
        } else if (payload instanceof DecayTransitioned p) {
            changes.add(keepingDecayClock(current, p.getMemoryId(), at, m -> {
                m.setDecayStatus(p.getTo());
                if (p.getTo() == DecayStatus.ARCHIVED) {
                    m.setState(MemoryState.ARCHIVED);
                }
            }));
        } else if (payload instanceof MemoryExpired p) {
            changes.add(keepingDecayClock(current, p.getMemoryId(), at, m -> {
                m.setState(MemoryState.SOFT_DELETED);
                m.setPurgeAt(p.getPurgeAt());
            }));
        } else if (payload instanceof MemoryPurged p) {
            changes.add(keepingDecayClock(current, p.getMemoryId(), at, m -> Purges.tombstone(m, at)));
        } else if (payload instanceof MemoryErased p) {
            changes.add(keepingDecayClock(current, p.getMemoryId(), at, m -> Purges.erase(m, at)));
            cascade(p, current, at, changes);
        } else if (payload instanceof MemoryProtected p) {
            changes.add(change(current, p.getMemoryId(), at, m -> m.setConstitutional(true)));
        } else if (payload instanceof MemoryUnprotected p) {
            changes.add(change(current, p.getMemoryId(), at, m -> m.setConstitutional(false)));
        } else if (payload instanceof MemoryPinned p) {
            changes.add(change(current, p.getMemoryId(), at, m -> m.setPinned(true)));
        } else if (payload instanceof MemoryUnpinned p) {
            changes.add(change(current, p.getMemoryId(), at, m -> m.setPinned(false)));
        } else if (payload instanceof BlockUpdated p) {
            if (p.getPreviousId() != null) {
                changes.add(change(current, p.getPreviousId(), at, m -> {
                    m.setState(MemoryState.SUPERSEDED);
                    m.setSupersededBy(p.getMemory().getId());
                }));
            }
            changes.add(new Change(null, p.getMemory()));
        } else if (payload instanceof DuplicatesRemoved p) {
            for (DuplicateRemoval r : p.getRemoved()) {
                changes.add(change(current, r.getMemoryId(), at, m -> m.setState(MemoryState.SOFT_DELETED)));
            }
        } else if (payload instanceof RefinementCompleted p) {
            changes.add(new Change(null, p.getJournal()));
        } else if (payload instanceof ProposalSubmitted || payload instanceof ProposalResolved) {
            // proposals change no memory (a committed one's memory comes in its own MemoryCreated event): see Proposals
        } else if (!(payload instanceof MemoriesLinked)
                && !(payload instanceof MemoriesUnlinked)
                && !(payload instanceof RefinementStarted)
                && !(payload instanceof RollbackApplied)
                && !(payload instanceof io.memorychain.avro.SigningKeyRotated)
                && !(payload instanceof io.memorychain.avro.SigningKeyCompromised)
                && !Reflections.isReflectionEvent(payload)
                && !Grants.isGrantEvent(payload)
                && !io.memorychain.domain.governance.Governance.isGovernanceEvent(payload)) {
            // relation edges, session starts, rollback headers (their restoring events follow) and the chain's key
            // events change no snapshot
            throw new IllegalArgumentException("Unknown payload "
                    + payload.getClass().getName() + " at " + event.getSpace() + "#" + event.getSeq());
        }
        return changes;
    }

    /**
     * The memories among an erasure's destroyed subjects (docs/architecture.md §12: memories consolidated from the
     * erased one, directly or in turn) are erased with it; each one's other inputs, superseded by it and not erased,
     * are active again, so that erasing one input does not take the others out of recall.
     */
    private static void cascade(
            MemoryErased erased, Function<String, Memory> current, Instant at, List<Change> changes) {
        List<Memory> derived = new ArrayList<>();
        Set<String> gone = new HashSet<>(List.of(erased.getMemoryId()));
        for (String subject : erased.getDestroyedSubjects()) {
            Memory m = current.apply(subject); // null: a proposal, reflection or session
            if (m != null && !Purges.isErased(m)) {
                derived.add(m);
                gone.add(subject);
                changes.add(keepingDecayClock(current, subject, at, x -> Purges.erase(x, at)));
            }
        }
        for (Memory m : derived) {
            for (String input : m.getSupersedes()) {
                Memory source = current.apply(input);
                if (source != null
                        && !gone.contains(input)
                        && source.getState() == MemoryState.SUPERSEDED
                        && m.getId().equals(source.getSupersededBy())
                        && !Purges.isPurged(source)) {
                    changes.add(keepingDecayClock(current, input, at, x -> {
                        x.setState(MemoryState.ACTIVE);
                        x.setSupersededBy(null);
                    }));
                }
            }
        }
    }

    /**
     * A change that reinforces the memory: its decay clock restarts at the event (decay_clock_at null = updated_at).
     */
    private static Change change(Function<String, Memory> current, String id, Instant at, Consumer<Memory> edit) {
        return change(current, id, at, edit, true);
    }

    /** A lifecycle change (decay transition, expiry): not an access, so the decay clock stays where it was. */
    private static Change keepingDecayClock(
            Function<String, Memory> current, String id, Instant at, Consumer<Memory> edit) {
        return change(current, id, at, edit, false);
    }

    private static Change change(
            Function<String, Memory> current, String id, Instant at, Consumer<Memory> edit, boolean reinforces) {
        Memory before = current.apply(id);
        if (before == null) {
            throw new IllegalStateException("Event refers to unknown memory " + id);
        }
        Memory after = Memory.newBuilder(before).build();
        edit.accept(after);
        after.setVersion(before.getVersion() + 1);
        after.setUpdatedAt(at);
        after.setDecayClockAt(reinforces ? null : decayClock(before));
        return new Change(before, after);
    }

    /**
     * Where a memory's decay clock starts (chain time): {@code decay_clock_at}, else {@code updated_at}. Never the
     * (possibly imported) {@code created_at}.
     */
    public static Instant decayClock(Memory memory) {
        return memory.getDecayClockAt() != null ? memory.getDecayClockAt() : memory.getUpdatedAt();
    }

    /** One memory's snapshot before and after an event. */
    public record Change(Memory before, Memory after) {}

    /**
     * The blocks the changes make active, as label -> memory id: the write model's and the views' "active block of a
     * label" index. A block stays the head of its label until a newer version supersedes it.
     */
    public static List<BlockHead> blockHeads(List<Change> changes) {
        List<BlockHead> heads = new ArrayList<>(1);
        for (Change change : changes) {
            Memory m = change.after();
            if (m.getKind() == MemoryKind.BLOCK && m.getState() == MemoryState.ACTIVE) {
                heads.add(new BlockHead(m.getBlockLabel(), m.getId()));
            }
        }
        return heads;
    }

    /** The active version of a block label. */
    public record BlockHead(String label, String memoryId) {}

    /** The relation edge an event adds or removes, if any. */
    public static Optional<Edge> edge(MemoryEvent event) {
        if (event.getPayload() instanceof MemoriesLinked l) {
            return Optional.of(new Edge(l.getFromId(), l.getToId(), l.getRelationType(), l.getStrength(), true));
        } else if (event.getPayload() instanceof MemoriesUnlinked u) {
            return Optional.of(new Edge(u.getFromId(), u.getToId(), u.getRelationType(), 0, false));
        }
        return Optional.empty();
    }

    /**
     * A directed relation edge {@code from -> to} added ({@code linked}) or removed.
     *
     * @param strength the edge's strength when linked; 0 when removed
     */
    public record Edge(String fromId, String toId, String type, double strength, boolean linked) {}
}
