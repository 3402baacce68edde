package io.opscv.verify;

/** The outcome of one case. */
public enum Verdict {
    /** Judged and within the standard (or phase 1 failed with the expected status). */
    PASS,
    /** Judged and outside the standard, or the wrong status. */
    FAIL,
    /** Could not be judged: a missing or malformed file, an operator failure at run time. */
    ERROR,
    /**
     * Not run: the case's platform refuses it, as SPEC §6 says it must (phase 1 failed with 161002 for a product
     * rule, e.g. BF16 on the training series); not a failure.
     */
    REFUSED,
    /** Not run: the operator is not in this build and the case has no {@code actual} file. */
    SKIP;

    /** Whether this verdict makes {@code check} exit non-zero. */
    public boolean failed() {
        return this == FAIL || this == ERROR;
    }
}
