package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.CONSTITUTIONAL;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_IN_REFINEMENT;
import static io.memorychain.domain.RejectionCode.UNKNOWN_BLOCK_LABEL;
import static io.memorychain.domain.RejectionCode.VERSION_CONFLICT;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.AcknowledgeAlert;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.CompleteRefinement;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsentGrant;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecideConsent;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.EraseMemory;
import io.memorychain.avro.ExpireMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPinned;
import io.memorychain.avro.MemoryProtected;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUnpinned;
import io.memorychain.avro.MemoryUnprotected;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.avro.RecordGrantRead;
import io.memorychain.avro.RequestGrant;
import io.memorychain.avro.RequestReflection;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.RevokeGrant;
import io.memorychain.avro.RollbackSpace;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.SetProfileField;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.Tier;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.ContentHash;
import io.memorychain.domain.FieldChecks;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Rules;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code decide(request, state) -> payload | rejection}: every validation rule of the write side, as a pure function of
 * the request, the write model, the next seq of the space and the decision time.
 */
public final class Decider {

    private final WriteSettings settings;
    private final CategoryGuard categories;
    private final ProposalDecider proposals;
    private final ContradictionDecider contradictions;
    private final RefinementDecider refinements;
    private final LifecycleDecider lifecycle;
    private final RollbackDecider rollbacks = new RollbackDecider();
    private final ReflectionDecider reflections = new ReflectionDecider(this);
    private final GrantDecider grants = new GrantDecider();
    private final GovernanceDecider governance;
    private final CoreCapCheck coreCap;
    private final HeldChanges held;
    private final ConsolidationDecider consolidations;
    private final LinkDecider links = new LinkDecider();

    public Decider(WriteSettings settings) {
        this.settings = settings;
        this.categories = new CategoryGuard(settings.categories());
        this.proposals = new ProposalDecider(this, categories, settings.reviews());
        this.contradictions = new ContradictionDecider(proposals);
        this.refinements = new RefinementDecider(settings);
        this.lifecycle = new LifecycleDecider(settings.categories());
        this.governance = new GovernanceDecider(settings.governance());
        this.coreCap = new CoreCapCheck(settings.coreCap());
        this.held = new HeldChanges(this, settings.governance());
        this.consolidations = new ConsolidationDecider(this, settings.maxConsolidationInputs());
    }

    /**
     * The decision for the request; an accepted change of a critical block by an actor that is neither a user, an admin
     * nor an approved reflection is followed by its {@code CriticalChangeAlerted} (docs/architecture.md §21); a
     * decision that would take core memory over the space's cap is refused or opens a refinement session
     * ({@link CoreCapCheck}); a write of a sensitive profile field into the user_profile block or a profile-tagged
     * memory by anyone but the user is held for the user's consent ({@link HeldChanges}); a decision that leaves a side
     * of an open contradiction no longer active or open closes it as MOOT ({@link StaleContradictions}).
     */
    public Decision decide(MemoryRequest request, long seq, WriteModel model, Instant now) {
        return governance.withAlerts(
                request,
                seq,
                StaleContradictions.close(
                        request,
                        model,
                        coreCap.check(
                                request,
                                seq,
                                model,
                                now,
                                held.hold(request, seq, model, now, decideOne(request, seq, model, now)))));
    }

    /**
     * An approved reflection's archival ({@link ReflectionDecider}): the lifecycle's decay rules for a transition to
     * ARCHIVED (NOT_FOUND, INVALID_STATE for a memory not active, pinned or already archived, CONSTITUTIONAL,
     * INVALID_ARGUMENT for a block) and the decider's category allowlist, without the rule that only workers and admins
     * record decay transitions: the user approved it.
     */
    Decision archiveApproved(MemoryRequest request, WriteModel model) {
        Decision notAllowed = categories
                .check(request, id -> model.memory(request.getSpace(), id))
                .orElse(null);
        return notAllowed != null
                ? notAllowed
                : lifecycle.transitionApproved(request, model, (TransitionDecay) request.getOp());
    }

