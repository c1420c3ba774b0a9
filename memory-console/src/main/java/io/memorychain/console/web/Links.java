package io.memorychain.console.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Links of GET forms: a page's path with its parameters, so that a search or a filtered view is an address. */
public final class Links {

    private Links() {}

    /** {@code path} with the parameters that have a value, URL-encoded, in the map's order. */
    public static String withQuery(String path, Map<String, String> params) {
        StringBuilder url = new StringBuilder(path);
        char sep = '?';
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (p.getValue() != null) {
                url.append(sep)
                        .append(p.getKey())
                        .append('=')
                        .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
                sep = '&';
            }
        }
        return url.toString();
    }
}
