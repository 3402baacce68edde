package io.opscv.kernel;

import io.opscv.runtime.AclnnException;

/**
 * The coordinates of 1-D linear interpolation along one axis (SPEC §1), computed once per call in
 * double precision and shared by every row: for each output position j, the left tap
 * {@code x0[j]}, the right tap {@code x0[j] + (x0[j] < lin - 1 ? 1 : 0)} and the weights
 * {@code w0[j]}, {@code w1[j]} (rounded to float).
 *
 * <p>For the gather form of the backward, {@code start(i)} is the first j whose left tap is ≥ i
 * ({@code start(lin) == lout}); the taps are monotone in j, so the j that reach input i are
 * {@code [start(i-1), start(i+1))}: first those reaching it through their right tap, then those
 * reaching it through their left tap. The table keeps these bounds shifted by one,
 * {@code bounds[i + 1] == start(i)} and {@code bounds[0] == 0}, so that the three bounds of input i
 * are {@code bounds[i], bounds[i + 1], bounds[i + 2]} with no special case at i = 0 (a vector of
 * inputs loads each with one contiguous read).
 *
 * <p>The formulas follow PyTorch's {@code area_pixel_compute_scale} and
 * {@code area_pixel_compute_source_index} (aten/src/ATen/native/UpSample.h), in double.
 */
public final class LinearTable {
    /** Floats of zeros after the weights, so that a 512-bit kernel may load two vectors from any j < lout. */
    static final int WEIGHT_PADDING = 32;
    private final int lin;
    private final int lout;
    private final boolean identity;
    final int[] x0;
    final float[] w0;
    final float[] w1;
    /** {@code bounds[0] == 0}, {@code bounds[i + 1] == start(i)} for 0 ≤ i ≤ lin. */
    final int[] bounds;
    private final int maxTerms;

    private LinearTable(int lin, int lout, boolean identity, int[] x0, float[] w0, float[] w1, int[] bounds) {
        this.lin = lin;
        this.lout = lout;
        this.identity = identity;
        this.x0 = x0;
        this.w0 = w0;
        this.w1 = w1;
        this.bounds = bounds;
        int most = 0;
        for (int i = 0; i < lin - 1; i++) {
            most = Math.max(most, bounds[i + 2] - bounds[i]);
        }
        this.maxTerms = most;
    }

    /**
     * The source step per output element (SPEC §1 table).
     *
     * @param scales the forward multiplier; ≤ 0 means "not given"
     */
    public static double scale(long lin, long lout, boolean alignCorners, double scales) {
        if (alignCorners) {
            return lout > 1 ? (double) (lin - 1) / (double) (lout - 1) : 0.0;
        }
        return scales > 0 ? 1.0 / scales : (double) lin / (double) lout;
    }

    /** The (unclamped above) source coordinate of output element {@code j}. */
    public static double sourceIndex(double scale, long j, boolean alignCorners) {
        if (alignCorners) {
            return scale * j;
        }
        double src = scale * (j + 0.5) - 0.5;
        return src < 0 ? 0.0 : src;
    }

