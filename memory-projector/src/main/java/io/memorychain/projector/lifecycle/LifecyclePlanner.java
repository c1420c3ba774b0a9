package io.memorychain.projector.lifecycle;

import io.memorychain.avro.DecayInputs;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.ExpireMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.domain.Purges;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.projector.retrieval.DecayModel;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * What the lifecycle worker asks for one memory at one instant: a pure function of the memory's snapshot (from the
 * chain), its read stats (from memory.access.v1) and the time.
 *
 * <ul>
 *   <li><b>TTL</b> first (docs/architecture.md §12): a memory of a category with a {@code ttl}, unread for that long,
 *       with importance below the category's threshold, neither pinned nor constitutional, active or archived, expires:
 *       {@code ExpireMemory}, request id {@code expire:<space>:<id>:<version>}.
 *   <li><b>Purge</b> (docs/architecture.md §12): a soft-deleted memory whose {@code purge_at} (set at expiry from the
 *       category's {@code purge_after}) has passed gets a {@code PurgeMemory}, request id
 *       {@code purge:<space>:<id>:<version>}. Without a purge_at (the default, seed 003) it is kept indefinitely.
 *   <li><b>Decay</b> (docs/architecture.md §7): an active memory whose score maps to another status gets a
 *       {@code TransitionDecay}, request id {@code decay:<space>:<id>:<version>:<to>}. Downwards one step per check
 *       (active, fading, dormant, archived: each transition is its own event, surfaced in the delta header); upwards
 *       (reinforced by reads) straight to the status the score gives. Constitutional memories are never archived (they
 *       stay dormant).
 * </ul>
 *
 * Blocks and pinned memories never decay. "Last access" is the later of the last read and the memory's decay clock
 * (chain time of its last reinforcing write), so an imported memory with an old created_at starts decaying when it
 * enters the chain. The request ids depend only on the chain coordinates (space, memory, version, target), so a
 * reprocessed check asks for the same thing under the same id and the sequencer answers it once.
 */
public final class LifecyclePlanner {

    private final LifecycleSettings settings;
    private final DecayModel decay;

    public LifecyclePlanner(LifecycleSettings settings) {
        this.settings = settings;
        this.decay = new DecayModel(settings.lambda());
    }

    /** One request to publish. */
    public record Planned(String requestId, Object op, int expectedVersion) {}

    public Optional<Planned> plan(String space, Memory m, AccessStats stats, Instant now) {
        if (m.getKind() == MemoryKind.BLOCK || m.getPinned()) {
            return Optional.empty();
        }
        Instant lastRead = stats == null ? null : stats.getLastAccessed();
        long reads = stats == null ? 0 : stats.getCount();
        Instant last = DecayModel.lastAccess(m, lastRead);
        if (m.getState() == MemoryState.SOFT_DELETED) {
            return purge(space, m, now);
        }
        Optional<Planned> expiry = expiry(space, m, last, now);
        if (expiry.isPresent() || m.getState() != MemoryState.ACTIVE || settings.lambda() == 0) {
            return expiry;
        }
        double days = DecayModel.days(last, now);
        double score = decay.score(m, days, reads);
        DecayStatus current = m.getDecayStatus();
        DecayStatus target = settings.thresholds().status(score);
        if (target.ordinal() > current.ordinal()) {
            target = DecayStatus.values()[current.ordinal() + 1];
        }
        if (target == current || (target == DecayStatus.ARCHIVED && m.getConstitutional())) {
            return Optional.empty();
        }
        DecayInputs inputs = new DecayInputs(
                last,
                now,
                days,
                reads,
                DecayModel.baseRelevance(m.getConfidence()),
                DecayModel.typeWeight(m),
                settings.lambda());
        return Optional.of(new Planned(
                decayRequestId(space, m.getId(), m.getVersion(), target),
                new TransitionDecay(m.getId(), target, score, inputs),
                m.getVersion()));
    }

    private Optional<Planned> expiry(String space, Memory m, Instant last, Instant now) {
        CategoryPolicy.Lifecycle lifecycle = settings.categories().lifecycle(m.getCategory());
        if (lifecycle.ttl() == null
                || m.getConstitutional()
                || m.getImportance() >= lifecycle.importanceBelow()
                || (m.getState() != MemoryState.ACTIVE && m.getState() != MemoryState.ARCHIVED)) {
            return Optional.empty();
        }
        Duration unread = Duration.between(last, now);
        if (unread.compareTo(lifecycle.ttl()) < 0) {
            return Optional.empty();
        }
        String reason = String.format(
                Locale.ROOT,
                "unread for %d days (category %s, ttl %s), importance %d < %d",
                unread.toDays(),
                m.getCategory(),
                lifecycle.ttl(),
                m.getImportance(),
                lifecycle.importanceBelow());
        return Optional.of(new Planned(
                expireRequestId(space, m.getId(), m.getVersion()),
                new ExpireMemory(m.getId(), last, reason),
                m.getVersion()));
    }

    private static Optional<Planned> purge(String space, Memory m, Instant now) {
        if (m.getPurgeAt() == null || Purges.isPurged(m) || m.getConstitutional() || now.isBefore(m.getPurgeAt())) {
            return Optional.empty();
        }
        String reason = "purge_at " + m.getPurgeAt() + " passed (category " + m.getCategory() + ")";
        return Optional.of(new Planned(
                purgeRequestId(space, m.getId(), m.getVersion()), new PurgeMemory(m.getId(), reason), m.getVersion()));
    }

    public static String purgeRequestId(String space, String memoryId, int version) {
        return "purge:" + space + ":" + memoryId + ":" + version;
    }

    public static String decayRequestId(String space, String memoryId, int version, DecayStatus to) {
        return "decay:" + space + ":" + memoryId + ":" + version + ":"
                + to.name().toLowerCase(Locale.ROOT);
    }

    public static String expireRequestId(String space, String memoryId, int version) {
        return "expire:" + space + ":" + memoryId + ":" + version;
    }
}
