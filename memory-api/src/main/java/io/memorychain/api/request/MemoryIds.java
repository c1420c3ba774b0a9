package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import java.util.regex.Pattern;

/** Memory ids are server-assigned; a path id that could never have been assigned is simply not found. */
public final class MemoryIds {

    private static final Pattern PLAUSIBLE = Pattern.compile("[A-Za-z0-9._~-]{1,128}");

    private MemoryIds() {
    }

    public static String require(String space, String id) {
        if (id == null || !PLAUSIBLE.matcher(id).matches()) {
            throw ApiException.notFound("No memory '" + Texts.abbreviate(id) + "' in space " + space);
        }
        return id;
    }

    public static boolean plausible(String id) {
        return id != null && PLAUSIBLE.matcher(id).matches();
    }
}
