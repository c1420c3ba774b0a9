package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code X-Actor: <type>:<id>} header: who a request is made for. Not authenticated yet (a later issue adds
 * API keys / JWT and then derives the actor from the credentials).
 */
public final class Actors {

    public static final String HEADER = "X-Actor";
    public static final Actor DEFAULT = new Actor(ActorType.USER, "api");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._@:/+-]{1,128}");
    private static final String TYPES = Arrays.stream(ActorType.values()).map(t -> t.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));

    private Actors() {
    }

    /** The actor of the header; {@link #DEFAULT} (user:api) when absent. */
    public static Actor parse(String header) {
        if (header == null) {
            return DEFAULT;
        }
        String value = header.trim();
        int colon = value.indexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw malformed(header);
        }
        ActorType type = typeOf(value.substring(0, colon));
        String id = value.substring(colon + 1);
        if (!ID.matcher(id).matches()) {
            throw malformed(header);
        }
        return new Actor(type, id);
    }

    private static ActorType typeOf(String type) {
        for (ActorType t : ActorType.values()) {
            if (t.name().equalsIgnoreCase(type)) {
                return t;
            }
        }
        throw ApiException.invalid("Unknown actor type '" + Texts.abbreviate(type) + "' in " + HEADER + ": use one of " + TYPES);
    }

    private static ApiException malformed(String header) {
        return ApiException.invalid("Malformed " + HEADER + " header '" + Texts.abbreviate(header)
                + "': expected <type>:<id> with type one of " + TYPES + " and an id of 1 to 128 characters from A-Z a-z 0-9 . _ @ : / + -");
    }
}
