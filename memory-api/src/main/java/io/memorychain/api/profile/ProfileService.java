package io.memorychain.api.profile;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.DecideConsent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.SetProfileField;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.Rules;
import io.memorychain.domain.governance.Governance;
import io.memorychain.domain.governance.GovernancePolicy;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The user profile and its consent requests (docs/architecture.md §21, seed 004 §10), transport-neutral. Who may change
 * what, and when a change applies, are the sequencer's rules ({@code GovernanceDecider}); this class checks the input
 * before anything is published and writes through the {@link WriteExecutor} (read-your-writes).
 */
@Singleton
public class ProfileService {

    /** What a {@code PUT /profile/{field}} did. */
    public enum Result {
        /** The field changed (the user, a grant, corroboration or ToM with HIGH confidence). */
        APPLIED,
        /** A sensitive change by someone else: a consent request awaits the user. */
        CONSENT_REQUESTED,
        /** A benign value from one signal: it waits for a second, distinct one. */
        AWAITING_CORROBORATION
    }

    /** The answer of a profile write. */
    public record Written(Result result, MemoryOutcome outcome, SpaceGovernance governance) {}

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final GovernancePolicy policy;

    public ProfileService(ChainReads backend, WriteExecutor writes, GovernancePolicy policy) {
        this.backend = backend;
        this.writes = writes;
        this.policy = policy;
    }

    public GovernancePolicy policy() {
        return policy;
    }

    public SpaceGovernance governance(String space) {
        return backend.views().governance(space);
    }

    /** The profile: every field and the benign values awaiting corroboration. */
    public ProfileJson profile(String space) {
        return ProfileJson.of(governance(space), policy::isSensitive);
    }

    /** One field; 404 NOT_FOUND when it is not set. */
    public ProfileJson.Field field(String space, String field) {
        checkField(field);
        return Governance.field(governance(space), field)
                .map(f -> ProfileJson.field(f, policy::isSensitive))
                .orElseThrow(() -> ApiException.notFound("profile field '" + field + "' is not set in space " + space));
    }

    /**
     * Sets a field: applied at once for the user; else by the consent policy (a consent request for sensitive fields,
     * corroboration for benign ones). 400 INVALID_ARGUMENT for a malformed field or value, 409 INVALID_STATE when the
     * field already has the value (or the same signal repeats, or the same value already awaits consent).
     */
    public Written set(WriteContext ctx, String field, String value, String source, String confidence, String reason) {
        checkField(field);
        if (value == null || value.isBlank()) {
            throw ApiException.invalid("value is required and must not be blank");
        }
        if (value.length() > GovernancePolicy.MAX_VALUE) {
            throw ApiException.invalid("value is at most " + GovernancePolicy.MAX_VALUE + " characters");
        }
        if (source != null && source.length() > Rules.MAX_SHORT_TEXT) {
            throw ApiException.invalid("source is at most " + Rules.MAX_SHORT_TEXT + " characters");
        }
        if (reason != null && reason.length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        Confidence c = confidence == null ? Confidence.MEDIUM : Enums.parse(Confidence.class, "confidence", confidence);
        MemoryOutcome outcome = writes.apply(
                ctx,
                SetProfileField.newBuilder()
                        .setField(field)
                        .setValue(value)
                        .setSource(source)
                        .setConfidence(c)
                        .setReason(reason)
                        .build());
        SpaceGovernance g = governance(ctx.space());
        Result result;
        if (outcome.getMemoryId() != null
                && Governance.consent(g, outcome.getMemoryId()).isPresent()) {
            result = Result.CONSENT_REQUESTED;
        } else if (Governance.field(g, field)
                .map(f -> f.getSetSeq() == outcome.getSeq())
                .orElse(false)) {
            result = Result.APPLIED;
        } else {
            result = Result.AWAITING_CORROBORATION;
        }
        return new Written(result, outcome, g);
    }

    /** A profile write as every transport answers it. */
    public ProfileWriteJson answer(Written w) {
        return new ProfileWriteJson(
                w.result().name().toLowerCase(Locale.ROOT),
                w.outcome().getSeq(),
                w.result() == Result.CONSENT_REQUESTED ? w.outcome().getMemoryId() : null,
                ProfileJson.of(w.governance(), policy::isSensitive));
    }

    /** Consent requests, oldest first; {@code status} (pending, granted, denied, expired) filters, null for all. */
    public List<ConsentJson> consents(String space, String status) {
        ConsentStatus wanted =
                status == null || status.isBlank() ? null : Enums.parse(ConsentStatus.class, "status", status);
        Instant asOf = backend.clock().instant();
        return governance(space).getConsents().stream()
                .map(c -> ConsentJson.of(c, asOf))
                .filter(c -> wanted == null || c.status().equals(Enums.json(wanted)))
                .toList();
    }

    /**
     * The user grants or denies a consent request; answers it as decided. 404 NOT_FOUND (unknown or another space's
     * id), 403 FORBIDDEN (not the user), 409 ALREADY_RESOLVED, 409 EXPIRED (a grant after the window).
     */
    public ConsentJson decide(WriteContext ctx, String id, Boolean grant, String reason) {
        if (grant == null) {
            throw ApiException.invalid("grant (true or false) is required");
        }
        if (reason != null && reason.length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        if (!PathIds.plausible(id)
                || Governance.consent(governance(ctx.space()), id).isEmpty()) {
            throw ApiException.notFound("No consent request '" + Texts.abbreviate(id) + "' in space " + ctx.space());
        }
        writes.apply(ctx, new DecideConsent(id, grant, reason));
        return Governance.consent(governance(ctx.space()), id)
                .map(c -> ConsentJson.of(c, backend.clock().instant()))
                .orElseThrow();
    }

    private static void checkField(String field) {
        if (!GovernancePolicy.isValidField(field)) {
            throw ApiException.invalid("profile field must be " + GovernancePolicy.FIELD_HINT + ", was '"
                    + Texts.abbreviate(String.valueOf(field)) + "'");
        }
    }
}
