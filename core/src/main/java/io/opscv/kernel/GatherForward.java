package io.opscv.kernel;

/**
 * The 1-D forward of long rows of consecutive inputs, at any ratio below {@link SparseForward#MIN_RATIO}:
 * rows are taken {@link ScatterBackward#ROWS} at a time in blocks of inputs; each row's block is decoded
 * into a tile in one run, the rows' outputs (those whose left tap lies in the block) are interpolated along
 * the rows ({@link KernelProvider#linearForward}: the reference's {@code w0·x[x0] + w1·x[x1]}, a vector of
 * outputs at a time for the four rows, which share its table entries, up to a downsampling by about 4;
 * beyond, a scalar loop) and each row is written in one run. Rows in lanes would stream {@code 2·lanes}
 * rows at once and transpose every position of them twice; reading only the taps ({@link SparseForward})
 * costs a checked access per tap and, below its ratio, touches every cache line anyway. The arithmetic is
 * the reference's, so the bits are the same.
 */
final class GatherForward {
    private GatherForward() {}

    /**
     * Whether {@code t} maps rows of self at least {@link ScatterBackward#MIN_INPUTS} long to rows of another
     * length, downsampling by less than {@link SparseForward#MIN_RATIO} (from there only the taps are read),
     * self's rows of consecutive elements: a strided self decoded element by element (channels-last, C = 2)
     * was 2-2.6 × slower than reading only its taps.
     */
    static boolean applies(LinearTable t, StridedTensor self) {
        long lin = t.lin();
        long lout = t.lout();
        return lin != lout && lin < SparseForward.MIN_RATIO * lout && lin >= ScatterBackward.MIN_INPUTS
                && self.strides()[2] == 1;
    }

    /** In blocks of {@link ScatterBackward#block} inputs, or outputs where there are more of them. */
    static void run(StridedTensor self, StridedTensor out, LinearTable t, KernelProvider provider, WorkerPool pool) {
        run(self, out, t, provider, pool, ScatterBackward.block(out, Math.max(t.lin(), t.lout()), pool));
    }

    /** {@link #run} in blocks of {@code block} inputs, or outputs where there are more of them. */
    static void run(StridedTensor self, StridedTensor out, LinearTable t, KernelProvider provider, WorkerPool pool,
                    int block) {
        int lin = t.lin();
        int lout = t.lout();
        // An upsampling's block holds fewer inputs, so that its outputs stay near the block.
        int blockInputs = lout <= lin ? block : (int) Math.max(1, (long) block * lin / lout);
        ScatterBackward.forEachUnit(out, lin, lout, blockInputs, pool,
                b -> new Scratch(lin, blockInputs, block, provider, b),
                (r0, rows, i0, i1, s) -> unit(self, out, t, provider, r0, rows, i0, i1, s));
    }

    /** One thread's tiles: a block's inputs of four rows (with four vectors of slack) and their outputs. */
    private static final class Scratch {
        final Buffers buffers;
        final int xPitch;
        final float[] x;
        float[] y;

        Scratch(int lin, int blockInputs, int block, KernelProvider provider, Buffers b) {
            buffers = b;
            xPitch = Math.min(lin, blockInputs) + 1;
            x = b.floats(ScatterBackward.ROWS * xPitch + 4 * provider.lanes());
            y = b.floats(ScatterBackward.ROWS * (block + 1));
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
        int outputs = j1 - j0;
        if (ScatterBackward.ROWS * outputs > s.y.length) {
            // Scales that place outputs closer than their inputs: more outputs per block than planned.
            s.y = s.buffers.floats(ScatterBackward.ROWS * outputs);
        }
        int span = Math.min(lin, i1 + 1) - i0;
        for (int k = 0; k < rows; k++) {
            ScatterBackward.readRow(provider, self, ScatterBackward.rowStart(self, r0 + k), i0, span, s.x,
                    k * s.xPitch);
        }
        if (RowTaps.windowsFit(t, 1, provider.lanes())) {
            provider.linearForward(t, s.x, i0, s.xPitch, s.y, j0, outputs, rows, j0, j1);
        } else {
            // Downsampling by about 4 or more: a vector of outputs' taps spread beyond four vectors of inputs,
            // so four rows share each output's table entry in a scalar loop instead. Rows past the last
            // interpolate whatever their tiles hold, and are not written.
            interpolate(t, i0, j0, j1, s.x, s.xPitch, s.y, outputs);
        }
        for (int k = 0; k < rows; k++) {
            ScatterBackward.writeRow(provider, s.y, k * outputs, outputs, out, ScatterBackward.rowStart(out, r0 + k),
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
