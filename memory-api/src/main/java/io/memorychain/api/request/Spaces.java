package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import io.memorychain.domain.Rules;

/**
 * Space names in URLs, checked before anything is published with the sequencer's own rule ({@link Rules#SPACE}). A
 * slash is not allowed (it would need URL-encoding in a path segment): write a tenant/agent hierarchy as
 * {@code tenant.agent}.
 */
public final class Spaces {

    private Spaces() {}

    public static String require(String space) {
        if (!Rules.isValidSpace(space)) {
            throw ApiException.invalid("Invalid space name '" + Texts.abbreviate(space) + "': use " + Rules.SPACE_HINT);
        }
        return space;
    }
}
