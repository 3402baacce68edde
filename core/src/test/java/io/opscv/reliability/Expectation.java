package io.opscv.reliability;

import io.opscv.runtime.AclnnStatus;
import java.util.regex.Pattern;

/**
 * What phase 1 must give for a generated call, as the oracle reads SPEC: success, or a status and
 * the argument its message must name.
 *
 * @param status {@code null} for success
 * @param rule   the rule that decides it (for the statistics), e.g. {@code §4.2 gradOut rank}
 * @param names  what the message must contain: the failing argument's name as a word (or
 *               upstream's spelling of it, such as {@code output_size})
 */
record Expectation(AclnnStatus status, String rule, Pattern names) {

    static Expectation success(String rule) {
        return new Expectation(null, rule, null);
    }

    static Expectation nullptr(String rule, String namesRegex) {
        return new Expectation(AclnnStatus.ERR_PARAM_NULLPTR, rule, Pattern.compile(namesRegex));
    }

    static Expectation invalid(String rule, String namesRegex) {
        return new Expectation(AclnnStatus.ERR_PARAM_INVALID, rule, Pattern.compile(namesRegex));
    }

    /** A regex matching {@code name} as a whole word. */
    static String word(String name) {
        return "\\b" + Pattern.quote(name) + "\\b";
    }

    boolean isSuccess() {
        return status == null;
    }

    @Override
    public String toString() {
        return isSuccess() ? "success (" + rule + ")" : status + " naming /" + names + "/ (" + rule + ")";
    }
}
