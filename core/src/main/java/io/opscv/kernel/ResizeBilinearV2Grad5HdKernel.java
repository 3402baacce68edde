package io.opscv.kernel;

/**
 * The fallback plan's l0 {@code ResizeBilinearV2Grad5Hd} (SPEC §6): the gradient of bilinear
 * resizing on 5HD tensors, from the sizes only, with TensorFlow's coordinates ({@link HalfPixelTaps}).
 *
 * <p>gradOut (N, C1, Hout, Wout, C0) → out (N, C1, Hin, Win, C0), both of one float dtype; the sums
 * are float. Separable: each gradOut row is first spread along W into a row of Win blocks, then the
 * row is added into the (at most two) out rows its H taps reach. Both passes add in ascending
 * output position, top/left tap before bottom/right tap, from 0f — the same canonical order as
 * {@link KernelProvider#sumLanes}. An axis whose sizes are equal is copied.
 */
public final class ResizeBilinearV2Grad5HdKernel {
    private ResizeBilinearV2Grad5HdKernel() {}

    public static void run(StridedTensor gradOut, StridedTensor out, HalfPixelTaps h, HalfPixelTaps w) {
        long[] gs = gradOut.shape();
        long[] os = out.shape();
        int c0 = Math.toIntExact(gs[4]);
        int hout = h.out();
        int hin = h.in();
        int woutLen = Math.multiplyExact(w.out(), c0);
        int winLen = Math.multiplyExact(w.in(), c0);
        if (gs[2] != hout || gs[3] != w.out() || os[2] != hin || os[3] != w.in() || os[4] != c0
                || gs[0] != os[0] || gs[1] != os[1]) {
            throw new IllegalArgumentException("ResizeBilinearV2Grad5Hd between " + gradOut + " and " + out);
        }
        float[] row = new float[woutLen];
        float[] spread = new float[winLen];
        float[] lo = new float[winLen];
        float[] hi = new float[winLen];
        long[] g = gradOut.strides();
        long[] o = out.strides();
        for (long n = 0; n < gs[0]; n++) {
            for (long c1 = 0; c1 < gs[1]; c1++) {
                long gBase = gradOut.offset() + n * g[0] + c1 * g[1];
                long oBase = out.offset() + n * o[0] + c1 * o[1];
                java.util.Arrays.fill(lo, 0f);
                java.util.Arrays.fill(hi, 0f);
                int loRow = 0;
                for (int ho = 0; ho < hout; ho++) {
                    Rows.read(gradOut, gBase + ho * g[2], g[3], c0, w.out(), row);
                    spreadAlongW(row, spread, w, c0);
                    if (h.identity()) {
                        Rows.write(out, oBase + ho * o[2], o[3], c0, w.in(), spread);
                        continue;
                    }
                    int top = h.top(ho);
                    while (loRow < top) {
                        Rows.write(out, oBase + loRow * o[2], o[3], c0, w.in(), lo);
                        float[] t = lo;
                        lo = hi;
                        hi = t;
                        java.util.Arrays.fill(hi, 0f);
                        loRow++;
                    }
                    float a = h.wTop(ho);
                    for (int k = 0; k < winLen; k++) {
                        lo[k] += a * spread[k];
                    }
                    float b = h.wBottom(ho);
                    float[] target = h.bottom(ho) == top ? lo : hi;
                    for (int k = 0; k < winLen; k++) {
                        target[k] += b * spread[k];
                    }
                }
                if (!h.identity()) {
                    for (int r = loRow; r < hin; r++) {
                        Rows.write(out, oBase + r * o[2], o[3], c0, w.in(), r == loRow ? lo : r == loRow + 1 ? hi : zeros(lo));
                    }
                }
            }
        }
    }

    private static float[] zeros(float[] reuse) {
        java.util.Arrays.fill(reuse, 0f);
        return reuse;
    }

    private static void spreadAlongW(float[] row, float[] spread, HalfPixelTaps w, int c0) {
        if (w.identity()) {
            System.arraycopy(row, 0, spread, 0, spread.length);
            return;
        }
        java.util.Arrays.fill(spread, 0f);
        for (int j = 0; j < w.out(); j++) {
            int src = j * c0;
            int top = w.top(j) * c0;
            int bottom = w.bottom(j) * c0;
            float a = w.wTop(j);
            float b = w.wBottom(j);
            for (int k = 0; k < c0; k++) {
                spread[top + k] += a * row[src + k];
                spread[bottom + k] += b * row[src + k];
            }
        }
    }
}
