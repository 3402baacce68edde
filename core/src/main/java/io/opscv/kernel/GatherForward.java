package io.opscv.kernel;

/**
 * The 1-D forward of a downsampling by 3 to 31 of long rows, {@link ScatterBackward#ROWS} rows at a time:
 * a block of inputs of each row is decoded into a tile in one run, the outputs whose left tap lies in it
 * are the reference's {@code w0·x[x0] + w1·x[x1]} read from the tile (the four rows sharing each output's
 * table entry), and each row's outputs are written in one run. Rows in lanes would stage and transpose
 * every input of 16 rows for the one output in three or more; reading only the taps
 * ({@link SparseForward}) costs a checked access per tap and, at these ratios, touches every cache line
 * anyway. The arithmetic is the reference's, so the bits are the same.
 */
final class GatherForward {
    /** Inputs per block: the block's inputs of four rows stay in L1 and L2. */
    static final int BLOCK_INPUTS = 4096;

    private GatherForward() {}

    /**
     * Whether {@code t} downsamples rows of self at least {@link ScatterBackward#MIN_INPUTS} long by
     * {@link ScatterBackward#MIN_RATIO} to {@link SparseForward#MIN_RATIO} (from there only the taps are read),
     * self's rows of consecutive elements: a strided self decoded element by element (channels-last, C = 2)
     * was 2-2.6 × slower than reading only its taps.
     */
    static boolean applies(LinearTable t, StridedTensor self) {
        long lin = t.lin();
        long lout = t.lout();
        return lin >= ScatterBackward.MIN_RATIO * lout && lin < SparseForward.MIN_RATIO * lout
                && lin >= ScatterBackward.MIN_INPUTS && self.strides()[2] == 1;
    }

    static void run(StridedTensor self, StridedTensor out, LinearTable t, KernelProvider provider, WorkerPool pool) {
        int lin = t.lin();
        ScatterBackward.forEachUnit(out, lin, t.lout(), BLOCK_INPUTS, pool, () -> new Scratch(lin),
                (r0, rows, i0, i1, s) -> unit(self, out, t, provider, r0, rows, i0, i1, s));
    }

    /** One thread's tiles: a block's inputs and outputs, for four rows. */
    private static final class Scratch {
        final int xPitch;
        final float[] x;
        int yPitch;
        float[] y;

        Scratch(int lin) {
            xPitch = Math.min(lin, BLOCK_INPUTS) + 1;
            x = new float[ScatterBackward.ROWS * xPitch];
            yPitch = xPitch;
            y = new float[ScatterBackward.ROWS * yPitch];
        }
    }

    private static void unit(StridedTensor self, StridedTensor out, LinearTable t, KernelProvider provider,
                             long r0, int rows, int i0, int i1, Scratch s) {
        int lin = t.lin();
        // The outputs whose left tap lies in the block; their right taps reach one input past it.
        int j0 = t.start(i0);
        int j1 = i1 == lin ? t.lout() : t.start(i1);
        if (j0 >= j1) {
            return;
        }
        if (j1 - j0 > s.yPitch) {
            // Scales that place outputs closer than their inputs: more outputs than inputs per block.
            s.yPitch = j1 - j0;
            s.y = new float[ScatterBackward.ROWS * s.yPitch];
        }
        int span = Math.min(lin, i1 + 1) - i0;
        for (int k = 0; k < rows; k++) {
            ScatterBackward.readRow(provider, self, ScatterBackward.rowStart(self, r0 + k), i0, span, s.x,
                    k * s.xPitch);
        }
        // Lanes past the last row interpolate whatever their tiles hold, and are not written.
        interpolate(t, i0, j0, j1, s.x, s.xPitch, s.y, s.yPitch);
        for (int k = 0; k < rows; k++) {
            ScatterBackward.writeRow(provider, s.y, k * s.yPitch, j1 - j0, out, ScatterBackward.rowStart(out, r0 + k),
                    j0);
        }
    }

    /**
     * Outputs [j0, j1) of four rows:
     * {@code y[k·yp + j - j0] = w0[j]·x[k·xp + x0[j] - i0] + w1[j]·x[k·xp + x1 - i0]}, the left product first
     * (the reference's order).
     */
    static void interpolate(LinearTable t, int i0, int j0, int j1, float[] x, int xp, float[] y, int yp) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        for (int j = j0; j < j1; j++) {
            int left = x0[j] - i0;
            int right = x0[j] < last ? left + 1 : left;
            float l = w0[j];
            float r = w1[j];
            int q = j - j0;
            y[q] = l * x[left] + r * x[right];
            y[yp + q] = l * x[xp + left] + r * x[xp + right];
            y[2 * yp + q] = l * x[2 * xp + left] + r * x[2 * xp + right];
            y[3 * yp + q] = l * x[3 * xp + left] + r * x[3 * xp + right];
        }
    }
}
