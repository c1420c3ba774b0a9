package io.memorychain.events;

/**
 * How long a consumer on a write's answer path lets the broker hold an empty fetch ({@code fetch.max.wait.ms}).
 *
 * <p>Every reader on that path reads committed data: the sequencer the publisher's requests, the publisher the
 * sequencer's outcomes, the projection its events, the data-key ring its keys. A broker completes a parked
 * read-committed fetch when its wait runs out rather than when a transaction's commit marker makes data visible, so
 * at Kafka's default (500 ms) each hop could add up to half a second: an acknowledged write over HTTP took ~600 ms.
 * A parked fetch also holds up every later request on the same connection (the broker answers a connection's
 * requests in order), such as the key ring's end-offset look-ups. At 20 ms an idle consumer sends ~50 empty fetches a
 * second, which the embedded broker answers at a small, measured cost (docs/benchmarks.md).
 */
public final class ReadLatency {

    /** {@code fetch.max.wait.ms} of the consumers on the write path. */
    public static final int FETCH_MAX_WAIT_MS = 20;

    private ReadLatency() {
    }
}