    /**
     * Builds the table for an axis of input length {@code lin} and output length {@code lout}
     * (both in 1 .. 2^31 - 1). When they are equal the table is the identity.
     */
    public static LinearTable of(int lin, int lout, boolean alignCorners, double scales) {
        if (lin <= 0 || lout <= 0) {
            throw new IllegalArgumentException("lin (" + lin + ") and lout (" + lout + ") must be > 0");
        }
        reserveHeap(lin, lout);
        try {
            return build(lin, lout, alignCorners, scales);
        } catch (OutOfMemoryError e) {
            throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout + " positions ("
                    + tableBytes(lin, lout) + " bytes of host memory) could not be allocated: " + e.getMessage(), e);
        }
    }

    /** The longest axis a table can describe: Java arrays hold at most about 2^31 - 8 elements, less the padding. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8 - WEIGHT_PADDING;

    /** Bytes of the arrays of a table: x0, w0, w1 per output, the bounds per input. */
    static long tableBytes(long lin, long lout) {
        return 4 * lout + 8 * (lout + WEIGHT_PADDING) + 4 * (lin + 2);
    }

    /**
     * The 2-D operators accept axes up to INT32_MAX (SPEC §10), whose tables need up to ~24 GiB of heap: a
     * table that cannot exist, or cannot fit in the heap at all, is refused with
     * ACLNN_ERR_RUNTIME_ERROR (361001) before anything is allocated, like device memory that cannot be had.
     */
    private static void reserveHeap(int lin, int lout) {
        long bytes = tableBytes(lin, lout);
        // Only what can never fit is refused up front (the heap's free space depends on when the collector last
        // ran, which would make the answer vary); an allocation that fails anyway is caught in of().
        long heap = Runtime.getRuntime().maxMemory();
        if (lin > MAX_LENGTH || lout > MAX_LENGTH || bytes > heap) {
            throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout + " positions needs "
                    + bytes + " bytes of host memory, but " + (lin > MAX_LENGTH || lout > MAX_LENGTH
                    ? "an axis can have at most " + MAX_LENGTH + " positions" : "the heap holds at most " + heap + " bytes")
                    + ".", null);
        }
    }

    private static LinearTable build(int lin, int lout, boolean alignCorners, double scales) {
        int[] x0 = new int[lout];
        // Zero padding past lout: vector kernels load whole vectors of weights near the end of a row.
        float[] w0 = new float[lout + WEIGHT_PADDING];
        float[] w1 = new float[lout + WEIGHT_PADDING];
        boolean identity = lin == lout;
        if (identity) {
            for (int j = 0; j < lout; j++) {
                x0[j] = j;
                w0[j] = 1f;
            }
        } else if (alignCorners) {
            fill(x0, w0, w1, lin, scale(lin, lout, true, scales), 0.0);
        } else {
            fill(x0, w0, w1, lin, scale(lin, lout, false, scales), 0.5);
        }
        // bounds[i + 1] = first j whose left tap is >= i; the taps never decrease with j, so one
        // pass over j fills every bound at the steps of x0.
        int[] bounds = new int[lin + 2];
        int filled = 0;
        for (int j = 0; j < lout; j++) {
            int tap = x0[j];
            while (filled <= tap) {
                bounds[++filled] = j;
            }
        }
        while (filled <= lin) {
            bounds[++filled] = lout;
        }
        return new LinearTable(lin, lout, identity, x0, w0, w1, bounds);
    }

    /**
     * x0, w0, w1 for every j: {@code src = max(0, scale·(j + half) - half)} (half = 0.5, or 0
     * with alignCorners, where src = scale·j is never negative), as {@link #sourceIndex}. A plain
     * loop over arrays, which the JIT vectorizes: phase 1 stays cheap on long rows.
     */
    private static void fill(int[] x0, float[] w0, float[] w1, int lin, double scale, double half) {
        final double last = lin - 1;
        final int lout = x0.length;
        for (int j = 0; j < lout; j++) {
            double src = Math.max(scale * (j + half) - half, 0.0);
            double left = Math.min(Math.floor(src), last);
            double lambda1 = Math.min(src - left, 1.0);
            x0[j] = (int) left;
            w1[j] = (float) lambda1;
            w0[j] = (float) (1.0 - lambda1);
        }
    }

    /** Input length (the length of out). */
    public int lin() {
        return lin;
    }

    /** Output length (the length of gradOut). */
    public int lout() {
        return lout;
    }

    /** True when lin == lout: the operators copy. */
    public boolean identity() {
        return identity;
    }

    /** Left tap of output j. */
    public int x0(int j) {
        return x0[j];
    }

    /** Right tap of output j. */
    public int x1(int j) {
        return x0[j] < lin - 1 ? x0[j] + 1 : x0[j];
    }

    /** Weight of output j's left tap. */
    public float w0(int j) {
        return w0[j];
    }

    /** Weight of output j's right tap. */
    public float w1(int j) {
        return w1[j];
    }

    /**
     * The most gradOut positions any input but the last gathers from ({@code start(i+1) - start(i-1)}):
     * the length of the longest gather, which sizes a vector kernel's per-lane index tables.
     */
    public int maxTerms() {
        return maxTerms;
    }

    /** First output j whose left tap is ≥ i, for 0 ≤ i ≤ lin. */
    public int start(int i) {
        return bounds[i + 1];
    }

    /** First output position a block of inputs [i0, i1) reads in the gather form of the backward. */
    public int gatherFrom(int i0) {
        return bounds[i0];
    }

    /** One past the last output position a block of inputs [i0, i1) reads. */
    public int gatherTo(int i1) {
        return bounds[i1 + 1];
    }
}
