package io.memorychain.domain;

import java.util.function.BinaryOperator;
import java.util.regex.Pattern;

/**
 * Rules of relation edges (docs/architecture.md §6): at most one edge per (from, to); the linker's {@value #SYMMETRIC}
 * edges are undirected, so one in either direction is the same edge. Typed edges (develops, uses, part-of, depends-on,
 * ...) are directed.
 */
public final class Relations {

    /** The untyped, symmetric relation the linker writes. */
    public static final String SYMMETRIC = "related_to";

    public static final Pattern TYPE_PATTERN = Pattern.compile("[a-z][a-z0-9_-]{0,63}");

    private Relations() {}

    public static boolean isValidType(String type) {
        return type != null && TYPE_PATTERN.matcher(type).matches();
    }

    /**
     * The type of an edge that a new edge {@code from -> to} of {@code type} would duplicate, or null.
     *
     * @param relation the type of the stored edge {@code (a, b)}, or null
     */
    public static String existing(BinaryOperator<String> relation, String from, String to, String type) {
        String forward = relation.apply(from, to);
        if (forward != null) {
            return forward;
        }
        String backward = relation.apply(to, from);
        return SYMMETRIC.equals(type) && SYMMETRIC.equals(backward) ? backward : null;
    }
}
