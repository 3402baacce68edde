package io.opscv.kernel;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector provider's W pass over rows of channels-last pixels ({@link KernelProvider#interpolatePixels},
 * {@link KernelProvider#sumPixels}): each out pixel's taps are two runs of {@code pix} elements, so a vector
 * of channels takes two plain loads and the pixel's two weights, where a row of per-element taps
 * ({@link RowTaps}) would load a weight, an index and a window per vector and outgrow L1 on wide rows.
 * Each element's arithmetic is the scalar reference's, term by term.
 */
final class VectorPixels {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();

    private VectorPixels() {}

    static void interpolate(LinearTable t, int pix, float[] x, float[] y) {
        if (pix < LANES) {
            ScalarKernelProvider.interpolatePixelsScalar(t, pix, x, y);
            return;
        }
        LinearTable f = t.full();
        final int[] x0 = f.x0;
        final float[] w0 = f.w0;
        final float[] w1 = f.w1;
        final int last = t.lin() - 1;
        // A pixel's last vector ends at its end, overlapping the one before: recomputing an element stores
        // the same bits.
        final int tail = pix - LANES;
        for (int j = 0, n = t.lout(); j < n; j++) {
            FloatVector a = FloatVector.broadcast(FLOATS, w0[j]);
            FloatVector b = FloatVector.broadcast(FLOATS, w1[j]);
            int left = x0[j] * pix;
            int right = (x0[j] < last ? x0[j] + 1 : x0[j]) * pix;
            int at = j * pix;
            for (int c = 0; ; c += LANES) {
                if (c > tail) {
                    c = tail;
                }
                FloatVector.fromArray(FLOATS, x, left + c).mul(a)
                        .add(FloatVector.fromArray(FLOATS, x, right + c).mul(b)).intoArray(y, at + c);
                if (c == tail) {
                    break;
                }
            }
        }
    }

    static void sum(LinearTable t, int pix, float[] g, float[] y) {
        LinearTable f = t.full();
        final int[] x0 = f.x0;
        final float[] w0 = f.w0;
        final float[] w1 = f.w1;
        final int last = t.lin() - 1;
        final int whole = pix - pix % LANES;
        java.util.Arrays.fill(y, 0, t.lin() * pix, 0f);
        for (int j = 0, n = t.lout(); j < n; j++) {
            float wa = w0[j];
            float wb = w1[j];
            FloatVector a = FloatVector.broadcast(FLOATS, wa);
            FloatVector b = FloatVector.broadcast(FLOATS, wb);
            int left = x0[j] * pix;
            int right = (x0[j] < last ? x0[j] + 1 : x0[j]) * pix;
            int at = j * pix;
            for (int c = 0; c < whole; c += LANES) {
                FloatVector v = FloatVector.fromArray(FLOATS, g, at + c);
                FloatVector.fromArray(FLOATS, y, left + c).add(v.mul(a)).intoArray(y, left + c);
                FloatVector.fromArray(FLOATS, y, right + c).add(v.mul(b)).intoArray(y, right + c);
            }
            for (int c = whole; c < pix; c++) {
                y[left + c] += wa * g[at + c];
                y[right + c] += wb * g[at + c];
            }
        }
    }
}
