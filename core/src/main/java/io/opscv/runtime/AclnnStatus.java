package io.opscv.runtime;

/**
 * The ACLNN status codes (SPEC §3). {@code SUCCESS} is never carried by an exception; every other
 * value is the {@link AclnnException#status()} of a failed call.
 */
public enum AclnnStatus {
    SUCCESS(0, "ACLNN_SUCCESS"),
    ERR_PARAM_NULLPTR(161001, "ACLNN_ERR_PARAM_NULLPTR"),
    ERR_PARAM_INVALID(161002, "ACLNN_ERR_PARAM_INVALID"),
    ERR_RUNTIME_ERROR(361001, "ACLNN_ERR_RUNTIME_ERROR"),
    ERR_INNER(561000, "ACLNN_ERR_INNER"),
    ERR_INNER_NULLPTR(561103, "ACLNN_ERR_INNER_NULLPTR");

    private final int code;
    private final String aclName;

    AclnnStatus(int code, String aclName) {
        this.code = code;
        this.aclName = aclName;
    }

    /** The numeric code, e.g. 161002. */
    public int code() {
        return code;
    }

    /** The C name, e.g. {@code ACLNN_ERR_PARAM_INVALID}. */
    public String aclName() {
        return aclName;
    }

    /** {@code ACLNN_ERR_PARAM_INVALID (161002)}: the prefix of every CLI error line. */
    @Override
    public String toString() {
        return aclName + " (" + code + ")";
    }

    /** The status with this code, or {@code null}. */
    public static AclnnStatus ofCode(int code) {
        for (AclnnStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
