package io.opscv.kernel;

/**
 * The taps of a row of pixels of {@code pix} consecutive elements each (an NCHW row: one; an NHWC row:
 * its C channels), interpolated along W by a {@link LinearTable}: output element e (pixel e / pix,
 * channel e % pix) is {@code w0[e]·x[left[e]] + w1[e]·x[right[e]]}, the taps being the same channel of
 * the table's two source pixels. Built once per call and shared by every row.
 *
 * <p>Taps with term flags ({@link #first}, {@link #second}: the 1-D backward's, {@link #flatBackward}) are
 * sums from +0 instead: {@code (+0 + [w0[e]·x[left[e]]]) + [w1[e]·x[right[e]]]}, each bracketed term only
 * where its flag is set (an input no position reaches is +0, whatever the values beside it).
 */
final class RowTaps {
    final int pix;
    final int[] left;
    final int[] right;
    final float[] w0;
    final float[] w1;
    /** Whether element e has its first and its second term; null for two terms everywhere, without the +0. */
    final boolean[] first;
    final boolean[] second;
    /**
     * {@link #windows}' last answer, for one vector width (a JVM has one). Threads that ask at once may each
     * work it out; the record's final fields publish whichever lands safely.
     */
    private Windows windows;

    /**
     * Where each whole vector of {@code lanes} output elements from element 0 finds its taps, in tap
     * indices: vector v's lanes take {@code x[base[v] + at[e]]} and {@code x[base[v] + atRight[e]]}, from one
     * or two plain loads ({@link #RUNS}: both taps runs of consecutive elements, {@code base} the left run's
     * and {@code at[v·lanes]} the right run's start relative to it), or permutes of two or four vectors
     * from {@code base} ({@link #PAIR}, {@link #QUAD}); hardware gathers from {@code base} ({@link #GATHER})
     * where they spread further. Worked out once per call rather than per vector and row.
     */
    record Windows(int lanes, int[] base, byte[] kind, int[] at, int[] atRight) {}

