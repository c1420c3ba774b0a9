package io.memorychain.api.routing;

import java.util.Locale;
import java.util.Set;

/** The headers of routing between instances (docs/architecture.md §19, memory-api/README.md "Several instances"). */
public final class RoutingHeaders {

    /**
     * Set on a forwarded request to the forwarding instance's id. An instance that receives it serves the request
     * itself or answers 503 REBALANCING, never forwards again: a request travels at most one hop.
     */
    public static final String FORWARDED_BY = "X-Memory-Forwarded-By";
    /** On every answer for a space: the id of the instance whose views answered (the owner, also when forwarded). */
    public static final String SERVED_BY = "X-Memory-Served-By";
    /**
     * Optional on any call of a space: the {@code seq} of the caller's last write to it. The owner answers only once
     * its views have applied that seq (it waits up to {@code memory.write-timeout}, else 503 TIMEOUT), so a read after
     * a write sees it even when the space moved to another instance in between.
     */
    public static final String MIN_SEQ = "X-Memory-Min-Seq";

    /**
     * On an answer read from a standby replica of the space's views (docs/architecture.md §19), while its owner cannot
     * answer: {@value #STANDBY}. Absent on every answer of the owner.
     */
    public static final String SERVED_FROM = "X-Memory-Served-From";
    /** The value of {@link #SERVED_FROM} on a standby's answer. */
    public static final String STANDBY = "standby";
    /**
     * With {@link #SERVED_FROM}: the seq of the space the standby replica had applied when it answered (at least the
     * caller's {@link #MIN_SEQ}); later events of the space are not in the answer.
     */
    public static final String APPLIED_SEQ = "X-Memory-Applied-Seq";

    /**
     * Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the forwarding client sets itself; never copied across a hop,
     * in either direction.
     */
    private static final Set<String> NOT_FORWARDED = Set.of(
            "connection",
            "keep-alive",
            "proxy-authenticate",
            "proxy-authorization",
            "proxy-connection",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
            "host",
            "content-length",
            "expect",
            "http2-settings",
            // the owner answers uncompressed; this server compresses the relayed answer as it would its own
            "accept-encoding");

    private RoutingHeaders() {}

    /** Whether a header is copied to the owner (request) or back to the caller (response). */
    public static boolean crossesHop(String name) {
        return !NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT));
    }
}
