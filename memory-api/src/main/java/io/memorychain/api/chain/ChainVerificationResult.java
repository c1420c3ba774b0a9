package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.events.chain.VerificationResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * {@code {"ok":true,"events":N,"suspects":[]}} (with {@code "resumed_after_seq":S} when it continued an earlier
 * verification) or {@code {"ok":false,"events":N,"first_bad_seq":S,"problem":P,"message":M}}.
 *
 * @param events events checked (up to and including the first bad one)
 * @param firstBadSeq the first seq that failed, when not ok
 * @param problem BROKEN_LINK, BAD_HASH, BAD_SIGNATURE, GAP, DUPLICATE, ... when not ok
 * @param resumedAfterSeq when this verification continued after a head this instance had verified before (the events up
 *     to it were verified then, from seq 1): that seq; null when it read the whole chain
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ChainVerification")
public record ChainVerificationResult(
        boolean ok,
        long events,

        @Nullable @Schema(name = "first_bad_seq") @JsonProperty("first_bad_seq")
        Long firstBadSeq,

        @Nullable String problem,
        @Nullable String message,

        @Nullable @Schema(name = "resumed_after_seq") @JsonProperty("resumed_after_seq")
        Long resumedAfterSeq,

        @JsonInclude(JsonInclude.Include.ALWAYS)
        @Schema(
                description = "Events signed by a key marked compromised "
                        + "after the seq it is trusted up to "
                        + "(docs/architecture.md §4): reported, not a break; empty when none")
        java.util.List<Suspect> suspects) {

    public ChainVerificationResult {
        suspects = suspects == null ? java.util.List.of() : java.util.List.copyOf(suspects);
    }

    /**
     * Seqs {@code from_seq..to_seq} signed by {@code key_id}, marked compromised after {@code trusted_up_to} at
     * {@code marked_at_seq}.
     */
    @Serdeable
    @Schema(name = "SuspectEvents")
    public record Suspect(
            @Schema(name = "key_id") @JsonProperty("key_id") String keyId,

            @Schema(name = "from_seq") @JsonProperty("from_seq")
            long fromSeq,

            @Schema(name = "to_seq") @JsonProperty("to_seq") long toSeq,

            @Schema(name = "trusted_up_to") @JsonProperty("trusted_up_to")
            long trustedUpTo,

            @Schema(name = "marked_at_seq") @JsonProperty("marked_at_seq")
            long markedAtSeq) {}

    public static ChainVerificationResult ok(long events) {
        return new ChainVerificationResult(true, events, null, null, null, null, null);
    }

    public static ChainVerificationResult broken(long events, long firstBadSeq, String problem, String message) {
        return new ChainVerificationResult(false, events, firstBadSeq, problem, message, null, null);
    }

    /** This result, noting that it continued after the head at {@code seq} verified earlier. */
    public ChainVerificationResult resumedAfter(long seq) {
        return new ChainVerificationResult(ok, events, firstBadSeq, problem, message, seq, suspects);
    }

    public static ChainVerificationResult of(VerificationResult r) {
        java.util.List<Suspect> suspects = r.suspects().stream()
                .map(s -> new Suspect(s.keyId(), s.fromSeq(), s.toSeq(), s.trustedUpTo(), s.markedAtSeq()))
                .toList();
        return r.ok()
                ? new ChainVerificationResult(true, r.events(), null, null, null, null, suspects)
                : new ChainVerificationResult(
                        false, r.events(), r.firstBadSeq(), r.problem().name(), r.message(), null, suspects);
    }
}
