package io.opscv.verify;

/** Which standard decides a case's verdict (case files: {@code "standard"}). */
public enum Standard {
    /**
     * The per-element criterion of golden/README.md always; the upstream MERE/MARE standard as well
     * when the input is all ones, as in the upstream system tests (SPEC §9). The default.
     */
    AUTO,
    /** The per-element criterion only (MERE/MARE reported). */
    ELEMENT,
    /**
     * The upstream MERE/MARE standard only (the per-element error ratio reported), e.g. for a
     * result from an NPU, which computes coordinates in float32 (SPEC §6).
     */
    UPSTREAM;

    /** The name used in case files: {@code auto}, {@code element}, {@code upstream}. */
    public String fileName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
