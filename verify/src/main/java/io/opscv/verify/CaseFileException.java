package io.opscv.verify;

/**
 * A case file that cannot be read or makes no sense: the message names the file, the case or sweep,
 * the field, what was expected and what was found.
 */
public final class CaseFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** A mistake described by {@code message}. */
    public CaseFileException(String message) {
        super(message);
    }

    /** A mistake described by {@code message}, found by {@code cause} (e.g. the JSON parser). */
    public CaseFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
