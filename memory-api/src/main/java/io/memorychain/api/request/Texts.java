package io.memorychain.api.request;

import java.nio.charset.StandardCharsets;

/** Small string helpers for messages and size checks. */
public final class Texts {

    private Texts() {}

    public static String abbreviate(String s) {
        if (s == null) {
            return "null";
        }
        String clean = s.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }

    public static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
