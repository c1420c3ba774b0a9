package io.memorychain.events;

import java.util.regex.Pattern;

/** Space names: 1-128 characters of letters, digits, '.', '_' and '-', starting with a letter or digit. */
public final class Spaces {

    public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private Spaces() {
    }

    public static boolean isValid(String space) {
        return space != null && PATTERN.matcher(space).matches();
    }
}
