package io.opscv.kernel;

/**
 * The 2-D forward fallback's l0 {@code ResizeBilinearV2} on 5HD tensors: bilinear resizing from
 * the sizes only, with TensorFlow's coordinates ({@link HalfPixelTaps}).
 *
 * <p>self (N, C1, Hin, Win, C0) → out (N, C1, Hout, Wout, C0), one float dtype, float arithmetic,
 * one rounding to the output dtype. Each output is {@code wTop·(W-interpolated top row) +
 * wBottom·(W-interpolated bottom row)} with each W interpolation {@code wLeft·x + wRight·x'}: the
 * weighted form of SPEC §1 (not TensorFlow's {@code a + (b − a)·lerp}, whose rounding can exceed
 * the golden criterion near a zero tap). An axis whose sizes are equal is copied.
 */
public final class ResizeBilinearV2Kernel {
    private ResizeBilinearV2Kernel() {}

    public static void run(StridedTensor self, StridedTensor out, HalfPixelTaps h, HalfPixelTaps w) {
        long[] ss = self.shape();
        long[] os = out.shape();
        int c0 = Math.toIntExact(ss[4]);
        if (ss[2] != h.in() || ss[3] != w.in() || os[2] != h.out() || os[3] != w.out() || os[4] != c0
                || ss[0] != os[0] || ss[1] != os[1]) {
            throw new IllegalArgumentException("ResizeBilinearV2 between " + self + " and " + out);
        }
        int winLen = Math.multiplyExact(w.in(), c0);
        int woutLen = Math.multiplyExact(w.out(), c0);
        float[] input = new float[winLen];
        float[] topRow = new float[woutLen];
        float[] bottomRow = new float[woutLen];
        float[] result = new float[woutLen];
        long[] s = self.strides();
        long[] o = out.strides();
        for (long n = 0; n < ss[0]; n++) {
            for (long c1 = 0; c1 < ss[1]; c1++) {
                long sBase = self.offset() + n * s[0] + c1 * s[1];
                long oBase = out.offset() + n * o[0] + c1 * o[1];
                int topIndex = -1;
                int bottomIndex = -1;
                for (int ho = 0; ho < h.out(); ho++) {
                    int top = h.identity() ? ho : h.top(ho);
                    int bottom = h.identity() ? ho : h.bottom(ho);
                    if (top != topIndex) {
                        if (top == bottomIndex) {
                            float[] t = topRow;
                            topRow = bottomRow;
                            bottomRow = t;
                        } else {
                            Rows.read(self, sBase + top * s[2], s[3], c0, w.in(), input);
                            interpolateAlongW(input, topRow, w, c0);
                        }
                        topIndex = top;
                        bottomIndex = -1;
                    }
                    if (h.identity()) {
                        Rows.write(out, oBase + ho * o[2], o[3], c0, w.out(), topRow);
                        continue;
                    }
                    if (bottom != bottomIndex) {
                        if (bottom == topIndex) {
                            System.arraycopy(topRow, 0, bottomRow, 0, woutLen);
                        } else {
                            Rows.read(self, sBase + bottom * s[2], s[3], c0, w.in(), input);
                            interpolateAlongW(input, bottomRow, w, c0);
                        }
                        bottomIndex = bottom;
                    }
                    float a = h.wTop(ho);
                    float b = h.wBottom(ho);
                    for (int k = 0; k < woutLen; k++) {
                        result[k] = a * topRow[k] + b * bottomRow[k];
                    }
                    Rows.write(out, oBase + ho * o[2], o[3], c0, w.out(), result);
                }
            }
        }
    }

    private static void interpolateAlongW(float[] input, float[] output, HalfPixelTaps w, int c0) {
        if (w.identity()) {
            System.arraycopy(input, 0, output, 0, output.length);
            return;
        }
        for (int j = 0; j < w.out(); j++) {
            int dst = j * c0;
            int top = w.top(j) * c0;
            int bottom = w.bottom(j) * c0;
            float a = w.wTop(j);
            float b = w.wBottom(j);
            for (int k = 0; k < c0; k++) {
                output[dst + k] = a * input[top + k] + b * input[bottom + k];
            }
        }
    }
}
