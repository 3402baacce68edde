package io.opscv.kernel;

/**
 * The taps of a row of pixels of {@code pix} consecutive elements each (an NCHW row: one; an NHWC row:
 * its C channels), interpolated along W by a {@link LinearTable}: output element e (pixel e / pix,
 * channel e % pix) is {@code w0[e]·x[left[e]] + w1[e]·x[right[e]]}, the taps being the same channel of
 * the table's two source pixels. Built once per call and shared by every row.
 *
 * <p>Taps may repeat with a period: the arrays then hold the first {@link #period} elements (whole vectors)
 * and element {@code e} reads what element {@code e % period} does, moved by {@code (e / period)·shift}
 * inputs, so that a chunk of many short rows or maps keeps one period's tables in L1, and a long row's
 * periodic stretch ({@link #run}) a vector's.
 */
final class RowTaps {
    final int pix;
    final int[] left;
    final int[] right;
    final float[] w0;
    final float[] w1;
    /** Elements of the row; elements per period (the arrays' length); inputs a period moves the taps. */
    final int length;
    final int period;
    final int shift;
    /**
     * Weights a period moves: 0 where the weights repeat with the taps (the arrays hold one period's), the
     * period where a {@link #run}'s indices repeat but its weights do not (the weight arrays hold every element's).
     */
    final int weightStep;
    /**
     * {@link #windows}' last answer, for one vector width (a JVM has one). Threads that ask at once may each
     * work it out; the record's final fields publish whichever lands safely.
     */
    private volatile TapWindows windows;
    /**
     * Elements {@code [runFrom, runFrom + run.length)} interpolated as {@code run}'s elements from 0: a stretch of
     * the row whose taps repeat every vector, which the vector provider takes with each vector's indices and
     * weights loaded once for the whole stretch ({@link VectorRowTaps}); null where there is none. The arrays
     * describe these elements too.
     */
    final RowTaps run;
    final int runFrom;
    /**
     * The fewest vectors a {@link #run} holds: on rows of 112 elements (a run of
     * five vectors) the three calls a row took 1.4 × as long as the row's tables; rows of 256 ran 1.2 × faster.
     */
    static final int MIN_RUN = 8;

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1) {
        this(pix, left, right, w0, w1, left.length, 0);
    }

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1, int length, int shift) {
        this(pix, left, right, w0, w1, length, shift, null, 0);
    }

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1, int length, int shift, RowTaps run,
                    int runFrom) {
        this.run = run;
        this.runFrom = runFrom;
        this.length = length;
        this.period = left.length;
        this.shift = shift;
        this.weightStep = w0.length == period ? 0 : period;
        this.pix = pix;
        this.left = left;
        this.right = right;
        this.w0 = w0;
        this.w1 = w1;
    }

    /** Taps given element by element (one element a pixel), as {@link FlatMaps} builds them. */
    static RowTaps of(int[] left, int[] right, float[] w0, float[] w1) {
        return new RowTaps(1, left, right, w0, w1);
    }

    /**
     * Taps given for the first {@code left.length} elements of a row of {@code length}, repeating with that
     * period (where shorter than the row, a multiple of the lanes of the provider that takes it), moved by
     * {@code shift} inputs a period.
     */
    static RowTaps periodic(int[] left, int[] right, float[] w0, float[] w1, int length, int shift) {
        return new RowTaps(1, left, right, w0, w1, length, left.length < length ? shift : 0);
    }

    /**
     * Units (rows, maps) of {@code unitLength} elements per period of a row of {@code units} of them: the fewest
     * that fill whole vectors of {@link RowSums#PAD} elements and a multiple of {@code step} units, or all of them.
     */
    static int periodUnits(int unitLength, int step, int units) {
        int unitsPerVectors = RowSums.PAD / gcd(unitLength, RowSums.PAD);
        long period = (long) step / gcd(step, unitsPerVectors) * unitsPerVectors;
        return (int) Math.min(units, period);
    }

    static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** The taps of {@code t}'s output row, each pixel {@code pix} elements. */
    static RowTaps of(LinearTable t, int pix) {
        LinearTable full = t.full();
        int elements = Math.multiplyExact(full.lout(), pix);
        int[] left = new int[elements];
        int[] right = new int[elements];
        float[] w0 = new float[elements];
        float[] w1 = new float[elements];
        for (int j = 0, e = 0; j < full.lout(); j++) {
            int l = full.x0(j) * pix;
            int r = full.x1(j) * pix;
            for (int c = 0; c < pix; c++, e++) {
                left[e] = l + c;
                right[e] = r + c;
                w0[e] = full.w0[j];
                w1[e] = full.w1[j];
            }
        }
        return new RowTaps(pix, left, right, w0, w1);
    }

    /**
     * As {@link #of(LinearTable, int)}, with the {@link #run} of its longest stretch whose taps repeat every
     * {@code lanes} elements moved by one shift. Where the table has a period of outputs that divides the lanes
     * ({@link LinearTable#periodicInputs}: the 2-D forward's W taps of an integer upsampling or a downsampling by 2
     * or 4, NCHW or NHWC pixels of 2, 4 or 8 channels), the run's weights repeat too and it holds one vector's
     * taps. Otherwise the indices alone may repeat, as they do along most of an alignCorners row of a ratio near
     * an integer or its inverse, whose weights drift: the run then holds one vector's indices and every element's
     * weights, which still spares each vector its index loads and window dispatch. The repeats are checked on the
     * taps.
     */
    static RowTaps of(LinearTable t, int pix, int lanes) {
        RowTaps taps = of(t, pix);
        if (lanes <= 1) {
            return taps;
        }
        LinearTable.Period period = t.periodicInputs();
        long outputs = period == null ? 0 : (long) period.outputs() * pix;
        if (outputs != 0 && lanes % outputs == 0) {
            RowTaps repeating = taps.withRun(lanes, (int) (lanes / outputs * period.inputs() * pix));
            if (repeating.run != null) {
                return repeating;
            }
        }
        return taps.withRun(lanes, -1);
    }

    /**
     * These taps with the {@link #run} of their longest stretch of whole vectors (at least {@link #MIN_RUN}) whose
     * element e + lanes reads element e's taps moved by {@code shift} with the same weights, or, where
     * {@code shift} is negative, moved by any one shift, weights aside; themselves where there is none.
     */
    private RowTaps withRun(int lanes, int shift) {
        boolean weights = shift >= 0;
        int n = left.length;
        int bestFrom = 0;
        int bestTo = 0;
        int bestShift = 0;
        for (int e = 0, from = 0, s = shift; e + lanes < n; e++) {
            int d = left[e + lanes] - left[e];
            if (!weights && d != s) {
                from = e;
                s = d;
            }
            if (!repeats(e, lanes, s, weights)) {
                from = e + 1;
            } else if (e + 1 - from > bestTo - bestFrom) {
                bestFrom = from;
                bestTo = e + 1;
                bestShift = s;
            }
        }
        // Whole vectors from a vector's start, so that the elements before and after the run are whole vectors too.
        int from = (bestFrom + lanes - 1) / lanes * lanes;
        int length = bestTo == bestFrom ? 0 : (bestTo + lanes - from) / lanes * lanes;
        if (length < MIN_RUN * lanes) {
            return this;
        }
        boolean same = true;
        for (int e = from; same && e + lanes < from + length; e++) {
            same = repeats(e, lanes, bestShift, true);
        }
        int end = from + (same ? lanes : length);
        RowTaps run = new RowTaps(1, java.util.Arrays.copyOfRange(left, from, from + lanes),
                java.util.Arrays.copyOfRange(right, from, from + lanes),
                java.util.Arrays.copyOfRange(w0, from, end), java.util.Arrays.copyOfRange(w1, from, end), length,
                bestShift);
        // Drifting weights are taken only within the permute windows (VectorRowTaps.drifting).
        byte kind = run.windows(lanes).kind()[0];
        if (!same && kind != TapWindows.PAIR && kind != TapWindows.QUAD) {
            return this;
        }
        return new RowTaps(pix, left, right, w0, w1, this.length, this.shift, run, from);
    }

    /**
     * Whether element {@code e + step} reads element e's taps moved by {@code shift}, and where {@code weights}
     * with the same weights.
     */
    private boolean repeats(int e, int step, int shift, boolean weights) {
        return left[e + step] == left[e] + shift && right[e + step] == right[e] + shift
                && (!weights || Float.floatToRawIntBits(w0[e + step]) == Float.floatToRawIntBits(w0[e])
                && Float.floatToRawIntBits(w1[e + step]) == Float.floatToRawIntBits(w1[e]));
    }

    /**
     * The taps of {@code rows} rows of {@code t} as one row: output j of row r (element {@code r·lout + j})
     * reads positions x0[j] and x1[j] of row r of a chunk decoded as one run, whose rows lie end to end
     * ({@code channels} 1: position p of row r at {@code r·lin + p}) or interleaved as whole batches of a
     * channels-last tensor (row r = batch r / channels, channel r % channels: position p at
     * {@code (r / channels)·lin·channels + r % channels + p·channels}) ({@link FlatRows}).
     */
    static RowTaps flat(LinearTable t, int rows, int channels) {
        LinearTable full = t.full();
        int lin = full.lin();
        int lout = full.lout();
        int periodRows = periodUnits(lout, channels, rows);
        int elements = Math.multiplyExact(lout, periodRows);
        int[] left = new int[elements];
        int[] right = new int[elements];
        float[] w0 = new float[elements];
        float[] w1 = new float[elements];
        for (int r = 0, e = 0; r < periodRows; r++) {
            int row = chunkRow(r, lin, channels);
            for (int j = 0; j < lout; j++, e++) {
                left[e] = row + full.x0(j) * channels;
                right[e] = row + full.x1(j) * channels;
                w0[e] = full.w0[j];
                w1[e] = full.w1[j];
            }
        }
        return periodic(left, right, w0, w1, Math.multiplyExact(lout, rows), Math.multiplyExact(periodRows, lin));
    }

    /** Position 0 of row r of a chunk of rows {@code length} long, end to end or channels-last ({@link #flat}). */
    static int chunkRow(int r, int length, int channels) {
        return r / channels * length * channels + r % channels;
    }

    /** Whether every whole vector of {@code lanes} elements finds its taps within four vectors of inputs (no gathers). */
    boolean windowsFit(int lanes) {
        return windows(lanes).fit();
    }

    /**
     * Whether a vector of {@code lanes} output elements of a table's pixel rows reaches less than four
     * vectors of input elements (about {@code lanes·ratio + 2·pix}): the providers' permute windows.
     */
    static boolean windowsFit(LinearTable t, int pix, int lanes) {
        return (long) t.lin() * lanes + 2L * pix * t.lout() < 4L * lanes * t.lout();
    }

    /** The {@link TapWindows} of whole vectors of {@code lanes} elements: the left taps slot 0, the right slot 1. */
    TapWindows windows(int lanes) {
        TapWindows w = windows;
        if (w == null || w.lanes() != lanes) {
            int n = left.length;
            int[] both = java.util.Arrays.copyOf(left, 2 * n);
            System.arraycopy(right, 0, both, n, n);
            w = TapWindows.of(lanes, n, both, null, null);
            windows = w;
        }
        return w;
    }

    /** Output elements of the row. */
    int length() {
        return length;
    }
}
