package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link KernelProvider#interpolateRow} on the Vector API, for {@link VectorKernelProvider}: a vector of output
 * elements at a time, as {@link RowTaps#windows} places its taps: where they are two runs of consecutive
 * elements (channels of one pixel, 16 or more to a pixel) two plain loads; where they lie within two vectors of
 * inputs (a few channels to a pixel, short rows end to end, upsampling or downsampling by less than about 2) two
 * two-source permutes of those, within four (downsampling by up to about 4) two pairs of them blended; otherwise
 * two hardware gathers; where a window would leave {@code x}, the scalar loop. The left product first. Where the
 * taps repeat with a period (the flat rows and maps, a long row's {@link RowTaps#runs}), each vector of the period
 * is worked out once (its indices and weights loaded) and applied to every whole period of the call in turn; where
 * only a run's indices repeat (its weights drift), each vector's window once and its weights in the loop.
 */
final class VectorRowTaps {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();

    private VectorRowTaps() {}

    static void interpolate(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        if (taps.runs.length == 0) {
            stretches(taps, e0, e1, x, xBase, y, yBase);
        } else {
            runStretches(taps, e0, e1, x, xBase, y, yBase);
        }
    }

    /**
     * {@link #interpolate} of taps with periodic runs, in a method of its own so that the rows without one keep
     * the small caller C2 inlined before: each run goes as whole periods, each vector's indices and weights loaded
     * once for all of them, or, where its weights drift, its indices once ({@link #drifting}); the elements between
     * runs by the row's tables.
     */
    private static void runStretches(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        int e = e0;
        for (int i = 0; i < taps.runs.length; i++) {
            RowTaps run = taps.runs[i];
            int from = taps.runFrom[i];
            int a = Math.max(e, from);
            int b = Math.min(e1, from + run.length());
            if (a >= b) {
                continue;
            }
            stretches(taps, e, a, x, xBase, y, yBase);
            if (run.weightStep == 0) {
                stretches(run, a - from, b - from, x, xBase, y, yBase - from);
            } else {
                drifting(taps, run, from, a, b, x, xBase, y, yBase);
            }
            e = b;
        }
        stretches(taps, e, e1, x, xBase, y, yBase);
    }

    /**
     * Elements {@code [a, b)} of {@code taps}' run from element {@code runFrom} whose weights drift
     * ({@link RowTaps#weightStep}): each vector of the run's period has its window of indices (a pair or four vectors
     * of inputs) worked out once and is applied to every period in turn, loading that vector's weights in the loop.
     * The partial vectors at the ends go through the scalar loop, as does a vector of the period wherever its window
     * would leave {@code x}.
     */
    private static void drifting(RowTaps taps, RowTaps run, int runFrom, int a, int b, float[] x, int xBase,
                                 float[] y, int yBase) {
        int v0 = Math.min(b, (a + LANES - 1) / LANES * LANES);
        int v1 = Math.max(v0, b / LANES * LANES);
        ScalarKernelProvider.interpolateRowScalar(taps, a, v0, x, xBase, y, yBase);
        ScalarKernelProvider.interpolateRowScalar(taps, v1, b, x, xBase, y, yBase);
        TapWindows windows = run.windows(LANES);
        final float[] w0 = run.w0;
        final float[] w1 = run.w1;
        final int period = run.period;
        final int shift = run.shift;
        int r0 = v0 - runFrom;
        int r1 = v1 - runFrom;
        for (int p = 0; p < period; p += LANES) {
            // The periods m whose vector at p lies within [r0, r1).
            int first = r0 <= p ? 0 : (r0 - p + period - 1) / period;
            int end = r1 < p + LANES ? 0 : (r1 - p - LANES) / period + 1;
            if (first >= end) {
                continue;
            }
            int v = p / LANES;
            int from = windows.base()[v] + first * shift - xBase;
            if (from < 0 || from + (end - 1 - first) * shift + windows.reach()[v] > x.length) {
                for (int m = first; m < end; m++) {
                    int q = runFrom + m * period + p;
                    ScalarKernelProvider.interpolateRowScalar(taps, q, q + LANES, x, xBase, y, yBase);
                }
                continue;
            }
            final boolean quad = windows.kind()[v] == TapWindows.QUAD;
            IntVector left = INT_VECTOR.cast(IntVector.fromArray(INTS, windows.rel(), p));
            IntVector right = INT_VECTOR.cast(IntVector.fromArray(INTS, windows.rel(), p + period));
            IntVector nearLeft = left.and(2 * LANES - 1);
            IntVector nearRight = right.and(2 * LANES - 1);
            VectorMask<Integer> farLeft = left.compare(VectorOperators.GE, 2 * LANES);
            VectorMask<Integer> farRight = right.compare(VectorOperators.GE, 2 * LANES);
            for (int m = first, w = first * period + p; m < end; m++, w += period, from += shift) {
                IntVector i0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from))
                        .reinterpretShape(INTS, 0);
                IntVector i1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + LANES))
                        .reinterpretShape(INTS, 0);
                IntVector l = nearLeft.selectFrom(i0, i1);
                IntVector r = nearRight.selectFrom(i0, i1);
                if (quad) {
                    IntVector i2 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + 2 * LANES))
                            .reinterpretShape(INTS, 0);
                    IntVector i3 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + 3 * LANES))
                            .reinterpretShape(INTS, 0);
                    l = INT_VECTOR.cast(l).blend(nearLeft.selectFrom(i2, i3), farLeft);
                    r = INT_VECTOR.cast(r).blend(nearRight.selectFrom(i2, i3), farRight);
                }
                FloatVector lv = (FloatVector) INT_VECTOR.cast(l).reinterpretShape(FLOATS, 0);
                FloatVector rv = (FloatVector) INT_VECTOR.cast(r).reinterpretShape(FLOATS, 0);
                FLOAT_VECTOR.cast(lv).mul(FloatVector.fromArray(FLOATS, w0, w))
                        .add(FLOAT_VECTOR.cast(rv).mul(FloatVector.fromArray(FLOATS, w1, w)))
                        .intoArray(y, runFrom + w - yBase);
            }
        }
    }

    /** {@link #interpolate} by stretches of one period, or whole periods from a period's start. */
    private static void stretches(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        if (e0 >= e1) {
            return;
        }
        int period = taps.period;
        int e = Math.min(e1, (e0 + LANES - 1) / LANES * LANES);
        ScalarKernelProvider.interpolateRowScalar(taps, e0, e, x, xBase, y, yBase);
        // Stretches of one period (a whole row where the taps do not repeat), or whole periods from a period's
        // start, all through one method: a method that took only the partial periods at a call's ends met most
        // kinds of vector seldom, and C2 compiled it with their vector calls cold, not inlined, boxing every
        // vector (see KERNELS.md, "JIT state").
        while (e < e1) {
            int start = e / period * period;
            int p0 = e - start;
            int periods = p0 == 0 && e1 - e >= 2 * period ? (e1 - e) / period : 1;
            int p1 = periods > 1 ? period : Math.min(period, e1 - start);
            int whole = p0 + (p1 - p0) / LANES * LANES;
            periods(taps, start, p0, whole, periods, x, xBase, y, yBase);
            int end = start + (periods - 1) * period;
            ScalarKernelProvider.interpolateRowScalar(taps, end + whole, end + p1, x, xBase, y, yBase);
            e = end + p1;
        }
    }

    /**
     * The whole vectors of elements {@code [p0, p1)} of {@code periods} periods from element {@code e} (a period's
     * start): each vector takes its indices and weights once, then every period's inputs in turn.
     */
    private static void periods(RowTaps taps, int e, int p0, int p1, int periods, float[] x, int xBase, float[] y,
                                int yBase) {
        final float[] w0 = taps.w0;
        final float[] w1 = taps.w1;
        TapWindows windows = taps.windows(LANES);
        final int[] bases = windows.base();
        final byte[] kinds = windows.kind();
        final int[] reach = windows.reach();
        final int[] at = windows.rel();
        final int period = taps.period;
        final int shift = taps.shift;
        int moved = e / period * shift - xBase;
        for (int p = p0; p < p1; p += LANES) {
            int v = p / LANES;
            int from = bases[v] + moved;
            int to = e + p - yBase;
            if (from < 0 || from + (periods - 1) * shift + reach[v] > x.length) {
                for (int m = 0; m < periods; m++) {
                    int q = e + m * period + p;
                    ScalarKernelProvider.interpolateRowScalar(taps, q, q + LANES, x, xBase, y, yBase);
                }
                continue;
            }
            byte kind = kinds[v];
            FloatVector l = FloatVector.fromArray(FLOATS, w0, p);
            FloatVector r = FloatVector.fromArray(FLOATS, w1, p);
            if (kind == TapWindows.GATHER) {
                for (int m = 0; m < periods; m++, from += shift, to += period) {
                    FloatVector a = FloatVector.fromArray(FLOATS, x, from, at, p);
                    FloatVector b = FloatVector.fromArray(FLOATS, x, from, at, p + period);
                    FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(b).mul(r)).intoArray(y, to);
                }
            } else if (kind == TapWindows.RUNS) {
                int left = at[p];
                int right = at[p + period];
                for (int m = 0; m < periods; m++, from += shift, to += period) {
                    FloatVector a = FloatVector.fromArray(FLOATS, x, from + left);
                    FloatVector b = FloatVector.fromArray(FLOATS, x, from + right);
                    FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(b).mul(r)).intoArray(y, to);
                }
            } else if (kind == TapWindows.PAIR) {
                IntVector left = INT_VECTOR.cast(IntVector.fromArray(INTS, at, p));
                IntVector right = INT_VECTOR.cast(IntVector.fromArray(INTS, at, p + period));
                for (int m = 0; m < periods; m++, from += shift, to += period) {
                    IntVector v0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from))
                            .reinterpretShape(INTS, 0);
                    IntVector v1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + LANES))
                            .reinterpretShape(INTS, 0);
                    FloatVector a = (FloatVector) left.selectFrom(v0, v1).reinterpretShape(FLOATS, 0);
                    FloatVector b = (FloatVector) right.selectFrom(v0, v1).reinterpretShape(FLOATS, 0);
                    FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(b).mul(r)).intoArray(y, to);
                }
            } else {
                IntVector left = INT_VECTOR.cast(IntVector.fromArray(INTS, at, p));
                IntVector right = INT_VECTOR.cast(IntVector.fromArray(INTS, at, p + period));
                IntVector nearLeft = left.and(2 * LANES - 1);
                IntVector nearRight = right.and(2 * LANES - 1);
                VectorMask<Integer> farLeft = left.compare(VectorOperators.GE, 2 * LANES);
                VectorMask<Integer> farRight = right.compare(VectorOperators.GE, 2 * LANES);
                for (int m = 0; m < periods; m++, from += shift, to += period) {
                    IntVector v0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from))
                            .reinterpretShape(INTS, 0);
                    IntVector v1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + LANES))
                            .reinterpretShape(INTS, 0);
                    IntVector v2 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + 2 * LANES))
                            .reinterpretShape(INTS, 0);
                    IntVector v3 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, from + 3 * LANES))
                            .reinterpretShape(INTS, 0);
                    FloatVector a = (FloatVector) nearLeft.selectFrom(v0, v1)
                            .blend(nearLeft.selectFrom(v2, v3), farLeft).reinterpretShape(FLOATS, 0);
                    FloatVector b = (FloatVector) nearRight.selectFrom(v0, v1)
                            .blend(nearRight.selectFrom(v2, v3), farRight).reinterpretShape(FLOATS, 0);
                    FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(b).mul(r)).intoArray(y, to);
                }
            }
        }
    }
}
