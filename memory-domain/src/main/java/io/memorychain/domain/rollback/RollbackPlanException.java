package io.memorychain.domain.rollback;

/** A rollback that cannot be planned, with a stable code (INVALID_ARGUMENT, NOT_FOUND, NOTHING_TO_ROLL_BACK). */
public final class RollbackPlanException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;

    public RollbackPlanException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
