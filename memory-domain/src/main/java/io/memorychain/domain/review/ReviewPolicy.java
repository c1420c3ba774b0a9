package io.memorychain.domain.review;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.ReviewMode;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How sub-agent proposals are reviewed (seed 001 §13.4, docs/architecture.md §10), per space and per proposer (the
 * sub-agent's key: its actor id): BATCH (the default: the main agent reviews pending proposals at session start or
 * end), MANUAL (a person decides, like reflections), AUTO_COMMIT (committed at once when the proposer is trusted and
 * the proposal's confidence reaches {@code minConfidence}; otherwise it waits like BATCH). The sequencer decides the
 * mode once, when the proposal is submitted, and records it on the chain, so a later configuration change never
 * re-decides it.
 *
 * @param defaultMode the mode of spaces and proposers without an override
 * @param spaces per-space modes, by space name
 * @param proposers per-proposer modes, by actor id (a proposer's override wins over its space's)
 * @param trusted actor ids whose proposals may be auto-committed
 * @param minConfidence the lowest confidence an auto-committed proposal may have (default HIGH)
 */
public record ReviewPolicy(
        ReviewMode defaultMode,
        Map<String, ReviewMode> spaces,
        Map<String, ReviewMode> proposers,
        Set<String> trusted,
        Confidence minConfidence) {

    public ReviewPolicy {
        Objects.requireNonNull(defaultMode, "defaultMode");
        Objects.requireNonNull(minConfidence, "minConfidence");
        spaces = Map.copyOf(spaces);
        proposers = Map.copyOf(proposers);
        trusted = Set.copyOf(trusted);
    }

    /** Batch review everywhere, nobody trusted. */
    public static ReviewPolicy defaults() {
        return new ReviewPolicy(ReviewMode.BATCH, Map.of(), Map.of(), Set.of(), Confidence.HIGH);
    }

    /** The configured mode for this proposer in this space (its own override, else the space's, else the default). */
    public ReviewMode configured(String space, String proposerId) {
        ReviewMode own = proposers.get(proposerId);
        if (own != null) {
            return own;
        }
        return spaces.getOrDefault(space, defaultMode);
    }

    /**
     * The mode this proposal gets: the configured one, except that AUTO_COMMIT falls back to BATCH for a proposer that
     * is not trusted or a confidence below the threshold.
     */
    public ReviewMode modeFor(String space, String proposerId, Confidence confidence) {
        ReviewMode mode = configured(space, proposerId);
        if (mode == ReviewMode.AUTO_COMMIT && !(trusted.contains(proposerId) && reaches(confidence))) {
            return ReviewMode.BATCH;
        }
        return mode;
    }

    /** HIGH reaches everything, LOW only LOW (the enum is ordered HIGH, MEDIUM, LOW). */
    boolean reaches(Confidence confidence) {
        return confidence != null && confidence.ordinal() <= minConfidence.ordinal();
    }

    /** batch, manual or auto_commit (also auto-commit), case-insensitive; IllegalArgumentException otherwise. */
    public static ReviewMode parseMode(String text) {
        String t = text == null ? "" : text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return ReviewMode.valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a review mode is batch, manual or auto_commit, not '" + text + "'");
        }
    }

    /** Parses {@code name=mode}; IllegalArgumentException naming the entry when malformed. */
    public static Map.Entry<String, ReviewMode> parseOverride(String entry) {
        int eq = entry == null ? -1 : entry.lastIndexOf('=');
        if (eq <= 0 || eq == entry.length() - 1) {
            throw new IllegalArgumentException(
                    "a review mode override is name=batch|manual|auto_commit, not '" + entry + "'");
        }
        return Map.entry(entry.substring(0, eq).strip(), parseMode(entry.substring(eq + 1)));
    }
}
