package io.memorychain.client;

/**
 * The options of one write.
 *
 * @param idempotencyKey the request id (null: a fresh UUID per call, reused by its retries); the same key on a later
 *     call returns the first outcome and applies nothing twice
 * @param ifMatch the version the change expects ({@code If-Match}; an ETag of a read), or null
 */
public record Write(String idempotencyKey, String ifMatch) {

    public static final Write DEFAULT = new Write(null, null);

    /** Expect this version (VERSION_CONFLICT when the thing has another). */
    public static Write ifMatch(long version) {
        return new Write(null, "\"" + version + "\"");
    }

    /** Expect the version an ETag names. */
    public static Write ifMatch(String etag) {
        return new Write(null, etag);
    }

    public static Write idempotencyKey(String key) {
        return new Write(key, null);
    }

    public Write withIdempotencyKey(String key) {
        return new Write(key, ifMatch);
    }
}
