package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import java.util.regex.Pattern;

/**
 * Space names in URLs: 1 to 128 characters from {@code [A-Za-z0-9._-]}, not "." or "..". A slash is not allowed
 * (it would need URL-encoding in a path segment): write a tenant/agent hierarchy as {@code tenant.agent}.
 */
public final class Spaces {

    public static final String PATTERN = "[A-Za-z0-9._-]{1,128}";
    private static final Pattern VALID = Pattern.compile(PATTERN);

    private Spaces() {
    }

    public static String require(String space) {
        if (space == null || !VALID.matcher(space).matches() || space.equals(".") || space.equals("..")) {
            throw ApiException.invalid("Invalid space name '" + Texts.abbreviate(space)
                    + "': use 1 to 128 characters from A-Z a-z 0-9 . _ - (not '.' or '..')");
        }
        return space;
    }
}
