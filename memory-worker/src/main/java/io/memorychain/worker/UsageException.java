package io.memorychain.worker;

/** The command line is wrong: reported as one clear message and exit code 2, without a stack trace. */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
