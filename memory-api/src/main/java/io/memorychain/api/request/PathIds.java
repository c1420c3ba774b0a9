package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import io.memorychain.domain.Rules;

/** Memory ids are server-assigned; a path id that could never have been assigned is simply not found. */
public final class PathIds {

    private PathIds() {}

    public static String require(String space, String id) {
        if (!Rules.isPlausibleId(id)) {
            throw ApiException.notFound("No memory '" + Texts.abbreviate(id) + "' in space " + space);
        }
        return id;
    }

    public static boolean plausible(String id) {
        return Rules.isPlausibleId(id);
    }
}
