package io.memorychain.domain;

import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one set of names, limits and defaults of the write model. The API checks a request against these before it
 * publishes anything, and the sequencer checks requests published directly against the same values, so a request one
 * accepts the other never rejects for its shape (docs/architecture.md §3, §5).
 */
public final class Rules {

    /** Space names: 1-128 characters of letters, digits, '.', '_' and '-', starting with a letter or digit. */
    public static final Pattern SPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    /** How a valid space name looks, for error messages. */
    public static final String SPACE_HINT =
            "1 to 128 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit";

    /** category, source and the scope fields (user_id, agent_id, run_id, actor_id, thread_id, role). */
    public static final int MAX_SHORT_TEXT = 256;

    public static final int MAX_SUMMARY = 1_000;
    public static final int MAX_REASON = 2_000;
    public static final int MAX_TAGS = 100;
    public static final int MAX_TAG_LENGTH = 128;

    /** Memory, proposal and session ids the server can mint: anything else is simply not found. */
    public static final Pattern PLAUSIBLE_ID = Pattern.compile("[A-Za-z0-9._~-]{1,128}");

    public static final int DEFAULT_MAX_CONTENT_BYTES = 32 * 1024;
    public static final int DEFAULT_MAX_CONSOLIDATION_INPUTS = 100;
    public static final Duration DEFAULT_REQUEST_ID_RETENTION = Duration.ofDays(7);
    public static final Set<String> DEFAULT_BLOCK_LABELS =
            Set.of("persona", "user_profile", "goals", "knowledge", "critical");

    /** The core-memory token budget a refinement session asks the agent to reach, unless the request names one. */
    public static final int DEFAULT_TARGET_TOKENS = 5_000;

    public static final int MAX_TARGET_TOKENS = 1_000_000;

    private Rules() {}

    public static boolean isValidSpace(String space) {
        return space != null && SPACE.matcher(space).matches();
    }

    public static boolean isPlausibleId(String id) {
        return id != null && PLAUSIBLE_ID.matcher(id).matches();
    }

    public static boolean isValidTargetTokens(int tokens) {
        return tokens >= 1 && tokens <= MAX_TARGET_TOKENS;
    }
}
