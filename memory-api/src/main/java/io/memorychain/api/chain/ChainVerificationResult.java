package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.events.chain.VerificationResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * {@code {"ok":true,"events":N}} or {@code {"ok":false,"events":N,"first_bad_seq":S,"problem":P,"message":M}}.
 *
 * @param events      events checked (up to and including the first bad one)
 * @param firstBadSeq the first seq that failed, when not ok
 * @param problem     BROKEN_LINK, BAD_HASH, BAD_SIGNATURE, GAP, DUPLICATE, ... when not ok
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ChainVerification")
public record ChainVerificationResult(
        boolean ok,
        long events,
        @Nullable @JsonProperty("first_bad_seq") Long firstBadSeq,
        @Nullable String problem,
        @Nullable String message) {

    public static ChainVerificationResult ok(long events) {
        return new ChainVerificationResult(true, events, null, null, null);
    }

    public static ChainVerificationResult broken(long events, long firstBadSeq, String problem, String message) {
        return new ChainVerificationResult(false, events, firstBadSeq, problem, message);
    }

    public static ChainVerificationResult of(VerificationResult r) {
        return r.ok() ? ok(r.events()) : broken(r.events(), r.firstBadSeq(), r.problem().name(), r.message());
    }
}
