package io.memorychain.events;

import java.util.regex.Pattern;

/** Space names: 1-128 characters of letters, digits, '.', '_' and '-', starting with a letter or digit. */
public final class Spaces {

    public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private Spaces() {
    }

    public static boolean isValid(String space) {
        if (space == null || space.isEmpty() || space.length() > 128) {
            return false;
        }
        for (int i = 0; i < space.length(); i++) {
            char c = space.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
                return false;
            }
        }
        return true;
    }
}
