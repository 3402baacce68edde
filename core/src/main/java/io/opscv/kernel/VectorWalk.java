package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link KernelProvider#sumLanes} as one walk over the positions, for {@link VectorKernelProvider}: each
 * position j adds its left term to the sum of input x0[j] and its right term to that of x0[j] + 1, and
 * the two sums stay in registers while j walks on. When x0 steps on, the finished sum is stored and the
 * next one loaded, by blends rather than a branch (at fractional ratios the step comes at irregular j,
 * which a branch would mispredict). Every g vector is loaded once, where the gather form loads it for
 * each of its two inputs and pays a loop per input: at ratios near 1 that loop's set-up costs more than
 * its two or three terms.
 *
 * <p>Each input receives its terms in ascending j, the left-tap term of a j before its right-tap term:
 * the canonical order, so the bits are those of the gather form and of the scalar reference. Downsampling
 * tables take {@link #scatter} instead.
 */
final class VectorWalk {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();

    /** Positions per left tap, on average, from which the walk goes run by run ({@link #runs}). */
    static final int RUN_POSITIONS = 8;

    private VectorWalk() {}

    /**
     * {@link KernelProvider#sumLanes} for a table whose taps step by at most one input per position
     * where they can (upsampling; larger steps are handled, as a branch).
     */
    static void sum(LinearTable t, int i0, int i1, int jFrom, int jTo, float[] g, int jBase, float[] sums,
                    int iBase) {
        final int[] bounds = t.bounds;
        // The middle: positions whose two taps are distinct and both in [i0, i1), x0 in [i0, m - 1].
        int m = Math.min(i1 - 1, t.lin() - 1);
        int jm0 = Math.max(jFrom, bounds[i0 + 1]);
        int jm1 = Math.max(jm0, Math.min(jTo, bounds[m + 1]));
        // Before it, the positions whose right tap is i0; after it, those whose left tap is m (both taps, if m is
        // the last input; m + 1 is past the range otherwise). Positions further out reach no input of the range.
        int before = Math.max(jFrom, bounds[i0]);
        if (before < Math.min(jm0, jTo)) {
            tail(t.w1, null, before, Math.min(jm0, jTo), g, jBase, sums, (i0 - iBase) * LANES);
        }
        if (jm0 < jm1 && jm1 - jm0 >= RUN_POSITIONS * (t.x0[jm1 - 1] - t.x0[jm0] + 1)) {
            runs(t, jm0, jm1, g, jBase, sums, iBase);
        } else if (jm0 < jm1) {
            middle(t, jm0, jm1, g, jBase, sums, iBase);
        }
        int after = Math.min(jTo, bounds[m + 2]);
        if (jm1 < after) {
            tail(t.w0, m == t.lin() - 1 ? t.w1 : null, jm1, after, g, jBase, sums, (m - iBase) * LANES);
        }
    }

    private static void middle(LinearTable t, int j0, int j1, float[] g, int jBase, float[] sums, int iBase) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        int p = x0[j0];
        FloatVector cur = FloatVector.fromArray(FLOATS, sums, (p - iBase) * LANES);
        FloatVector next = FloatVector.fromArray(FLOATS, sums, (p + 1 - iBase) * LANES);
        for (int j = j0; j < j1; j++) {
            int q = x0[j];
            long step = q - p;
            if (step > 1) {
                // Taps that skip inputs (scales far from the sizes' ratio): store both, start afresh.
                FLOAT_VECTOR.cast(cur).intoArray(sums, (p - iBase) * LANES);
                FLOAT_VECTOR.cast(next).intoArray(sums, (p + 1 - iBase) * LANES);
                cur = FloatVector.fromArray(FLOATS, sums, (q - iBase) * LANES);
                next = FloatVector.fromArray(FLOATS, sums, (q + 1 - iBase) * LANES);
                p = q;
                step = 0;
            }
            // The sum of p is stored at every position: the last store, when x0 moves on, is its final value.
            FLOAT_VECTOR.cast(cur).intoArray(sums, (p - iBase) * LANES);
            FloatVector ahead = FloatVector.fromArray(FLOATS, sums, (q + 1 - iBase) * LANES);
            VectorMask<Float> on = VectorMask.fromLong(FLOATS, -step);
            cur = FLOAT_VECTOR.cast(cur).blend(next, on);
            next = FLOAT_VECTOR.cast(next).blend(ahead, on);
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, (j - jBase) * LANES));
            cur = cur.add(v.mul(w0[j]));
            next = next.add(v.mul(w1[j]));
            p = q;
        }
        FLOAT_VECTOR.cast(cur).intoArray(sums, (p - iBase) * LANES);
        FLOAT_VECTOR.cast(next).intoArray(sums, (p + 1 - iBase) * LANES);
    }

    /**
     * {@link #middle} for tables of long runs of positions on one left tap (upsampling by
     * {@link #RUN_POSITIONS} or more on average): a loop per run, whose sums' chains are their adds alone, where
     * {@link #middle}'s carry a blend and a store per position; a run's end is one branch, taken about once a
     * run.
     */
    private static void runs(LinearTable t, int j0, int j1, float[] g, int jBase, float[] sums, int iBase) {
        final int[] x0 = t.x0;
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        int p = x0[j0];
        FloatVector cur = FloatVector.fromArray(FLOATS, sums, (p - iBase) * LANES);
        FloatVector next = FloatVector.fromArray(FLOATS, sums, (p + 1 - iBase) * LANES);
        int j = j0;
        while (true) {
            // Positions whose left tap is p: [bounds[p + 1], bounds[p + 2]).
            for (int end = Math.min(j1, bounds[p + 2]); j < end; j++) {
                FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, (j - jBase) * LANES));
                cur = FLOAT_VECTOR.cast(cur).add(v.mul(w0[j]));
                next = FLOAT_VECTOR.cast(next).add(v.mul(w1[j]));
            }
            FLOAT_VECTOR.cast(cur).intoArray(sums, (p - iBase) * LANES);
            if (j >= j1) {
                FLOAT_VECTOR.cast(next).intoArray(sums, (p + 1 - iBase) * LANES);
                return;
            }
            int q = x0[j];
            if (q == p + 1) {
                cur = next;
            } else {
                // Taps that skip inputs (scales far from the sizes' ratio): store p + 1's sum, start afresh.
                FLOAT_VECTOR.cast(next).intoArray(sums, (p + 1 - iBase) * LANES);
                cur = FloatVector.fromArray(FLOATS, sums, (q - iBase) * LANES);
            }
            next = FloatVector.fromArray(FLOATS, sums, (q + 1 - iBase) * LANES);
            p = q;
        }
    }

    /**
     * One input's sum at {@code sums[at ..]} continued with positions [j0, j1): {@code first[j]·g[j]}, then
     * {@code second[j]·g[j]} where the input is both taps (the last input).
     */
    private static void tail(float[] first, float[] second, int j0, int j1, float[] g, int jBase, float[] sums,
                             int at) {
        FloatVector sum = FloatVector.fromArray(FLOATS, sums, at);
        for (int j = j0; j < j1; j++) {
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, (j - jBase) * LANES));
            sum = FLOAT_VECTOR.cast(sum).add(v.mul(first[j]));
            if (second != null) {
                sum = FLOAT_VECTOR.cast(sum).add(v.mul(second[j]));
            }
        }
        FLOAT_VECTOR.cast(sum).intoArray(sums, at);
    }

    /**
     * {@link KernelProvider#sumLanes} as a scatter over ascending j, for downsampling tables: there most inputs
     * get no term and the taps of consecutive positions are mostly different inputs, so each term goes through
     * memory (a load, an add and a store into its tap's sum, the left term first) rather than through the
     * walk's registers. Each input receives its terms in the canonical order, as in {@link #sum}.
     */
    static void scatter(LinearTable t, int i0, int i1, int jFrom, int jTo, float[] g, int jBase, float[] sums,
                        int iBase) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        for (int j = jFrom; j < jTo; j++) {
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, (j - jBase) * LANES));
            int left = x0[j];
            if (left >= i0 && left < i1) {
                int at = (left - iBase) * LANES;
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, sums, at)).add(v.mul(w0[j])).intoArray(sums, at);
            }
            int right = t.x1(j);
            if (right >= i0 && right < i1) {
                int at = (right - iBase) * LANES;
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, sums, at)).add(v.mul(w1[j])).intoArray(sums, at);
            }
        }
    }
}
