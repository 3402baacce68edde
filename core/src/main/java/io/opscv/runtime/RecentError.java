package io.opscv.runtime;

/**
 * The text of the last error, per thread, as {@code aclGetRecentErrMsg} keeps it: every failure
 * records its message; reading it returns the message and clears it.
 */
final class RecentError {
    private static final ThreadLocal<String> LAST = new ThreadLocal<>();

    private RecentError() {}

    static void record(String message) {
        LAST.set(message);
    }

    static String takeAndClear() {
        String message = LAST.get();
        LAST.remove();
        return message;
    }
}
