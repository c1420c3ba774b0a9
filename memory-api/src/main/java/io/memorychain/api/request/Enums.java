package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** JSON carries enum values in lower case ("semantic", "soft_deleted"); input is case-insensitive. */
public final class Enums {

    private Enums() {}

    public static <E extends Enum<E>> E parse(Class<E> type, String field, String value) {
        if (value == null) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) {
                return e;
            }
        }
        throw ApiException.invalid(
                "Unknown " + field + " '" + Texts.abbreviate(value) + "': use one of " + allowed(type));
    }

    public static String json(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }

    public static <E extends Enum<E>> String allowed(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enums::json).collect(Collectors.joining(", "));
    }
}
