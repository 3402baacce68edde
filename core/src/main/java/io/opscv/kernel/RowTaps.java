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
 * periodic stretches ({@link #runs}) a few vectors'.
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
     * period where a run's indices repeat but its weights do not (the weight arrays hold every element's).
     */
    final int weightStep;
    /**
     * {@link #windows}' last answer, for one vector width (a JVM has one). Threads that ask at once may each
     * work it out; the record's final fields publish whichever lands safely.
     */
    private volatile TapWindows windows;
    /**
     * Stretches of the row taken as rows of their own: elements {@code [runFrom[i], runFrom[i] + runs[i].length)}
     * are {@code runs[i]}'s elements from 0, in ascending order, none overlapping. Their taps repeat every period of
     * a few vectors, so the vector provider loads each vector's indices (and weights, where those repeat too) once
     * for the stretch ({@link VectorRowTaps}); none where no stretch is long enough. The arrays describe these
     * elements too.
     */
    final RowTaps[] runs;
    final int[] runFrom;
    /**
     * The fewest vectors a run holds: on rows of 112 elements (a run of
     * five vectors) the three calls a row took 1.4 × as long as the row's tables; rows of 256 ran 1.2 × faster.
     */
    static final int MIN_RUN = 8;
    /**
     * The fewest periods a run holds: three-channel rows of 168 elements (49 → 56 pixels, three periods of three
     * vectors) took 1.07 × as long as with the row's tables.
     */
    static final int MIN_PERIODS = 4;

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1) {
        this(pix, left, right, w0, w1, left.length, 0);
    }

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1, int length, int shift) {
        this(pix, left, right, w0, w1, length, shift, new RowTaps[0], new int[0]);
    }

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1, int length, int shift, RowTaps[] runs,
                    int[] runFrom) {
        this.runs = runs;
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
     * As {@link #of(LinearTable, int)}, with {@link #runs}: stretches whose taps repeat every period of one to
     * {@link #MAX_RUN_VECTORS} vectors of {@code lanes} elements, moved by one shift. Where the table has a period of
     * outputs ({@link LinearTable#periodicInputs}: the 2-D forward's W taps of an integer upsampling, a downsampling by
     * 2 or 4, ×3/2 and the like, NCHW or NHWC pixels), a run's weights repeat too and it holds one period's taps.
     * Elsewhere the indices alone may repeat, as they do along an alignCorners row of a ratio near an integer or a
     * simple fraction, whose weights drift: such a run holds one period's indices and every element's weights, which
     * still spares each vector its index loads and window dispatch. Runs with repeating weights are chosen first,
     * then the longest; the repeats are checked on the taps.
     */
    static RowTaps of(LinearTable t, int pix, int lanes) {
        RowTaps taps = of(t, pix);
        if (lanes <= 1) {
            return taps;
        }
        java.util.List<Stretch> stretches = new java.util.ArrayList<>();
        LinearTable.Period period = t.periodicInputs();
        long outputs = period == null ? 0 : (long) period.outputs() * pix;
        long step = outputs == 0 ? 0 : outputs / gcd((int) Math.min(outputs, Integer.MAX_VALUE), lanes) * lanes;
        if (step != 0 && step <= (long) MAX_RUN_VECTORS * lanes) {
            taps.stretches(lanes, (int) step, (int) (step / outputs * period.inputs() * pix), stretches);
        }
        for (int k = 1; k <= MAX_RUN_VECTORS; k++) {
            taps.stretches(lanes, k * lanes, -1, stretches);
        }
        return taps.withRuns(lanes, stretches);
    }

    /**
     * The most vectors in a run's period: three-channel pixels upsampled or downsampled by 2 repeat every three
     * vectors, a ×2.5 row of single elements every five.
     */
    static final int MAX_RUN_VECTORS = 8;

    /** Whole vectors {@code [from, to)} whose taps repeat every {@code step} elements moved by {@code shift}. */
    private record Stretch(int from, int to, int step, int shift, boolean weights) {}

    /**
     * Adds to {@code out} the whole vectors of each longest stretch whose element e + {@code step} reads element e's
     * taps moved by {@code shift} with the same weights, or, where {@code shift} is negative, moved by any one shift,
     * weights aside, where they are long enough for a run (at least {@link #MIN_RUN} vectors and
     * {@link #MIN_PERIODS} periods).
     */
    private void stretches(int lanes, int step, int shift, java.util.List<Stretch> out) {
        boolean weights = shift >= 0;
        int n = left.length;
        int from = -1;
        int s = shift;
        for (int e = 0; e <= n - step; e++) {
            if (from >= 0 && e < n - step && repeats(e, step, s, weights)) {
                continue;
            }
            if (from >= 0) {
                // Elements [from, e + step) repeat; whole vectors from a vector's start.
                int first = (from + lanes - 1) / lanes * lanes;
                int end = (e + step) / lanes * lanes;
                if (end - first >= Math.max(MIN_RUN * lanes, MIN_PERIODS * step)) {
                    out.add(new Stretch(first, end, step, s, weights));
                }
                from = -1;
            }
            int d = weights ? shift : e < n - step ? left[e + step] - left[e] : 0;
            if (e < n - step && repeats(e, step, d, weights)) {
                from = e;
                s = d;
            }
        }
    }

    /**
     * These taps with runs on {@code stretches}: those whose weights repeat first, then the longest, each cut to the
     * longest part no run chosen before covers.
     */
    private RowTaps withRuns(int lanes, java.util.List<Stretch> stretches) {
        stretches.sort(java.util.Comparator.comparing((Stretch x) -> !x.weights())
                .thenComparingInt(x -> x.from() - x.to()));
        java.util.TreeMap<Integer, RowTaps> chosen = new java.util.TreeMap<>();
        for (Stretch st : stretches) {
            // The longest gap between chosen runs within the stretch.
            int bestFrom = 0;
            int bestTo = 0;
            int at = st.from();
            for (java.util.Map.Entry<Integer, RowTaps> c : chosen.entrySet()) {
                int cFrom = c.getKey();
                int cTo = cFrom + c.getValue().length;
                if (Math.min(st.to(), cFrom) - at > bestTo - bestFrom) {
                    bestFrom = at;
                    bestTo = Math.min(st.to(), cFrom);
                }
                at = Math.max(at, cTo);
            }
            if (st.to() - at > bestTo - bestFrom) {
                bestFrom = at;
                bestTo = st.to();
            }
            if (bestTo - bestFrom >= Math.max(MIN_RUN * lanes, MIN_PERIODS * st.step())) {
                RowTaps run = run(lanes, bestFrom, bestTo - bestFrom, st.step(), st.shift());
                if (run != null) {
                    chosen.put(bestFrom, run);
                }
            }
        }
        if (chosen.isEmpty()) {
            return this;
        }
        int[] from = chosen.keySet().stream().mapToInt(Integer::intValue).toArray();
        return new RowTaps(pix, left, right, w0, w1, length, shift, chosen.values().toArray(new RowTaps[0]), from);
    }

    /**
     * The run of elements {@code [from, from + length)}, whose element e + {@code step} reads element e's taps moved
     * by {@code shift}: one period's taps where the weights repeat too, else one period's indices and every
     * element's weights; null where those drifting weights would need gathers ({@link VectorRowTaps} takes them only
     * in permute windows).
     */
    private RowTaps run(int lanes, int from, int length, int step, int shift) {
        boolean same = true;
        for (int e = from; same && e + step < from + length; e++) {
            same = repeats(e, step, shift, true);
        }
        int end = from + (same ? step : length);
        RowTaps run = new RowTaps(1, java.util.Arrays.copyOfRange(left, from, from + step),
                java.util.Arrays.copyOfRange(right, from, from + step),
                java.util.Arrays.copyOfRange(w0, from, end), java.util.Arrays.copyOfRange(w1, from, end), length,
                shift);
        for (byte kind : same ? new byte[0] : run.windows(lanes).kind()) {
            if (kind != TapWindows.PAIR && kind != TapWindows.QUAD) {
                return null;
            }
        }
        return run;
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
