package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Optimistic concurrency: {@code expected_version} in the body or an {@code If-Match} header carrying the version as an
 * entity tag ({@code "3"}, {@code W/"3"} or {@code 3}); {@code *} means "any version". GET answers carry the version in
 * {@code ETag}.
 */
public final class ExpectedVersions {

    public static final String IF_MATCH = "If-Match";
    private static final Pattern ETAG = Pattern.compile("(?:W/)?\"?([0-9]{1,9})\"?");

    private ExpectedVersions() {}

    /** The expected version, or null when neither is given; both given must agree. */
    public static Integer resolve(Integer fromBody, String ifMatch) {
        if (fromBody != null && fromBody < 1) {
            throw ApiException.invalid("expected_version must be at least 1, was " + fromBody);
        }
        Integer fromHeader = parseIfMatch(ifMatch);
        if (fromBody != null && fromHeader != null && !fromBody.equals(fromHeader)) {
            throw ApiException.invalid("expected_version " + fromBody + " and If-Match " + fromHeader + " disagree");
        }
        return fromBody != null ? fromBody : fromHeader;
    }

    static Integer parseIfMatch(String ifMatch) {
        if (ifMatch == null || ifMatch.isBlank() || ifMatch.trim().equals("*")) {
            return null;
        }
        Matcher m = ETAG.matcher(ifMatch.trim());
        if (!m.matches()) {
            throw ApiException.invalid("If-Match must be one version as an entity tag, e.g. \"3\"; was '"
                    + Texts.abbreviate(ifMatch) + "'");
        }
        int version = Integer.parseInt(m.group(1));
        if (version < 1) {
            throw ApiException.invalid("If-Match version must be at least 1");
        }
        return version;
    }

    public static String etag(int version) {
        return "\"" + version + "\"";
    }
}
