package io.memorychain.api.ops;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.Spaces;
import io.memorychain.projector.ops.OpsCounts;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * Counts of operational events by bucket, node, op and status (docs/architecture.md §6 {@code view-ops}): metadata, no
 * content, so every role may read them (admins too).
 */
@Singleton
public class OpsCountsService {

    /** Widest range: 31 days of hours, 400 days of days. */
    static final Duration MAX_HOURS = Duration.ofDays(31);

    static final Duration MAX_DAYS = Duration.ofDays(400);

    private final MemoryBackend backend;

    public OpsCountsService(MemoryBackend backend) {
        this.backend = backend;
    }

    /**
     * @param since ISO-8601, inclusive (of the bucket containing it); default until - 24 h
     * @param until ISO-8601, exclusive; default the end of the bucket holding now
     * @param bucket hour (default) or day
     */
    public OpsPage counts(String space, String since, String until, String bucket) {
        String s = Spaces.require(space);
        OpsCounts.Bucket width;
        try {
            width = bucket == null ? OpsCounts.Bucket.HOUR : OpsCounts.Bucket.parse(bucket);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid("bucket must be hour or day, was '" + bucket + "'");
        }
        Instant to = until == null ? width.end(backend.clock().instant()) : InputRules.instant("until", until);
        Instant from = since == null ? to.minus(Duration.ofDays(1)) : InputRules.instant("since", since);
        if (!from.isBefore(to)) {
            throw ApiException.invalid("since must be before until");
        }
        Duration max = width == OpsCounts.Bucket.HOUR ? MAX_HOURS : MAX_DAYS;
        if (Duration.between(from, to).compareTo(max) > 0) {
            throw ApiException.invalid("at most " + max.toDays() + " days of "
                    + width.name().toLowerCase(Locale.ROOT) + " buckets per call");
        }
        OpsCounts counts = backend.opsCounts()
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.UNAVAILABLE, "operational event counts are not kept on this instance"));
        List<OpsCounts.Count> found;
        try {
            found = counts.counts(s, from, to, width);
        } catch (InvalidStateStoreException e) {
            throw new ApiException(ErrorCodes.UNAVAILABLE, "the ops counts are being rebuilt; retry shortly");
        }
        return new OpsPage(
                s,
                from.toString(),
                to.toString(),
                width.name().toLowerCase(Locale.ROOT),
                found.stream()
                        .map(c -> new OpsBucket(c.start().toString(), c.node(), c.op(), c.status(), c.count()))
                        .toList());
    }

    /** One bucket's count. */
    @Serdeable
    @Schema(name = "OpsBucket")
    public record OpsBucket(
            @Schema(description = "bucket start, ISO-8601 UTC")
            String start,

            @Schema(description = "hotpath, context, episodic, worker or api")
            String node,

            @Schema(description = "search, create, update, merge, delete, link, ttl, purge, ...")
            String op,

            @Schema(description = "ok, error or skipped") String status,
            long count) {}

    /** The answer of {@code GET /v1/spaces/{space}/ops}. */
    @Serdeable
    @Schema(name = "OpsPage")
    public record OpsPage(String space, String since, String until, String bucket, List<OpsBucket> buckets) {}
}
