package io.opscv.kernel;

/**
 * The 1-D backward's sums of a row, element by element ({@link KernelProvider#sumRow}): output element e
 * is {@code +0 + w[e]·g[at[e]] + w[n + e]·g[at[n + e]] + …}, added in slot order (slot k at
 * {@code k·n + e}, n the {@link #stride}), each term only where {@code has[k·n + e]}. Its slots hold the
 * input's terms in the canonical order of {@link KernelProvider#sumLanes} (ascending position, the left term
 * before the right; both at a last input that is both taps, left first), so the sums are the reference's
 * bits. A slot without a term points where the element's previous slot does (an input no position
 * reaches: at its row's nearest position), so that a vector's loads stay within narrow windows. Built once
 * per call and shared by every row. Sums may repeat with a period, as {@link RowTaps}' taps do: the arrays
 * hold the first {@link #period} elements and element e sums what element {@code e % period} does, its
 * positions moved by {@code (e / period)·shift}.
 */
final class RowSums {
    /** Elements are padded to a multiple of this (the widest vector's lanes), so that every vector is whole. */
    static final int PAD = 16;
    /**
     * Periods the vector provider sums at once ({@code VectorRowSums}); a last group of fewer takes periods before
     * it again (the same bits, stored twice), so callers cut their rows into whole groups where they can.
     */
    static final int PERIODS_AT_ONCE = 4;
    final int length;
    /** Elements the arrays describe (the row's length, or a period of it); positions a period moves the terms. */
    final int period;
    final int shift;
    /** The distance between slots: the period rounded up to {@link #PAD}. */
    final int stride;
    final int slots;
    final int[] at;
    final float[] w;
    final boolean[] has;
    /** {@link #windows}' last answer, for one vector width; shared as {@link RowTaps}' is. */
    private volatile TapWindows windows;

    private RowSums(int slots, int period, int length, int shift) {
        this.slots = slots;
        this.period = period;
        this.length = length;
        this.shift = period < length ? shift : 0;
        this.stride = Math.addExact(period, PAD - 1) / PAD * PAD;
        at = new int[Math.multiplyExact(slots, stride)];
        w = new float[at.length];
        has = new boolean[at.length];
    }

    /** One input's terms in canonical order: position {@code pos[k]} times {@code weight[k]}. */
    private record Terms(int[] pos, float[] weight) {}

    /** Input i's terms, worked out for the inputs a call's sums list only (a long row's table is not). */
    private static Terms terms(LinearTable full, int i) {
        int last = full.lin() - 1;
        int[] bounds = full.bounds;
        // Positions whose left tap is i - 1 reach i through their right tap first, then those whose left tap is i.
        int rights = bounds[i + 1] - bounds[i];
        int lefts = bounds[i + 2] - bounds[i + 1];
        int n = rights + lefts * (i == last ? 2 : 1);
        int[] pos = new int[n];
        float[] weight = new float[n];
        int k = 0;
        for (int j = bounds[i]; j < bounds[i + 1]; j++, k++) {
            pos[k] = j;
            weight[k] = full.w1[j];
        }
        for (int j = bounds[i + 1]; j < bounds[i + 2]; j++) {
            pos[k] = j;
            weight[k++] = full.w0[j];
            if (i == last) {
                pos[k] = j;
                weight[k++] = full.w1[j];
            }
        }
        return new Terms(pos, weight);
    }

    /** The most terms an input of {@code t} takes: the slots of its sums (worked out without building them). */
    static int slots(LinearTable t) {
        int[] bounds = t.full().bounds;
        int last = t.lin() - 1;
        int most = 1;
        for (int i = 0; i <= last; i++) {
            most = Math.max(most, bounds[i + 2] - bounds[i] + (i == last ? bounds[i + 2] - bounds[i + 1] : 0));
        }
        return most;
    }

