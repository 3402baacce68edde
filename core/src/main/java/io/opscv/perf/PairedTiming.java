package io.opscv.perf;

import java.util.Arrays;

/**
 * Times an operator against a copy baseline in one process: warm-up, then rounds that alternate which
 * of the two runs first, so that the machine's load changes hit both alike; the medians of each.
 * Shared by {@code opscv bench}'s fixed cases and its sweep, so that both measure the same way.
 */
public final class PairedTiming {
    private PairedTiming() {}

    /** The medians of one measurement, in nanoseconds. */
    public record Medians(double opNanos, double copyNanos) {}

    /**
     * Runs both for at least {@code minRounds} rounds and {@code minNanos}: for calls so short that the
     * steady test of {@link #warmUntilSteady} would be noise.
     */
    public static void warmFixed(Runnable op, Runnable copy, int minRounds, long minNanos) {
        long start = System.nanoTime();
        for (int w = 0; w < minRounds || System.nanoTime() - start < minNanos; w++) {
            op.run();
            copy.run();
        }
    }

    /**
     * Warms up in slices of a quarter of {@code minNanos} (and at least {@code minRounds} calls each) until
     * at least {@code minNanos} have passed and the operator's mean time in the last slice is no longer 10 %
     * better than the best slice before it, or 5 × {@code minNanos} have passed. On a 2-core machine the
     * JIT needs more than 2 s for some cases when they run first, which a fixed warm-up would measure as
     * the operator's time.
     */
    public static void warmUntilSteady(Runnable op, Runnable copy, int minRounds, long minNanos) {
        long start = System.nanoTime();
        double best = Double.MAX_VALUE;
        while (true) {
            long sliceStart = System.nanoTime();
            long opNanos = 0;
            int calls = 0;
            while (calls < minRounds || System.nanoTime() - sliceStart < minNanos / 4) {
                opNanos += time(op);
                copy.run();
                calls++;
            }
            double mean = (double) opNanos / calls;
            boolean improving = mean < 0.9 * best;
            best = Math.min(best, mean);
            long elapsed = System.nanoTime() - start;
            if ((elapsed >= minNanos && !improving) || elapsed >= 5 * minNanos) {
                return;
            }
        }
    }

    /** {@code rounds} rounds, the operator first in even ones, the copy first in odd ones; {@code afterRound} after each. */
    public static Medians alternate(Runnable op, Runnable copy, int rounds, Runnable afterRound) {
        long[] opTimes = new long[rounds];
        long[] copyTimes = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            if ((r & 1) == 0) {
                opTimes[r] = time(op);
                copyTimes[r] = time(copy);
            } else {
                copyTimes[r] = time(copy);
                opTimes[r] = time(op);
            }
            afterRound.run();
        }
        return new Medians(median(opTimes), median(copyTimes));
    }

    /** Nanoseconds one run of {@code body} takes. */
    public static long time(Runnable body) {
        long t0 = System.nanoTime();
        body.run();
        return System.nanoTime() - t0;
    }

    /** The median: the middle sample, or the mean of the two middle ones. */
    public static double median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }
}
