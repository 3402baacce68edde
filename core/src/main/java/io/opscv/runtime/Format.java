package io.opscv.runtime;

/**
 * The ACL tensor formats ({@code aclFormat}). The 1-D operators treat every format as NCL
 * (SPEC §5); the 2-D ones distinguish {@link #NCHW} and {@link #NHWC}.
 */
public enum Format {
    /** {@code ACL_FORMAT_NCHW} (0). */
    NCHW(0),
    /** {@code ACL_FORMAT_NHWC} (1). */
    NHWC(1),
    /** {@code ACL_FORMAT_ND} (2). */
    ND(2),
    /** {@code ACL_FORMAT_NC1HWC0} (3). */
    NC1HWC0(3),
    /** {@code ACL_FORMAT_FRACTAL_Z} (4). */
    FRACTAL_Z(4),
    /** {@code ACL_FORMAT_HWCN} (16). */
    HWCN(16),
    /** {@code ACL_FORMAT_NDHWC} (27). */
    NDHWC(27),
    /** {@code ACL_FORMAT_FRACTAL_NZ} (29). */
    FRACTAL_NZ(29),
    /** {@code ACL_FORMAT_NCDHW} (30). */
    NCDHW(30),
    /** {@code ACL_FORMAT_NDC1HWC0} (32). */
    NDC1HWC0(32),
    /** {@code ACL_FORMAT_NCL} (47). */
    NCL(47);

    private final int aclCode;

    Format(int aclCode) {
        this.aclCode = aclCode;
    }

    /** {@return the {@code aclFormat} value} */
    public int aclCode() {
        return aclCode;
    }

    /** {@return {@code ACL_FORMAT_NCL} etc} */
    public String aclName() {
        return "ACL_FORMAT_" + name();
    }
}