    /** The decision without the critical-change alerts (the reflection decider's changes: an approved reflection). */
    Decision decideOne(MemoryRequest request, long seq, WriteModel model, Instant now) {
        if (isBlank(request.getRequestId())) {
            return reject(INVALID_ARGUMENT, "request_id is required");
        }
        if (isBlank(request.getActor().getId())) {
            return reject(INVALID_ARGUMENT, "actor id is required");
        }
        if (!Rules.isValidSpace(request.getSpace())) {
            return reject(INVALID_ARGUMENT, "space must be " + Rules.SPACE_HINT);
        }
        if (request.getActor().getType() == ActorType.SUBAGENT && !(request.getOp() instanceof SubmitProposal)) {
            return reject(FORBIDDEN, "sub-agents cannot change memory directly; submit a proposal");
        }
        Decision notAllowed = categories
                .check(request, id -> model.memory(request.getSpace(), id))
                .orElse(null);
        if (notAllowed != null) {
            return notAllowed;
        }
        Decision outsideSession = refinements.checkSession(request, model);
        if (outsideSession != null) {
            return outsideSession;
        }
        DecideContext ctx = new DecideContext(request, seq, model, now);
        Object op = request.getOp();
        if (op instanceof CreateMemory c) {
            return create(ctx, c);
        } else if (op instanceof UpdateMemory u) {
            return update(ctx, u);
        } else if (op instanceof ConsolidateMemories c) {
            return consolidations.consolidate(ctx, c);
        } else if (op instanceof DeleteMemory d) {
            return delete(ctx, d);
        } else if (op instanceof RestoreMemory r) {
            return restore(ctx, r);
        } else if (op instanceof SetFlag f) {
            return setFlag(ctx, f);
        } else if (op instanceof UpdateBlock b) {
            return updateBlock(ctx, b);
        } else if (op instanceof LinkMemories l) {
            return links.link(ctx, l);
        } else if (op instanceof UnlinkMemories u) {
            return links.unlink(ctx, u);
        } else if (op instanceof SubmitProposal s) {
            return proposals.submit(request, seq, now, s);
        } else if (op instanceof ResolveProposal r) {
            return proposals.resolve(request, seq, model, now, r);
        } else if (op instanceof StartRefinement s) {
            return refinements.start(request, seq, model, s);
        } else if (op instanceof CompleteRefinement c) {
            return refinements.complete(request, seq, model, now, c);
        } else if (op instanceof TransitionDecay t) {
            return lifecycle.transition(request, model, t);
        } else if (op instanceof ExpireMemory e) {
            return lifecycle.expire(request, model, now, e);
        } else if (op instanceof PurgeMemory p) {
            return lifecycle.purge(request, model, now, p);
        } else if (op instanceof EraseMemory e) {
            return lifecycle.erase(request, model, e);
        } else if (op instanceof RollbackSpace r) {
            return rollbacks.decide(request, seq, model, now, r);
        } else if (op instanceof RequestReflection r) {
            return reflections.request(request, r);
        } else if (op instanceof ProposeReflection p) {
            return reflections.propose(request, seq, p);
        } else if (op instanceof DecideReflection d) {
            return reflections.decide(request, seq, model, now, d);
        } else if (op instanceof RequestGrant g) {
            return grants.request(request, seq, g);
        } else if (op instanceof ConsentGrant c) {
            return grants.consent(request, model, now, c);
        } else if (op instanceof RevokeGrant r) {
            return grants.revoke(request, model, now, r);
        } else if (op instanceof RecordGrantRead r) {
            return grants.read(request, model, now, r);
        } else if (op instanceof SetProfileField f) {
            return governance.setField(request, seq, model, now, f);
        } else if (op instanceof DecideConsent d) {
            return governance.decideConsent(request, seq, model, now, d, held);
        } else if (op instanceof AcknowledgeAlert a) {
            return governance.acknowledge(request, model, a);
        } else if (op instanceof io.memorychain.avro.FlagContradiction f) {
            return contradictions.flag(request, seq, model, f);
        } else if (op instanceof io.memorychain.avro.ResolveContradiction r) {
            return contradictions.resolve(request, seq, model, now, r);
        }
        return reject(
                INVALID_ARGUMENT,
                "unsupported operation " + (op == null ? "null" : op.getClass().getSimpleName()));
    }

