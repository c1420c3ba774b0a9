package io.memorychain.api.config;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The rule every in-process worker's configuration shares ({@code memory.lifecycle}, {@code memory.tom},
 * {@code memory.consolidate}, {@code memory.reflect}): {@code enabled} unset means on exactly when this process runs
 * the embedded broker (against an external cluster the {@code memory-worker} command runs the job), and a setting the
 * job refuses is reported under the configuration's prefix.
 */
final class InProcessJobs {

    private InProcessJobs() {}

    /** Whether the job is wanted here: {@code enabled}, else only with the embedded broker. */
    static boolean wanted(Boolean enabled, boolean embedded) {
        return enabled != null ? enabled : embedded;
    }

    /**
     * The job's settings, or empty when it is not {@link #wanted}.
     *
     * @param prefix put before the message of an invalid setting, e.g. {@code "memory.reflect: "}
     */
    static <T> Optional<T> settings(Boolean enabled, boolean embedded, String prefix, Supplier<T> build) {
        return wanted(enabled, embedded) ? Optional.of(named(prefix, build)) : Optional.empty();
    }

    /** {@code build}, with an IllegalArgumentException's message prefixed by the property it concerns. */
    static <T> T named(String prefix, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + e.getMessage(), e);
        }
    }
}
