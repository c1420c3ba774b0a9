package io.memorychain.domain.governance;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The consent policy of profile fields (seed 004 §10) and the critical block labels (seed 001 §12.5), as configuration
 * (docs/architecture.md §21).
 *
 * @param sensitiveFields fields only the user changes (others queue a consent request); informational, since every
 *     field that is not benign is sensitive
 * @param benignFields fields that apply without consent when corroborated
 * @param criticalLabels block labels whose change by a non-user, non-admin, non-reflection actor raises an alert
 * @param consentWindow how long a consent request can be granted after it was requested (chain time)
 */
public record GovernancePolicy(
        Set<String> sensitiveFields, Set<String> benignFields, Set<String> criticalLabels, Duration consentWindow) {

    /** Profile field names: 1-64 of a-z 0-9 _, starting with a letter. */
    public static final Pattern FIELD = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public static final String FIELD_HINT = "1 to 64 characters from a-z 0-9 _, starting with a letter";
    /** Longest profile value (characters). */
    public static final int MAX_VALUE = 1_000;
    /** The ToM worker's actor id (worker:tom): with HIGH confidence its benign values apply at once. */
    public static final String TOM_WORKER = "tom";

    public static final Set<String> DEFAULT_SENSITIVE = Set.of("preferred_name", "pronouns", "city", "language");
    public static final Set<String> DEFAULT_BENIGN = Set.of("tone", "goals_add", "verbosity", "format");
    /**
     * Block labels that exist by default ({@code Rules.DEFAULT_BLOCK_LABELS}): the agent's persona and critical facts.
     */
    public static final Set<String> DEFAULT_CRITICAL_LABELS = Set.of("persona", "critical");

    public static final Duration DEFAULT_CONSENT_WINDOW = Duration.ofDays(7);

    public GovernancePolicy {
        sensitiveFields = normalise(sensitiveFields);
        benignFields = normalise(benignFields);
        criticalLabels = Set.copyOf(Objects.requireNonNull(criticalLabels, "criticalLabels"));
        for (String f : benignFields) {
            if (sensitiveFields.contains(f)) {
                throw new IllegalArgumentException("profile field '" + f + "' is configured both sensitive and benign");
            }
        }
        if (consentWindow == null || consentWindow.isNegative() || consentWindow.isZero()) {
            throw new IllegalArgumentException("consentWindow must be positive");
        }
    }

    public static GovernancePolicy defaults() {
        return new GovernancePolicy(DEFAULT_SENSITIVE, DEFAULT_BENIGN, DEFAULT_CRITICAL_LABELS, DEFAULT_CONSENT_WINDOW);
    }

    public static boolean isValidField(String field) {
        return field != null && FIELD.matcher(field).matches();
    }

    /** Configured sensitive, or unknown: everything that is not configured benign needs consent. */
    public boolean isSensitive(String field) {
        return !benignFields.contains(field);
    }

    public boolean isCritical(String label) {
        return label != null && criticalLabels.contains(label);
    }

    private static Set<String> normalise(Set<String> fields) {
        Objects.requireNonNull(fields, "fields");
        for (String f : fields) {
            if (!isValidField(f)) {
                throw new IllegalArgumentException("profile field '" + f + "' must be " + FIELD_HINT);
            }
        }
        return Set.copyOf(fields.stream().map(f -> f.toLowerCase(Locale.ROOT)).toList());
    }
}
