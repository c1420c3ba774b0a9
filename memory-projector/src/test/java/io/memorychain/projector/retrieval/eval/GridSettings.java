package io.memorychain.projector.retrieval.eval;

import java.util.Arrays;

/**
 * The fusion settings a grid runs: its built-in ones, or {@code -Dgrid.settings="kw,prev,next,depth,cand,covered;..."}
 * (keyword weight, previous / next turn shares, simulated depth, candidates, keyword weight when covered).
 */
final class GridSettings {

    private GridSettings() {}

    static double[][] of(double[][] builtIn) {
        String given = System.getProperty("grid.settings");
        if (given == null || given.isBlank()) {
            return builtIn;
        }
        return Arrays.stream(given.split(";"))
                .map(s -> Arrays.stream(s.split(","))
                        .map(String::strip)
                        .mapToDouble(Double::parseDouble)
                        .toArray())
                .toArray(double[][]::new);
    }
}
