package io.opscv.kernel;

import java.util.Arrays;

/**
 * Backward of bilinear interpolation (SPEC §10, PyTorch's {@code upsample_bilinear2d_backward}):
 * gradOut (N, C, Hout, Wout) → out (N, C, Hin, Win), both given as NCHW-ordered views with any
 * strides (NHWC tensors come in as their permuted views), float sums, one rounding to the output
 * dtype. It is the cpu platform's fused kernel and the {@code UpsampleBilinear2dGrad} l0 step.
 *
 * <p>Separable: each gradOut row is first summed along W by the provider's
 * {@link KernelProvider#linearBackward} (canonical order), then added into the at most two out rows
 * its H taps reach, in ascending gradOut row, left tap before right tap — the canonical order along
 * H. Out rows are finished as soon as no later gradOut row can reach them, so only two
 * accumulator rows are live. An axis whose sizes are equal is copied (SPEC §1).
 *
 * <p>Why two float passes stay within the golden criterion: with t_W and t_H terms per element
 * along each axis, the W sums carry at most (t_W + 1)·2^-24 relative to their absolute sums and the
 * H pass adds (t_H + 1)·2^-24, so the error is at most (t_W + t_H + 2)·2^-24·B, and
 * t_W + t_H ≤ t_W·t_H whenever both are ≥ 2 (a single-term axis adds one rounding only), which the
 * criterion's (terms + 2)·2^-24·B with terms = t_H·t_W covers. The same adding order on every
 * platform makes the plans' results bit-identical.
 */
public final class Bilinear2dBackwardKernel {
    /** Rows of the map per W pass: a vector provider's lanes, and a buffer of that many rows in L2. */
    private static final int BATCH = 16;

    private Bilinear2dBackwardKernel() {}

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w) {
        run(gradOut, out, h, w, KernelProviders.get());
    }

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider) {
        long[] gs = gradOut.shape();
        long[] os = out.shape();
        if (gs[2] != h.lout() || gs[3] != w.lout() || os[2] != h.lin() || os[3] != w.lin() || gs[0] != os[0]
                || gs[1] != os[1]) {
            throw new IllegalArgumentException("bilinear backward between " + gradOut + " and " + out);
        }
        int hout = h.lout();
        int hin = h.lin();
        int wout = w.lout();
        int win = w.lin();
        // The W pass takes BATCH rows of the map at a time, so that a vector provider sums them in its lanes.
        int batch = Math.min(hout, BATCH);
        float[] rows = new float[batch * wout + provider.lanes()];
        float[] spreads = new float[batch * win];
        float[] lo = new float[win];
        float[] hi = new float[win];
        // The provider's scratch for the W pass, allocated once per call (not per row).
        int workFloats = provider.backwardWorkFloats(win, w.gatherTo(win) - w.gatherFrom(0), batch);
        float[] work = workFloats == 0 ? null : new float[workFloats];
        long[] g = gradOut.strides();
        long[] o = out.strides();
        for (long n = 0; n < gs[0]; n++) {
            for (long c = 0; c < gs[1]; c++) {
                long gBase = gradOut.offset() + n * g[0] + c * g[1];
                long oBase = out.offset() + n * o[0] + c * o[1];
                Arrays.fill(lo, 0f);
                Arrays.fill(hi, 0f);
                int loRow = 0;
                for (int ho = 0; ho < hout; ho++) {
                    int inBatch = ho % batch;
                    if (inBatch == 0) {
                        int count = Math.min(batch, hout - ho);
                        for (int m = 0; m < count; m++) {
                            ElementCodec.decode(gradOut.segment(), gradOut.dataType(), gBase + (ho + m) * g[2], g[3], wout,
                                    w.identity() ? spreads : rows, m * (w.identity() ? win : wout));
                        }
                        if (!w.identity()) {
                            provider.linearBackward(w, 0, win, count, rows, 0, wout, spreads, 0, win, work);
                        }
                    }
                    int spread = inBatch * win;
                    if (h.identity()) {
                        ElementCodec.encode(spreads, spread, win, out.segment(), out.dataType(), oBase + ho * o[2], o[3]);
                        continue;
                    }
                    int left = h.x0(ho);
                    while (loRow < left) {
                        ElementCodec.encode(lo, 0, win, out.segment(), out.dataType(), oBase + loRow * o[2], o[3]);
                        float[] t = lo;
                        lo = hi;
                        hi = t;
                        Arrays.fill(hi, 0f);
                        loRow++;
                    }
                    float l0 = h.w0(ho);
                    for (int k = 0; k < win; k++) {
                        lo[k] += l0 * spreads[spread + k];
                    }
                    float l1 = h.w1(ho);
                    float[] right = h.x1(ho) == left ? lo : hi;
                    for (int k = 0; k < win; k++) {
                        right[k] += l1 * spreads[spread + k];
                    }
                }
                if (!h.identity()) {
                    for (int r = loRow; r < hin; r++) {
                        float[] values = r == loRow ? lo : r == loRow + 1 ? hi : zero(lo);
                        ElementCodec.encode(values, 0, win, out.segment(), out.dataType(), oBase + r * o[2], o[3]);
                    }
                }
            }
        }
    }

    private static float[] zero(float[] reuse) {
        Arrays.fill(reuse, 0f);
        return reuse;
    }
}
