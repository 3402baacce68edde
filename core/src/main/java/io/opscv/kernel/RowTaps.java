package io.opscv.kernel;

/**
 * The taps of a row of pixels of {@code pix} consecutive elements each (an NCHW row: one; an NHWC row:
 * its C channels), interpolated along W by a {@link LinearTable}: output element e (pixel e / pix,
 * channel e % pix) is {@code w0[e]·x[left[e]] + w1[e]·x[right[e]]}, the taps being the same channel of
 * the table's two source pixels. Built once per call and shared by every row.
 */
final class RowTaps {
    final int pix;
    final int[] left;
    final int[] right;
    final float[] w0;
    final float[] w1;

    private RowTaps(int pix, int[] left, int[] right, float[] w0, float[] w1) {
        this.pix = pix;
        this.left = left;
        this.right = right;
        this.w0 = w0;
        this.w1 = w1;
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
     * Whether a vector of {@code lanes} output elements of a table's pixel rows reaches less than four
     * vectors of input elements (about {@code lanes·ratio + 2·pix}): the providers' permute windows.
     */
    static boolean windowsFit(LinearTable t, int pix, int lanes) {
        return (long) t.lin() * lanes + 2L * pix * t.lout() < 4L * lanes * t.lout();
    }

    /** Output elements of the row. */
    int length() {
        return left.length;
    }
}
