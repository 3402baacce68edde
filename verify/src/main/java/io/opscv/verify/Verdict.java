package io.opscv.verify;

/** The outcome of one case. */
public enum Verdict {
    /** Judged and within the standard. */
    PASS,
    /** Judged and outside the standard, or the wrong status. */
    FAIL,
    /** Could not be judged: a missing or malformed file, an operator failure at run time. */
    ERROR,
    /**
     * Not run, rightly: phase 1 refused the case as it must, either with the status the case expects
     * ({@code expect_status}) or with 161002 for a product rule of SPEC §6 (e.g. BF16 on the training series); not a
     * failure.
     */
    REFUSED,
    /**
     * Not run: the operator is not in this build and the case has no {@code actual} file, or (an ATK case) it is not
     * one of this project's operators.
     */
    SKIP;

    /** Whether this verdict makes {@code check} exit non-zero. */
    public boolean failed() {
        return this == FAIL || this == ERROR;
    }
}
