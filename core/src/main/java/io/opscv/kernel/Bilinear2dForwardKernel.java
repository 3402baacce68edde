package io.opscv.kernel;

/**
 * Forward bilinear interpolation (SPEC §10, {@code aclnnUpsampleBilinear2d}): self (N, C, Hin, Win)
 * → out (N, C, Hout, Wout), both given as NCHW-ordered views with any strides (an NHWC tensor comes
 * in as its permuted view), float arithmetic, one rounding to the output dtype.
 *
 * <p>Separable, W first as PyTorch's CPU kernel: the (at most two) input rows an output row reads
 * are interpolated along W by the provider, then combined along H:
 * {@code y = λh0·row(h0) + λh1·row(h1)}. Each axis follows SPEC §1 with its own table; an axis whose
 * sizes are equal is copied (no zero-weight tap).
 */
public final class Bilinear2dForwardKernel {
    private Bilinear2dForwardKernel() {}

    public static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w) {
        run(self, out, h, w, KernelProviders.get());
    }

    public static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider) {
        long[] ss = self.shape();
        long[] os = out.shape();
        if (ss[2] != h.lin() || ss[3] != w.lin() || os[2] != h.lout() || os[3] != w.lout() || ss[0] != os[0]
                || ss[1] != os[1]) {
            throw new IllegalArgumentException("bilinear forward between " + self + " and " + out);
        }
        int win = w.lin();
        int wout = w.lout();
        float[] input = new float[win];
        float[] rowA = new float[wout];
        float[] rowB = new float[wout];
        float[] result = new float[wout];
        long[] s = self.strides();
        long[] o = out.strides();
        for (long n = 0; n < ss[0]; n++) {
            for (long c = 0; c < ss[1]; c++) {
                long sBase = self.offset() + n * s[0] + c * s[1];
                long oBase = out.offset() + n * o[0] + c * o[1];
                int aIndex = -1;
                int bIndex = -1;
                for (int ho = 0; ho < h.lout(); ho++) {
                    int top = h.identity() ? ho : h.x0(ho);
                    if (top != aIndex) {
                        if (top == bIndex) {
                            float[] t = rowA;
                            rowA = rowB;
                            rowB = t;
                        } else {
                            interpolateRow(self, sBase + top * s[2], s[3], input, rowA, w, provider);
                        }
                        aIndex = top;
                        bIndex = -1;
                    }
                    if (h.identity()) {
                        ElementCodec.encode(rowA, 0, wout, out.segment(), out.dataType(), oBase + ho * o[2], o[3]);
                        continue;
                    }
                    int bottom = h.x1(ho);
                    float[] rowBottom;
                    if (bottom == aIndex) {
                        rowBottom = rowA;
                    } else {
                        if (bottom != bIndex) {
                            interpolateRow(self, sBase + bottom * s[2], s[3], input, rowB, w, provider);
                            bIndex = bottom;
                        }
                        rowBottom = rowB;
                    }
                    float l0 = h.w0(ho);
                    float l1 = h.w1(ho);
                    for (int k = 0; k < wout; k++) {
                        result[k] = l0 * rowA[k] + l1 * rowBottom[k];
                    }
                    ElementCodec.encode(result, 0, wout, out.segment(), out.dataType(), oBase + ho * o[2], o[3]);
                }
            }
        }
    }

    private static void interpolateRow(StridedTensor self, long first, long stride, float[] input, float[] row,
                                       LinearTable w, KernelProvider provider) {
        if (w.identity()) {
            ElementCodec.decode(self.segment(), self.dataType(), first, stride, w.lout(), row, 0);
            return;
        }
        ElementCodec.decode(self.segment(), self.dataType(), first, stride, w.lin(), input, 0);
        provider.linearForward(w, input, 0, row, 0, w.lout());
    }
}
