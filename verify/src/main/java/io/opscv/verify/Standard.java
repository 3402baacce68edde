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
    UPSTREAM,
    /**
     * The per-element criterion and the upstream MERE/MARE standard, whatever the input: an upstream ATK case run
     * through this project's operator (its {@code single_bm} standard, and the golden set's criterion).
     */
    BOTH;

    /** The name used in case files: {@code auto}, {@code element}, {@code upstream}, {@code both}. */
    public String fileName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
