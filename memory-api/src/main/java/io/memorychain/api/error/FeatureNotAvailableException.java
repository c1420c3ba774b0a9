package io.memorychain.api.error;

/** A part wired at a later merge (a colleague's class) is not in this build yet: answered as 501 NOT_AVAILABLE. */
public class FeatureNotAvailableException extends ApiException {

    public FeatureNotAvailableException(String message) {
        super(ErrorCodes.NOT_AVAILABLE, message);
    }
}