    static final byte RUNS = 0;
    static final byte PAIR = 1;
    static final byte QUAD = 2;
    static final byte GATHER = 3;

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1) {
        this(pix, left, right, w0, w1, null, null);
    }

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1, boolean[] first, boolean[] second) {
        this.first = first;
        this.second = second;
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
        int elements = Math.multiplyExact(lout, rows);
        int[] left = new int[elements];
        int[] right = new int[elements];
        float[] w0 = new float[elements];
        float[] w1 = new float[elements];
        for (int r = 0, e = 0; r < rows; r++) {
            int row = chunkRow(r, lin, channels);
            for (int j = 0; j < lout; j++, e++) {
                left[e] = row + full.x0(j) * channels;
                right[e] = row + full.x1(j) * channels;
                w0[e] = full.w0[j];
                w1[e] = full.w1[j];
            }
        }
        return new RowTaps(1, left, right, w0, w1);
    }

    /** Position 0 of row r of a chunk of rows {@code length} long, end to end or channels-last ({@link #flat}). */
    private static int chunkRow(int r, int length, int channels) {
        return r / channels * length * channels + r % channels;
    }

    /**
     * The 1-D backward's taps of {@code rows} rows of {@code t} as one row, where every input receives the
     * terms of one position at most ({@link #sparse}): input i of row r (element {@code r·lin + i}) sums
     * its position j's terms from position j of row r of gradOut's chunk (laid out as in {@link #flat}), the
     * left term first (both at a last input that is both taps), in the reference's order. An input no position
     * reaches has no term; its taps point at its row's nearest position, so that windows stay narrow.
     */
    static RowTaps flatBackward(LinearTable t, int rows, int channels) {
        LinearTable full = t.full();
        int lin = full.lin();
        int lout = full.lout();
        // One row's pattern: the position reaching each input, and that input's two weights.
        int[] from = new int[lin];
        float[] a = new float[lin];
        float[] b = new float[lin];
        boolean[] one = new boolean[lin];
        boolean[] two = new boolean[lin];
        java.util.Arrays.fill(from, -1);
        for (int j = 0; j < lout; j++) {
            int l = full.x0(j);
            int r = full.x1(j);
            from[l] = j;
            one[l] = true;
            a[l] = full.w0[j];
            if (r == l) {
                two[l] = true;
                b[l] = full.w1[j];
            } else {
                from[r] = j;
                one[r] = true;
                a[r] = full.w1[j];
            }
        }
        int near = 0;
        while (near < lin && from[near] < 0) {
            near++;
        }
        near = near < lin ? from[near] : 0;
        for (int i = 0; i < lin; i++) {
            near = from[i] >= 0 ? from[i] : near;
            from[i] = near;
        }
        int elements = Math.multiplyExact(lin, rows);
        int[] left = new int[elements];
        float[] w0 = new float[elements];
        float[] w1 = new float[elements];
        boolean[] first = new boolean[elements];
        boolean[] second = new boolean[elements];
        for (int r = 0, e = 0; r < rows; r++) {
            int row = chunkRow(r, lout, channels);
            for (int i = 0; i < lin; i++, e++) {
                left[e] = row + from[i] * channels;
                w0[e] = a[i];
                w1[e] = b[i];
                first[e] = one[i];
                second[e] = two[i];
            }
        }
        return new RowTaps(1, left, left.clone(), w0, w1, first, second);
    }

    /** Whether every input of {@code t} is reached by one position at most (each left tap past the last right one). */
    static boolean sparse(LinearTable t) {
        LinearTable full = t.full();
        for (int j = 0; j + 1 < full.lout(); j++) {
            if (full.x0(j + 1) <= full.x1(j)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every whole vector of {@code lanes} elements finds its taps within four vectors of inputs (no gathers). */
    boolean windowsFit(int lanes) {
        for (byte kind : windows(lanes).kind()) {
            if (kind == GATHER) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a vector of {@code lanes} output elements of a table's pixel rows reaches less than four
     * vectors of input elements (about {@code lanes·ratio + 2·pix}): the providers' permute windows.
     */
    static boolean windowsFit(LinearTable t, int pix, int lanes) {
        return (long) t.lin() * lanes + 2L * pix * t.lout() < 4L * lanes * t.lout();
    }

    /** The {@link Windows} of whole vectors of {@code lanes} elements. */
    Windows windows(int lanes) {
        Windows w = windows;
        if (w == null || w.lanes() != lanes) {
            w = computeWindows(lanes);
            windows = w;
        }
        return w;
    }

    private Windows computeWindows(int lanes) {
        int vectors = left.length / lanes;
        int[] base = new int[vectors];
        byte[] kind = new byte[vectors];
        int[] at = new int[vectors * lanes];
        int[] atRight = new int[vectors * lanes];
        for (int v = 0; v < vectors; v++) {
            int e = v * lanes;
            int last = e + lanes - 1;
            boolean runs = true;
            for (int k = e; k < last && runs; k++) {
                runs = left[k + 1] == left[k] + 1 && right[k + 1] == right[k] + 1;
            }
            if (runs) {
                kind[v] = RUNS;
                base[v] = left[e];
                at[e] = right[e] - left[e];
                continue;
            }
            int low = Integer.MAX_VALUE;
            int high = Integer.MIN_VALUE;
            for (int k = e; k <= last; k++) {
                low = Math.min(low, Math.min(left[k], right[k]));
                high = Math.max(high, Math.max(left[k], right[k]));
            }
            base[v] = low;
            for (int k = e; k <= last; k++) {
                at[k] = left[k] - low;
                atRight[k] = right[k] - low;
            }
            long reach = (long) high - low;
            kind[v] = reach < 2L * lanes ? PAIR : reach < 4L * lanes ? QUAD : GATHER;
        }
        return new Windows(lanes, base, kind, at, atRight);
    }

    /** Output elements of the row. */
    int length() {
        return left.length;
    }
}
