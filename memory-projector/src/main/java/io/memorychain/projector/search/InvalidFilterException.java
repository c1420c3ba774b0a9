package io.memorychain.projector.search;

/**
 * A {@code filters} object that {@link FilterParser} cannot accept: the reason as a stable code and the path of the
 * offending part (e.g. {@code filters.AND[1].tags.has}). The message starts with the path.
 */
public final class InvalidFilterException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Why a filter was refused. */
    public enum Reason {
        /** A key that is neither a field, a legacy filter name, nor AND / OR / NOT. */
        UNKNOWN_FIELD,
        /** An operator that does not exist, or does not apply to the field's type. */
        UNKNOWN_OPERATOR,
        /** A value of the wrong type or form (a text for a number, an empty list, a bad date...). */
        INVALID_VALUE,
        /** AND / OR / NOT nested deeper than {@link FilterParser#MAX_DEPTH}. */
        TOO_DEEP
    }

    private final Reason reason;
    private final String path;

    public InvalidFilterException(Reason reason, String path, String detail) {
        super(path + ": " + detail);
        this.reason = reason;
        this.path = path;
    }

    public Reason reason() {
        return reason;
    }

    public String path() {
        return path;
    }
}
