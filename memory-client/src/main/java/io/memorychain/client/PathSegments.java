package io.memorychain.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Path segments of the REST routes, encoded. */
final class PathSegments {

    private PathSegments() {}

    static String seg(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a path segment is missing");
        }
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A Markdown view path (facts/work.md): its slashes stay, each segment is encoded. */
    static String filePath(String path) {
        return Arrays.stream(path.split("/")).map(PathSegments::seg).collect(Collectors.joining("/"));
    }
}
