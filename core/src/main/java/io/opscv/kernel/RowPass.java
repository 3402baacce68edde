package io.opscv.kernel;

/**
 * One pass of a flat form over a chunk ({@link FlatRows}, {@link FlatMaps}): a forward's taps
 * ({@link KernelProvider#interpolateRow}) or a backward's sums ({@link KernelProvider#sumRow}), exactly one
 * of them.
 */
record RowPass(RowTaps taps, RowSums sums) {
    static RowPass of(RowTaps taps) {
        return new RowPass(taps, null);
    }

    static RowPass of(RowSums sums) {
        return new RowPass(null, sums);
    }

    /** Elements of the pass. */
    int length() {
        return taps != null ? taps.length() : sums.length();
    }

    /** Whether every whole vector of {@code lanes} elements finds its inputs within four vectors (no gathers). */
    boolean fits(int lanes) {
        return taps != null ? taps.windowsFit(lanes) : sums.windows(lanes).fit();
    }

    /** Elements {@code [0, count)} from {@code x} into {@code y}. */
    void run(KernelProvider provider, int count, float[] x, float[] y) {
        if (taps != null) {
            provider.interpolateRow(taps, 0, count, x, 0, y, 0);
        } else {
            provider.sumRow(sums, 0, count, x, 0, y, 0);
        }
    }
}