    /**
     * The sums of a row of {@code t}'s inputs, each a pixel of {@code pix} elements (channel c of input i:
     * element {@code i·pix + c}).
     */
    static RowSums of(LinearTable t, int pix) {
        int n = Math.multiplyExact(t.lin(), pix);
        int[] input = new int[n];
        int[] offset = new int[n];
        for (int e = 0; e < n; e++) {
            input[e] = e / pix;
            offset[e] = e % pix;
        }
        return of(t, input, offset, pix);
    }

    /**
     * The sums of {@code rows} rows of {@code t}'s inputs as one row, input i of row r element {@code r·lin + i},
     * its terms from position j of row r of a gradOut chunk laid out as {@link RowTaps#flat} reads a self
     * chunk (rows end to end, or whole batches of a channels-last tensor) ({@link FlatRows}).
     */
    static RowSums flat(LinearTable t, int rows, int channels) {
        int lin = t.lin();
        int periodRows = RowTaps.periodUnits(lin, channels, rows);
        int n = Math.multiplyExact(lin, periodRows);
        int[] input = new int[n];
        int[] offset = new int[n];
        for (int e = 0; e < n; e++) {
            input[e] = e % lin;
            offset[e] = RowTaps.chunkRow(e / lin, t.lout(), channels);
        }
        return of(t, input, offset, channels, Math.multiplyExact(lin, rows), Math.multiplyExact(periodRows, t.lout()));
    }

    /**
     * The sums of elements each of one input of {@code t}: element e is input {@code input[e]}, its position j
     * at {@code offset[e] + j·step}.
     */
    static RowSums of(LinearTable t, int[] input, int[] offset, int step) {
        return of(t, input, offset, step, input.length, 0);
    }

    /**
     * As {@link #of(LinearTable, int[], int[], int)} for the first {@code input.length} elements of a row of
     * {@code length}, repeating with that period (where shorter than the row, a multiple of the lanes of the provider
     * that sums it: every vector then starts a period or lies within one), the
     * positions moved by {@code shift} a period.
     */
    static RowSums of(LinearTable t, int[] input, int[] offset, int step, int length, int shift) {
        LinearTable full = t.full();
        Terms[] terms = new Terms[input.length];
        int slots = 1;
        for (int e = 0; e < input.length; e++) {
            terms[e] = e > 0 && input[e] == input[e - 1] ? terms[e - 1] : terms(full, input[e]);
            slots = Math.max(slots, terms[e].pos().length);
        }
        RowSums s = new RowSums(slots, input.length, length, shift);
        for (int e = 0; e < input.length; e++) {
            s.set(e, terms[e], near(t, input[e]), step, offset[e]);
        }
        return s.padded();
    }

    /** Points the padding's slots (no terms) where the last element's do, so that its vector's windows stay narrow. */
    private RowSums padded() {
        for (int q = 0; q < at.length; q += stride) {
            java.util.Arrays.fill(at, q + period, q + stride, at[q + period - 1]);
        }
        return this;
    }

    /** The position nearest an input no position reaches: the first whose left tap lies past it. */
    private static int near(LinearTable t, int i) {
        return Math.min(t.full().bounds[i + 1], t.lout() - 1);
    }

    /** Element e's slots: its input's terms, position j at {@code offset + j·step}. */
    private void set(int e, Terms terms, int near, int step, int offset) {
        int[] pos = terms.pos();
        int previous = offset + near * step;
        for (int k = 0, q = e; k < slots; k++, q += stride) {
            boolean term = k < pos.length;
            at[q] = term ? offset + pos[k] * step : previous;
            w[q] = term ? terms.weight()[k] : 0f;
            has[q] = term;
            previous = at[q];
        }
    }

    /** Elements of the row. */
    int length() {
        return length;
    }

    /** The {@link TapWindows} of whole vectors of {@code lanes} elements. */
    TapWindows windows(int lanes) {
        TapWindows t = windows;
        if (t == null || t.lanes() != lanes) {
            t = TapWindows.of(lanes, stride, at, has, w);
            windows = t;
        }
        return t;
    }
}
