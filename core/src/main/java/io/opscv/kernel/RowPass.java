package io.opscv.kernel;

/**
 * One pass of a flat form over a chunk ({@link FlatRows}, {@link FlatMaps}): a forward's taps
 * ({@link KernelProvider#interpolateRow}), a backward's sums along the row ({@link KernelProvider#sumRow}), or a
 * backward's sums of whole rows in lanes ({@link #lanes}: {@link KernelProvider#sumLines}), exactly one of them.
 *
 * @param lanes the table of a backward whose chunk of {@code lanesRows} rows is summed in lanes, else null
 */
record RowPass(RowTaps taps, RowSums sums, LinearTable lanes, int lanesRows) {
    static RowPass of(RowTaps taps) {
        return new RowPass(taps, null, null, 0);
    }

    static RowPass of(RowSums sums) {
        return new RowPass(null, sums, null, 0);
    }

    /** The backward of {@code table} ({@link LinearTable#full}) over chunks of {@code rows} rows, rows in lanes. */
    static RowPass inLanes(LinearTable table, int rows) {
        return new RowPass(null, null, table, rows);
    }

    /** Elements of the pass. */
    int length() {
        return taps != null ? taps.length() : sums != null ? sums.length() : lanesRows * lanes.lin();
    }

    /** Whether every whole vector of {@code lanes} elements finds its inputs within four vectors (no gathers). */
    boolean fits(int lanes) {
        return taps != null ? taps.windowsFit(lanes) : sums == null || sums.windows(lanes).fit();
    }

    /** Elements {@code [0, count)} from {@code x} into {@code y}, for taps or sums along the row. */
    void run(KernelProvider provider, int count, float[] x, float[] y) {
        if (taps != null) {
            provider.interpolateRow(taps, 0, count, x, 0, y, 0);
        } else {
            provider.sumRow(sums, 0, count, x, 0, y, 0);
        }
    }
}