    private Decision create(DecideContext ctx, CreateMemory c) {
        if (c.getKind() == MemoryKind.BLOCK) {
            return reject(INVALID_ARGUMENT, "blocks are written with UpdateBlock (PUT /blocks/{label})");
        }
        Decision invalid = firstProblem(
                checkContent(c.getContent()),
                checkImportance(c.getImportance()),
                checkTags(c.getTags()),
                checkLength("summary", c.getSummary(), Rules.MAX_SUMMARY),
                checkLength("category", c.getCategory(), Rules.MAX_SHORT_TEXT),
                checkLength("source", c.getSource(), Rules.MAX_SHORT_TEXT),
                checkLength("user_id", c.getUserId(), Rules.MAX_SHORT_TEXT),
                checkLength("agent_id", c.getAgentId(), Rules.MAX_SHORT_TEXT),
                checkLength("run_id", c.getRunId(), Rules.MAX_SHORT_TEXT),
                checkLength("actor_id", c.getActorId(), Rules.MAX_SHORT_TEXT),
                checkLength("thread_id", c.getThreadId(), Rules.MAX_SHORT_TEXT),
                checkLength("role", c.getRole(), Rules.MAX_SHORT_TEXT));
        if (invalid != null) {
            return invalid;
        }
        String id = MemoryIds.of(ctx.space(), ctx.seq());
        Memory memory = Memory.newBuilder()
                .setId(id)
                .setSpace(ctx.space())
                .setKind(c.getKind())
                .setTier(c.getTier())
                .setBlockLabel(null)
                .setCategory(c.getCategory())
                .setContent(c.getContent())
                .setSummary(c.getSummary())
                .setTags(List.copyOf(c.getTags()))
                .setImportance(c.getImportance())
                .setConfidence(c.getConfidence())
                .setSource(c.getSource())
                .setUserId(c.getUserId())
                .setAgentId(c.getAgentId())
                .setRunId(c.getRunId())
                .setActorId(c.getActorId())
                .setThreadId(c.getThreadId())
                .setRole(c.getRole())
                .setCreatedAt(c.getCreatedAt() == null ? ctx.decidedAt() : c.getCreatedAt())
                .setUpdatedAt(ctx.decidedAt())
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.of())
                .setPinned(c.getPinned())
                .setConstitutional(false)
                .setContentHash(ContentHash.of(c.getContent()))
                .build();
        return new Decision.Accept(new MemoryCreated(memory), id, 1);
    }

    private Decision update(DecideContext ctx, UpdateMemory u) {
        DecideContext.Lookup found = ctx.active(u.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory before = found.memory();
        if (before.getKind() == MemoryKind.BLOCK) {
            return reject(INVALID_ARGUMENT, "blocks are written with UpdateBlock (PUT /blocks/{label})");
        }
        Decision invalid = firstProblem(
                u.getContent() == null ? null : checkContent(u.getContent()),
                u.getImportance() == null ? null : checkImportance(u.getImportance()),
                u.getTags() == null ? null : checkTags(u.getTags()),
                checkLength("summary", u.getSummary(), Rules.MAX_SUMMARY),
                checkLength("category", u.getCategory(), Rules.MAX_SHORT_TEXT));
        if (invalid != null) {
            return invalid;
        }
        Memory after = Memory.newBuilder(before).build();
        if (u.getContent() != null) {
            after.setContent(u.getContent());
            after.setContentHash(ContentHash.of(u.getContent()));
        }
        setIfPresent(u.getSummary(), after::setSummary);
        setIfPresent(u.getTags(), t -> after.setTags(List.copyOf(t)));
        setIfPresent(u.getImportance(), after::setImportance);
        setIfPresent(u.getConfidence(), after::setConfidence);
        setIfPresent(u.getCategory(), after::setCategory);
        setIfPresent(u.getTier(), after::setTier);
        if (after.equals(before)) {
            return reject(INVALID_ARGUMENT, "the update changes nothing");
        }
        after.setVersion(before.getVersion() + 1);
        after.setUpdatedAt(ctx.decidedAt());
        after.setDecayClockAt(null); // a write reinforces: the decay clock restarts at updated_at
        return new Decision.Accept(new MemoryUpdated(before, after), after.getId(), after.getVersion());
    }

    private Decision delete(DecideContext ctx, DeleteMemory d) {
        DecideContext.Lookup found = ctx.existing(d.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Decision invalid = checkLength("reason", d.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        Memory m = found.memory();
        if (m.getConstitutional()) {
            return reject(CONSTITUTIONAL, "memory " + m.getId() + " is constitutional and cannot be deleted");
        }
        if (m.getKind() == MemoryKind.BLOCK) {
            return reject(INVALID_ARGUMENT, "memory " + m.getId() + " is a block; blocks are replaced, not deleted");
        }
        if (m.getState() == MemoryState.SOFT_DELETED || m.getState() == MemoryState.SUPERSEDED) {
            return reject(
                    INVALID_STATE,
                    "memory " + m.getId() + " is " + DecideContext.stateName(m) + " and cannot be deleted");
        }
        return new Decision.Accept(new MemoryDeleted(m.getId(), d.getReason()), m.getId(), m.getVersion() + 1);
    }

    private Decision restore(DecideContext ctx, RestoreMemory r) {
        DecideContext.Lookup found = ctx.existing(r.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        if (m.getState() != MemoryState.SOFT_DELETED && m.getState() != MemoryState.ARCHIVED) {
            return reject(
                    INVALID_STATE,
                    "only soft-deleted, expired or archived memories can be restored; " + m.getId() + " is "
                            + DecideContext.stateName(m));
        }
        return new Decision.Accept(new MemoryRestored(m.getId()), m.getId(), m.getVersion() + 1);
    }

    private Decision setFlag(DecideContext ctx, SetFlag f) {
        DecideContext.Lookup found = ctx.active(f.getId());
        if (found.rejection() != null) {
            return found.rejection();
        }
        Memory m = found.memory();
        boolean admin = ctx.request().getActor().getType() == ActorType.ADMIN;
        Object payload;
        if (f.getFlag() == MemoryFlag.CONSTITUTIONAL) {
            // a request carrying a session id got here only when that session is open (RefinementDecider.checkSession)
            if (f.getValue() && !admin && ctx.request().getSessionId() == null) {
                return reject(
                        NOT_IN_REFINEMENT, "memories can be protected only during a refinement session or by an admin");
            }
            if (!f.getValue() && !admin) {
                return reject(FORBIDDEN, "only an admin can unprotect a constitutional memory");
            }
            if (m.getConstitutional() == f.getValue()) {
                return reject(
                        INVALID_STATE,
                        "memory " + m.getId() + " is already " + (f.getValue() ? "protected" : "unprotected"));
            }
            payload = f.getValue() ? new MemoryProtected(m.getId()) : new MemoryUnprotected(m.getId());
        } else {
            if (m.getPinned() == f.getValue()) {
                return reject(
                        INVALID_STATE, "memory " + m.getId() + " is already " + (f.getValue() ? "pinned" : "unpinned"));
            }
            payload = f.getValue() ? new MemoryPinned(m.getId()) : new MemoryUnpinned(m.getId());
        }
        return new Decision.Accept(payload, m.getId(), m.getVersion() + 1);
    }

    private Decision updateBlock(DecideContext ctx, UpdateBlock b) {
        if (!settings.blockLabels().contains(b.getLabel())) {
            return reject(
                    UNKNOWN_BLOCK_LABEL,
                    "unknown block label '" + b.getLabel() + "'; known labels: "
                            + String.join(
                                    ", ",
                                    settings.blockLabels().stream().sorted().toList()));
        }
        Decision invalid = checkContent(b.getContent());
        if (invalid != null) {
            return invalid;
        }
        String previousId = ctx.model().activeBlock(ctx.space(), b.getLabel());
        Memory previous = previousId == null ? null : ctx.model().memory(ctx.space(), previousId);
        int currentVersion = previous == null ? 0 : previous.getVersion();
        Integer expected = ctx.request().getExpectedVersion();
        if (expected != null && expected != currentVersion) {
            return reject(
                    VERSION_CONFLICT,
                    "block " + b.getLabel() + " is at version " + currentVersion + ", expected " + expected);
        }
        int version = currentVersion + 1;
        String id = MemoryIds.of(ctx.space(), ctx.seq());
        Memory memory = Memory.newBuilder()
                .setId(id)
                .setSpace(ctx.space())
                .setKind(MemoryKind.BLOCK)
                .setTier(b.getCore() ? Tier.CORE : Tier.WORKING)
                .setBlockLabel(b.getLabel())
                .setCategory(null)
                .setContent(b.getContent())
                .setSummary(null)
                .setTags(List.of())
                .setImportance(5)
                .setConfidence(Confidence.HIGH)
                .setSource("block")
                .setUserId(null)
                .setAgentId(null)
                .setRunId(null)
                .setActorId(null)
                .setThreadId(null)
                .setRole(null)
                .setCreatedAt(previous == null ? ctx.decidedAt() : previous.getCreatedAt())
                .setUpdatedAt(ctx.decidedAt())
                .setVersion(version)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(previous == null ? List.of() : List.of(previous.getId()))
                .setPinned(previous != null && previous.getPinned())
                .setConstitutional(previous != null && previous.getConstitutional())
                .setContentHash(ContentHash.of(b.getContent()))
                .build();
        return new Decision.Accept(new BlockUpdated(b.getLabel(), version, previousId, memory), id, version);
    }

    Decision checkContent(String content) {
        return decision(FieldChecks.content("content", content, settings.maxContentBytes()));
    }

    static Decision checkImportance(int importance) {
        return decision(FieldChecks.importance(importance));
    }

    static Decision checkTags(List<String> tags) {
        return decision(FieldChecks.tags("tags", tags));
    }

    static Decision checkLength(String field, String value, int max) {
        return decision(FieldChecks.length(field, value, max));
    }

    private static Decision decision(Optional<FieldChecks.Problem> problem) {
        return problem.map(p -> reject(p.code(), p.message())).orElse(null);
    }

    static Decision firstProblem(Decision... checks) {
        for (Decision d : checks) {
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    private static <T> void setIfPresent(T value, java.util.function.Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
