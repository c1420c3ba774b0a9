package io.memorychain.domain.core;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The hard cap on a space's core memory (seed 001 §4: "always loaded, hard-capped at 3,000 tokens"), counted as the
 * core view counts it (the formatted core text, cl100k_base). A space without an override gets the default.
 *
 * @param defaultCap the cap of spaces without an override
 * @param spaces per-space overrides, by space name
 */
public record CoreCapPolicy(Cap defaultCap, Map<String, Cap> spaces) {

    public static final int DEFAULT_CAP_TOKENS = 3_000;

    /** What the sequencer does with a change that would take the core over its cap. */
    public enum OverCap {
        /** Refuse it with {@code BUDGET_EXCEEDED}, naming the cap and the current size. */
        REJECT,
        /** Accept it and open a refinement session in the same decision (unless one is open already). */
        REFINE;

        public static OverCap parse(String text) {
            try {
                return valueOf(text.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("over-cap must be reject or refine, not '" + text + "'");
            }
        }
    }

    /**
     * @param tokens the cap in tokens; 0 means no cap
     * @param overCap what a change over it does
     */
    public record Cap(int tokens, OverCap overCap) {
        public Cap {
            if (tokens < 0) {
                throw new IllegalArgumentException(
                        "a core cap is 0 (none) or a positive number of tokens, not " + tokens);
            }
            Objects.requireNonNull(overCap, "overCap");
        }

        public boolean capped() {
            return tokens > 0;
        }
    }

    public CoreCapPolicy {
        Objects.requireNonNull(defaultCap, "defaultCap");
        spaces = Map.copyOf(spaces);
    }

    /** The cap of this space. */
    public Cap forSpace(String space) {
        return spaces.getOrDefault(space, defaultCap);
    }

    /** 3,000 tokens, over-cap changes refused, no overrides. */
    public static CoreCapPolicy defaults() {
        return new CoreCapPolicy(new Cap(DEFAULT_CAP_TOKENS, OverCap.REJECT), Map.of());
    }

    /** No cap in any space. */
    public static CoreCapPolicy none() {
        return new CoreCapPolicy(new Cap(0, OverCap.REJECT), Map.of());
    }

    /**
     * Parses one override, {@code space=tokens} or {@code space=tokens:refine} / {@code :reject} (the default's
     * over-cap mode when omitted); IllegalArgumentException naming the entry when malformed.
     */
    public static Map.Entry<String, Cap> parseOverride(String entry, OverCap defaultMode) {
        int eq = entry == null ? -1 : entry.lastIndexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException(
                    "a core cap override is space=tokens[:reject|:refine], not '" + entry + "'");
        }
        String space = entry.substring(0, eq).strip();
        String rest = entry.substring(eq + 1).strip();
        OverCap mode = defaultMode;
        int colon = rest.indexOf(':');
        if (colon >= 0) {
            mode = OverCap.parse(rest.substring(colon + 1));
            rest = rest.substring(0, colon).strip();
        }
        int tokens;
        try {
            tokens = Integer.parseInt(rest);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "a core cap override is space=tokens[:reject|:refine], not '" + entry + "'");
        }
        return Map.entry(space, new Cap(tokens, mode));
    }
}
