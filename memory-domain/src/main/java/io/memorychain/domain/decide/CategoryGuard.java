package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.CATEGORY_NOT_ALLOWED;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.category.CategoryPolicy;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Category allowlists on the write side (docs/architecture.md §13): an agent or sub-agent with an allowlist may write
 * only memories of its categories. Checked are the category a request writes (create, update, consolidate) and the
 * current category of every memory it changes (update, delete, restore, pin/protect, the inputs of a consolidation,
 * which also covers the category a consolidation inherits from its first input, both ends of a link or unlink). Blocks
 * have no category. Memories that do not exist are left to the decider (NOT_FOUND). Proposals: the category proposed
 * and a reviewer's category override; the reviewer's right to the proposal's own category is checked by the decider,
 * which knows the proposal.
 *
 * <p>Used by the sequencer, and by the API to refuse such a write before publishing it.
 */
public final class CategoryGuard {

    private final CategoryAccess access;

    public CategoryGuard(CategoryAccess access) {
        this.access = access;
    }

    public CategoryGuard(CategoryPolicy policy) {
        this(new CategoryAccess(policy));
    }

    /**
     * @param memories the current memory of the request's space by id, or null when there is none
     * @return the CATEGORY_NOT_ALLOWED rejection, or empty when the request may proceed
     */
    public Optional<Decision.Reject> check(MemoryRequest request, Function<String, Memory> memories) {
        Actor actor = request.getActor();
        if (access.allowedFor(actor).isEmpty()) {
            return Optional.empty();
        }
        Object op = request.getOp();
        if (op instanceof CreateMemory c) {
            return written(actor, c.getCategory());
        } else if (op instanceof UpdateMemory u) {
            return current(actor, u.getId(), memories).or(() -> written(actor, u.getCategory()));
        } else if (op instanceof ConsolidateMemories c) {
            return current(actor, c.getIds(), memories).or(() -> written(actor, c.getCategory()));
        } else if (op instanceof DeleteMemory d) {
            return current(actor, d.getId(), memories);
        } else if (op instanceof RestoreMemory r) {
            return current(actor, r.getId(), memories);
        } else if (op instanceof SetFlag f) {
            return current(actor, f.getId(), memories);
        } else if (op instanceof io.memorychain.avro.TransitionDecay t) {
            return current(actor, t.getId(), memories);
        } else if (op instanceof LinkMemories l) {
            return current(actor, List.of(l.getFromId(), l.getToId()), memories);
        } else if (op instanceof UnlinkMemories u) {
            return current(actor, List.of(u.getFromId(), u.getToId()), memories);
        } else if (op instanceof SubmitProposal s) {
            return written(actor, s.getProposal().getCategory());
        } else if (op instanceof ResolveProposal r) {
            return written(actor, r.getCategory()); // the proposal's own category: ProposalDecider
        }
        return Optional.empty();
    }

    /** CATEGORY_NOT_ALLOWED when the actor may not write a memory of that category (null category: allowed). */
    public Optional<Decision.Reject> written(Actor actor, String category) {
        return access.allows(actor, category)
                ? Optional.empty()
                : Optional.of(new Decision.Reject(CATEGORY_NOT_ALLOWED, access.notAllowed(actor, category)));
    }

    private Optional<Decision.Reject> current(Actor actor, List<String> ids, Function<String, Memory> memories) {
        for (String id : ids) {
            Optional<Decision.Reject> denied = current(actor, id, memories);
            if (denied.isPresent()) {
                return denied;
            }
        }
        return Optional.empty();
    }

    private Optional<Decision.Reject> current(Actor actor, String id, Function<String, Memory> memories) {
        Memory m = id == null ? null : memories.apply(id);
        if (m == null || access.allows(actor, m.getCategory())) {
            return Optional.empty();
        }
        return Optional.of(new Decision.Reject(
                CATEGORY_NOT_ALLOWED, "memory " + id + ": " + access.notAllowed(actor, m.getCategory())));
    }
}
