package io.opscv.runtime;

/**
 * The ACL tensor formats ({@code aclFormat}). The 1-D operators treat every format as NCL
 * (SPEC §5); the 2-D ones distinguish {@link #NCHW} and {@link #NHWC}.
 */
public enum Format {
    NCHW(0),
    NHWC(1),
    ND(2),
    NC1HWC0(3),
    FRACTAL_Z(4),
    HWCN(16),
    NDHWC(27),
    FRACTAL_NZ(29),
    NCDHW(30),
    NDC1HWC0(32),
    NCL(47);

    private final int aclCode;

    Format(int aclCode) {
        this.aclCode = aclCode;
    }

    /** The {@code aclFormat} value. */
    public int aclCode() {
        return aclCode;
    }

    /** {@code ACL_FORMAT_NCL} etc. */
    public String aclName() {
        return "ACL_FORMAT_" + name();
    }
}
