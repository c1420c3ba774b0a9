package io.memorychain.jobs.consolidate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runs {@link ConsolidateBenchmark} inside surefire's JVM (where the embedder's native libraries load), only when
 * {@code -Dconsolidate.bench=N[,MAX_PAIRS]} is given: it prints figures and asserts nothing.
 */
class ConsolidateBenchmarkRun {

    @Test
    @EnabledIfSystemProperty(named = "consolidate.bench", matches = ".+")
    void printFigures() {
        ConsolidateBenchmark.main(System.getProperty("consolidate.bench").split(","));
    }
}
