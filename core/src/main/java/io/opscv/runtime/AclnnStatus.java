package io.opscv.runtime;

/**
 * The ACLNN status codes (SPEC §3). {@code SUCCESS} is never carried by an exception; every other
 * value is the {@link AclnnException#status()} of a failed call.
 */
public enum AclnnStatus {
    /** {@code ACLNN_SUCCESS} (0). */
    SUCCESS(0, "ACLNN_SUCCESS"),
    /** {@code ACLNN_ERR_PARAM_NULLPTR} (161001). */
    ERR_PARAM_NULLPTR(161001, "ACLNN_ERR_PARAM_NULLPTR"),
    /** {@code ACLNN_ERR_PARAM_INVALID} (161002). */
    ERR_PARAM_INVALID(161002, "ACLNN_ERR_PARAM_INVALID"),
    /** {@code ACLNN_ERR_RUNTIME_ERROR} (361001). */
    ERR_RUNTIME_ERROR(361001, "ACLNN_ERR_RUNTIME_ERROR"),
    /** {@code ACLNN_ERR_INNER} (561000). */
    ERR_INNER(561000, "ACLNN_ERR_INNER"),
    /** {@code ACLNN_ERR_INNER_NULLPTR} (561103). */
    ERR_INNER_NULLPTR(561103, "ACLNN_ERR_INNER_NULLPTR");

    private final int code;
    private final String aclName;

    AclnnStatus(int code, String aclName) {
        this.code = code;
        this.aclName = aclName;
    }

    /** {@return the numeric code, e.g. 161002} */
    public int code() {
        return code;
    }

    /** {@return the C name, e.g. {@code ACLNN_ERR_PARAM_INVALID}} */
    public String aclName() {
        return aclName;
    }

    /** {@code ACLNN_ERR_PARAM_INVALID (161002)}: the prefix of every CLI error line. */
    @Override
    public String toString() {
        return aclName + " (" + code + ")";
    }

    /**
     * The status with this code.
     *
     * @param code an ACLNN status code, e.g. 161002
     * @return the status, or {@code null} for a code this library does not use
     */
    public static AclnnStatus ofCode(int code) {
        for (AclnnStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
