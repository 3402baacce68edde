package io.opscv.npy;

import java.io.IOException;

/** A file that is not a .npy file this library reads; the message says what is wrong, in one line. */
public final class NpyFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure, told in one line.
     *
     * @param message what is wrong, in one line, usually naming the file
     */
    public NpyFormatException(String message) {
        super(message);
    }
}
