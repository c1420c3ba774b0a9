package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.ConsentDecision;
import io.memorychain.avro.ConsentRequested;
import io.memorychain.avro.ConsentResolved;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.avro.view.ConsentRequest;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.governance.GovernancePolicy;
import io.memorychain.domain.governance.ProfileFacts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Consent beyond the profile store (docs/architecture.md §21): a write by anyone but the user that would put a
 * sensitive profile field into the {@code user_profile} block (a {@code field: value} line added or changed) or into a
 * memory tagged {@code profile:<field>} (written, or committed from a proposal by a reviewer or the auto-commit mode)
 * is held as a {@code ConsentRequested} carrying the request as asked ({@code held_request}) instead of being applied.
 * The user's grant re-decides the held request, with the version it was decided against as its expected version: it
 * applies as asked, or the grant is refused with the re-decision's code (VERSION_CONFLICT when the block or memory
 * changed since) and the request stays pending. Deny and expiry drop it.
 */
final class HeldChanges {

    private final Decider decider;
    private final GovernancePolicy policy;

    HeldChanges(Decider decider, GovernancePolicy policy) {
        this.decider = decider;
        this.policy = policy;
    }

    /** The decision, or a ConsentRequested holding the request when it writes a sensitive field as someone else. */
    Decision hold(MemoryRequest request, long seq, WriteModel model, Instant now, Decision decision) {
        if (request.getActor().getType() == ActorType.USER) {
            return decision;
        }
        Object op = request.getOp();
        Held held = null;
        if ((op instanceof ResolveProposal || op instanceof SubmitProposal)
                && decision instanceof Decision.AcceptAll all) { // a commit, by a reviewer or the auto-commit mode
            held = all.events().stream()
                    .filter(e -> e.payload() instanceof MemoryCreated)
                    .findFirst()
                    .flatMap(e -> tagged(((MemoryCreated) e.payload()).getMemory(), null))
                    .orElse(null);
        } else if (!(decision instanceof Decision.Accept accept)) {
            return decision;
        } else if (op instanceof UpdateBlock
                && accept.payload() instanceof BlockUpdated b
                && ProfileFacts.PROFILE_BLOCK.equals(b.getLabel())) {
            Memory previous = b.getPreviousId() == null ? null : model.memory(request.getSpace(), b.getPreviousId());
            int base = previous == null ? 0 : previous.getVersion();
            held = ProfileFacts.blockChange(
                            policy,
                            previous == null ? null : previous.getContent(),
                            b.getMemory().getContent())
                    .map(c -> new Held(c.field(), c.value(), c.previous(), "block:" + b.getLabel(), base))
                    .orElse(null);
        } else if (op instanceof CreateMemory && accept.payload() instanceof MemoryCreated c) {
            held = tagged(c.getMemory(), null).orElse(null);
        } else if (op instanceof UpdateMemory && accept.payload() instanceof MemoryUpdated u) {
            boolean tagAdded = !ProfileFacts.taggedFields(u.getAfter().getTags())
                    .equals(ProfileFacts.taggedFields(u.getBefore().getTags()));
            boolean contentChanged =
                    !u.getAfter().getContent().equals(u.getBefore().getContent());
            held = tagAdded || contentChanged
                    ? tagged(u.getAfter(), u.getBefore()).orElse(null)
                    : null;
        }
        if (held == null) {
            return decision;
        }
        MemoryRequest asked = MemoryRequest.newBuilder(request)
                .setExpectedVersion(held.baseVersion() != null ? held.baseVersion() : request.getExpectedVersion())
                .build();
        String id = MemoryIds.consent(request.getSpace(), seq);
        ConsentRequested requested = ConsentRequested.newBuilder()
                .setConsentId(id)
                .setField(held.field())
                .setValue(held.value())
                .setPrevious(held.previous())
                .setSource(held.source())
                .setExpiresAt(now.plus(policy.consentWindow()))
                .setReason("held " + describe(op) + ": sets " + held.field() + " without the user's consent")
                .setHeldRequest(encode(asked))
                .build();
        return new Decision.Accept(requested, id, 1);
    }

    /**
     * The user's grant of a held write: {@code ConsentResolved GRANTED} and the held request's events (on behalf of its
     * asker), or the held request's rejection (the request stays pending: it can still be denied).
     */
    Decision grant(MemoryRequest grant, long seq, WriteModel model, Instant now, ConsentRequest c, String reason) {
        MemoryRequest asked = decode(c.getHeldRequest());
        MemoryRequest again = MemoryRequest.newBuilder(asked)
                .setRequestId(grant.getRequestId())
                .setRequestedAt(grant.getRequestedAt())
                .setSessionId(null)
                .build();
        Decision applied = decider.decideOne(again, seq + 1, model, now);
        if (applied instanceof Decision.Reject r) {
            return reject(
                    r.code(),
                    "consent request " + c.getId() + " holds a change that no longer applies as asked (" + r.message()
                            + "); deny it, and ask again if still wanted");
        }
        List<Decision.Accept> events = new ArrayList<>();
        events.add(Decision.Accept.withoutMemory(
                new ConsentResolved(c.getId(), c.getField(), ConsentDecision.GRANTED, reason)));
        List<Decision.Accept> changes =
                applied instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) applied);
        for (Decision.Accept e : changes) {
            events.add(new Decision.Accept(
                    e.payload(), e.memoryId(), e.version(), e.actor() != null ? e.actor() : asked.getActor()));
        }
        return new Decision.AcceptAll(events);
    }

    private Optional<Held> tagged(Memory after, Memory before) {
        return ProfileFacts.taggedSensitive(policy, after.getTags())
                .map(field -> new Held(
                        field,
                        abbreviate(after.getContent()),
                        before == null ? null : abbreviate(before.getContent()),
                        "memory:" + ProfileFacts.TAG_PREFIX + field,
                        before == null ? null : before.getVersion()));
    }

    private static String abbreviate(String text) {
        return text.length() <= GovernancePolicy.MAX_VALUE
                ? text
                : text.substring(0, GovernancePolicy.MAX_VALUE - 1) + "…";
    }

    private static String describe(Object op) {
        if (op instanceof UpdateBlock b) {
            return "edit of block " + b.getLabel();
        } else if (op instanceof ResolveProposal r) {
            return "commit of proposal " + r.getProposalId();
        } else if (op instanceof SubmitProposal) {
            return "auto-committed proposal";
        }
        return op instanceof CreateMemory ? "new memory" : "memory update of " + ((UpdateMemory) op).getId();
    }

    private record Held(String field, String value, String previous, String source, Integer baseVersion) {}

    static ByteBuffer encode(MemoryRequest request) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>(MemoryRequest.class).write(request, encoder);
            encoder.flush();
            return ByteBuffer.wrap(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MemoryRequest decode(ByteBuffer bytes) {
        ByteBuffer b = bytes.duplicate();
        b.rewind();
        byte[] raw = new byte[b.remaining()];
        b.get(raw);
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(raw, null);
            return new SpecificDatumReader<>(MemoryRequest.class).read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
