package io.opscv.cli;

/** A bad argument or unreadable file: printed as one line, exit code {@link OpscvCli#EXIT_USAGE}. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
