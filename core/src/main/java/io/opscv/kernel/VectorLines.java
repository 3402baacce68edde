package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link KernelProvider#sumLines} and {@link KernelProvider#interpolateLines} on the Vector API, for
 * {@link VectorKernelProvider}. The lines of a small map are short (2 to 64 positions), so one line's
 * sums are a few short chains of dependent adds; four lines at a time give four independent chains per
 * input, which share each weight, and every result goes straight to its transposed place. Each lane
 * does {@link KernelProvider#sumLanes}'s arithmetic in its order, so the bits are the same.
 */
final class VectorLines {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();
    /** Lines summed side by side. */
    static final int LINES = 4;

    private VectorLines() {}

    /**
     * Lines {@code [q0, q1)} of {@link KernelProvider#sumLines}, four at a time, the last one to three as the last
     * four again (those summed twice store the same bits twice); returns the first line not summed, where the
     * range has fewer than four. The provider's line-by-line rest sends each position through an array copy,
     * which cost more than summing up to three lines twice.
     */
    static int sum(LinearTable t, int q0, int q1, float[] from, float[] to, int outStride) {
        if (q1 - q0 < LINES) {
            return q0;
        }
        for (int q = q0; q < q1; q += LINES) {
            four(t, Math.min(q, q1 - LINES), from, to, outStride);
        }
        return q1;
    }

    private static void four(LinearTable t, int q, float[] from, float[] to, int outStride) {
        // Downsampling takes the gather form too: its inputs have a term or two each, which a scatter paid
        // for with a load and a store apiece.
        if (t.lout() >= t.lin() && t.visitsEveryInput()) {
            walk(t, q, from, to, outStride);
        } else {
            gather(t, q, from, to, outStride);
        }
    }

    /**
     * The walk for lines q .. q + 3 ({@link VectorWalk} on four lines): each position adds its two terms to
     * the sums of its taps x0 and x0 + 1, kept in registers from +0, and a step of x0 stores the finished
     * sum (at its transposed place) and starts the next at +0, by blends. For tables that visit every input
     * ({@link LinearTable#visitsEveryInput}), so that every input's place is written.
     */
    private static void walk(LinearTable t, int q, float[] from, float[] to, int outStride) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int step = t.lout() * LANES;
        final int base = q * step;
        // Positions [0, end) have distinct taps x0 < last; from end on both taps are the last input.
        final int end = t.bounds[last + 1];
        FloatVector zero = FloatVector.zero(FLOATS);
        FloatVector c0 = zero;
        FloatVector c1 = zero;
        FloatVector c2 = zero;
        FloatVector c3 = zero;
        FloatVector n0 = zero;
        FloatVector n1 = zero;
        FloatVector n2 = zero;
        FloatVector n3 = zero;
        int p = 0;
        for (int j = 0; j < end; j++) {
            int s = x0[j] - p;
            // Input p's sum is stored at every position: the last store, when x0 steps on, is its final value.
            int o = (p * outStride + q) * LANES;
            FLOAT_VECTOR.cast(c0).intoArray(to, o);
            FLOAT_VECTOR.cast(c1).intoArray(to, o + LANES);
            FLOAT_VECTOR.cast(c2).intoArray(to, o + 2 * LANES);
            FLOAT_VECTOR.cast(c3).intoArray(to, o + 3 * LANES);
            VectorMask<Float> on = VectorMask.fromLong(FLOATS, -s);
            c0 = FLOAT_VECTOR.cast(c0).blend(n0, on);
            c1 = FLOAT_VECTOR.cast(c1).blend(n1, on);
            c2 = FLOAT_VECTOR.cast(c2).blend(n2, on);
            c3 = FLOAT_VECTOR.cast(c3).blend(n3, on);
            n0 = FLOAT_VECTOR.cast(n0).blend(zero, on);
            n1 = FLOAT_VECTOR.cast(n1).blend(zero, on);
            n2 = FLOAT_VECTOR.cast(n2).blend(zero, on);
            n3 = FLOAT_VECTOR.cast(n3).blend(zero, on);
            float left = w0[j];
            float right = w1[j];
            int at = base + j * LANES;
            FloatVector v0 = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at));
            FloatVector v1 = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + step));
            FloatVector v2 = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + 2 * step));
            FloatVector v3 = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + 3 * step));
            c0 = c0.add(v0.mul(left));
            c1 = c1.add(v1.mul(left));
            c2 = c2.add(v2.mul(left));
            c3 = c3.add(v3.mul(left));
            n0 = n0.add(v0.mul(right));
            n1 = n1.add(v1.mul(right));
            n2 = n2.add(v2.mul(right));
            n3 = n3.add(v3.mul(right));
            p += s;
        }
        if (end > 0) {
            // p is last - 1 here; n holds the last input's right-tap terms.
            int o = (p * outStride + q) * LANES;
            FLOAT_VECTOR.cast(c0).intoArray(to, o);
            FLOAT_VECTOR.cast(c1).intoArray(to, o + LANES);
            FLOAT_VECTOR.cast(c2).intoArray(to, o + 2 * LANES);
            FLOAT_VECTOR.cast(c3).intoArray(to, o + 3 * LANES);
        }
        int lastAt = (last * outStride + q) * LANES;
        FLOAT_VECTOR.cast(n0).intoArray(to, lastAt);
        FLOAT_VECTOR.cast(n1).intoArray(to, lastAt + LANES);
        FLOAT_VECTOR.cast(n2).intoArray(to, lastAt + 2 * LANES);
        FLOAT_VECTOR.cast(n3).intoArray(to, lastAt + 3 * LANES);
        lastInput(t, q, from, to, outStride, end);
    }

    /**
     * The last input of lines q .. q + 3, its sums at their place in {@code to} continued: its right-tap terms
     * from position {@code jFrom} on, then per position its left-tap and right-tap terms (both taps are it).
     * Each term goes through {@code to} (a load and a store in L1 per position): this method is compiled on its
     * own, and sums carried from one iteration to the next as vectors were boxed, every term of every call, in
     * some processes (each loop runs a few positions, so the loads cost little).
     */
    private static void lastInput(LinearTable t, int q, float[] from, float[] to, int outStride, int jFrom) {
        final int[] bounds = t.bounds;
        final int last = t.lin() - 1;
        final int step = t.lout() * LANES;
        final int base = q * step;
        final int o = (last * outStride + q) * LANES;
        for (int j = jFrom; j < bounds[last + 1]; j++) {
            float weight = t.w1[j];
            int at = base + j * LANES;
            for (int k = 0; k < LINES; k++) {
                int s = o + k * LANES;
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, to, s))
                        .add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + k * step)).mul(weight))
                        .intoArray(to, s);
            }
        }
        for (int j = Math.max(jFrom, bounds[last + 1]); j < bounds[last + 2]; j++) {
            float left = t.w0[j];
            float right = t.w1[j];
            int at = base + j * LANES;
            for (int k = 0; k < LINES; k++) {
                int s = o + k * LANES;
                FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + k * step));
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, to, s)).add(v.mul(left)).add(v.mul(right))
                        .intoArray(to, s);
            }
        }
    }

    /** The gather form for lines q .. q + 3: each input's terms in one loop (as in sumLanes), four chains. */
    private static void gather(LinearTable t, int q, float[] from, float[] to, int outStride) {
        final int[] bounds = t.bounds;
        final float[] weights = t.gatherWeights();
        final int last = t.lin() - 1;
        final int step = t.lout() * LANES;
        final int base = q * step;
        for (int i = 0; i < last; i++) {
            int first = bounds[i];
            int n = bounds[i + 2] - first;
            int w = bounds[i + 1] + first;
            int g = base + first * LANES;
            FloatVector s0 = FloatVector.zero(FLOATS);
            FloatVector s1 = s0;
            FloatVector s2 = s0;
            FloatVector s3 = s0;
            for (int k = 0; k < n; k++) {
                float weight = weights[w + k];
                int at = g + k * LANES;
                s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at)).mul(weight));
                s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + step))
                        .mul(weight));
                s2 = FLOAT_VECTOR.cast(s2).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + 2 * step))
                        .mul(weight));
                s3 = FLOAT_VECTOR.cast(s3).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, at + 3 * step))
                        .mul(weight));
            }
            int o = (i * outStride + q) * LANES;
            FLOAT_VECTOR.cast(s0).intoArray(to, o);
            FLOAT_VECTOR.cast(s1).intoArray(to, o + LANES);
            FLOAT_VECTOR.cast(s2).intoArray(to, o + 2 * LANES);
            FLOAT_VECTOR.cast(s3).intoArray(to, o + 3 * LANES);
        }
        int o = (last * outStride + q) * LANES;
        java.util.Arrays.fill(to, o, o + LINES * LANES, 0f);
        lastInput(t, q, from, to, outStride, bounds[last]);
    }

    /** {@link KernelProvider#interpolateLines}: each output of each line straight to its transposed place. */
    static void interpolate(LinearTable t, int q0, int q1, float[] from, float[] to, int outStride) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int step = t.lin() * LANES;
        for (int q = q0; q < q1; q++) {
            int base = q * step;
            for (int j = 0, end = t.lout(); j < end; j++) {
                int left = x0[j];
                int right = left < last ? left + 1 : left;
                FloatVector a = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, base + left * LANES)).mul(w0[j]);
                FloatVector b = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, from, base + right * LANES)).mul(w1[j]);
                a.add(b).intoArray(to, (j * outStride + q) * LANES);
            }
        }
    }
}
