package io.opscv.runtime;

import java.util.Objects;

/**
 * A failed ACLNN or runtime call: the status code of SPEC §3 and a message naming the argument, the
 * expected value and the actual one. Creating one also records the message as the thread's
 * recent error text ({@link AclRuntime#getRecentErrMsg()}), as every failing ACLNN call does.
 */
public final class AclnnException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The failure's status code, never ACLNN_SUCCESS. */
    private final AclnnStatus status;

    /**
     * A failure with {@code status}; records {@code message} as the thread's recent error text.
     *
     * @param status the status code, not {@link AclnnStatus#SUCCESS}
     * @param message the one-line message naming the argument, the expected value and the actual one
     */
    public AclnnException(AclnnStatus status, String message) {
        this(status, message, null);
    }

    /**
     * A failure with {@code status} caused by {@code cause}; records {@code message} as the thread's recent error text.
     *
     * @param status the status code, not {@link AclnnStatus#SUCCESS}
     * @param message the one-line message
     * @param cause what went wrong underneath (e.g. an {@link OutOfMemoryError}), or {@code null}
     */
    public AclnnException(AclnnStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = Objects.requireNonNull(status, "status");
        if (status == AclnnStatus.SUCCESS) {
            throw new IllegalArgumentException("an AclnnException cannot carry ACLNN_SUCCESS");
        }
        RecentError.record(message);
    }

    /** {@return the status code of the failure} */
    public AclnnStatus status() {
        return status;
    }

    /** {@return the numeric code, e.g. 161002} */
    public int code() {
        return status.code();
    }

    /** {@code ACLNN_ERR_PARAM_INVALID (161002): <message>}, the form the CLI prints. */
    @Override
    public String toString() {
        return status + ": " + getMessage();
    }

    static AclnnException nullptr(String message) {
        return new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, message);
    }

    /**
     * {@return a 161002 (ACLNN_ERR_PARAM_INVALID) failure: an argument breaks a rule}
     *
     * @param message the one-line message
     */
    public static AclnnException invalid(String message) {
        return new AclnnException(AclnnStatus.ERR_PARAM_INVALID, message);
    }

    /**
     * {@return a 361001 (ACLNN_ERR_RUNTIME_ERROR) failure: the call was valid but running it failed}
     *
     * @param message the one-line message
     * @param cause what went wrong underneath, or {@code null}
     */
    public static AclnnException runtime(String message, Throwable cause) {
        return new AclnnException(AclnnStatus.ERR_RUNTIME_ERROR, message, cause);
    }
}
