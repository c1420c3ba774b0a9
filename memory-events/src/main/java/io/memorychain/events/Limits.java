package io.memorychain.events;

/**
 * Field limits of memory requests, shared by every place that validates them (the API before publishing, the
 * sequencer for requests published directly), so a request one accepts the other never rejects. Content size is
 * configurable (default 32 KiB) and lives in the sequencer settings.
 */
public final class Limits {

    /** category, source and the scope fields (user_id, agent_id, run_id, actor_id, thread_id, role). */
    public static final int MAX_SHORT_TEXT = 256;
    public static final int MAX_SUMMARY = 1_000;
    public static final int MAX_REASON = 2_000;
    public static final int MAX_TAGS = 100;
    public static final int MAX_TAG_LENGTH = 128;

    private Limits() {
    }
}
