package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The coordinate table built in one fast pass equals SPEC §1's formulas evaluated one element at a
 * time ({@link LinearTable#sourceIndex}), and its gather bounds equal their definition.
 */
class LinearTableTest {

    @Test
    void tapsWeightsAndBoundsFollowTheFormulas() {
        int[][] shapes = {{6, 3}, {3, 6}, {16384, 32768}, {7000, 25900}, {32768, 8192}, {7, 16}, {3, 1500}, {1500, 3},
            {9, 1}, {1, 7}, {1, 1}, {20, 20}, {2, 5}};
        for (int[] shape : shapes) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                for (double scales : new double[] {0, (double) shape[1] / shape[0], 2.3}) {
                    check(shape[0], shape[1], alignCorners, scales);
                }
            }
        }
    }

    private static void check(int lin, int lout, boolean alignCorners, double scales) {
        LinearTable t = LinearTable.of(lin, lout, alignCorners, scales);
        String where = "lin=" + lin + " lout=" + lout + " ac=" + alignCorners + " scales=" + scales;
        double scale = LinearTable.scale(lin, lout, alignCorners, scales);
        for (int j = 0; j < lout; j++) {
            int x0;
            float w0;
            float w1;
            if (lin == lout) {
                x0 = j;
                w0 = 1f;
                w1 = 0f;
            } else {
                double src = LinearTable.sourceIndex(scale, j, alignCorners);
                x0 = (int) Math.min(Math.floor(src), lin - 1);
                double lambda1 = Math.min(Math.max(src - x0, 0.0), 1.0);
                w1 = (float) lambda1;
                w0 = (float) (1.0 - lambda1);
            }
            assertEquals(x0, t.x0(j), where + " x0[" + j + "]");
            assertEquals(x0 < lin - 1 ? x0 + 1 : x0, t.x1(j), where + " x1[" + j + "]");
            assertEquals(Float.floatToRawIntBits(w0), Float.floatToRawIntBits(t.w0(j)), where + " w0[" + j + "]");
            assertEquals(Float.floatToRawIntBits(w1), Float.floatToRawIntBits(t.w1(j)), where + " w1[" + j + "]");
        }
        int most = 0;
        for (int i = 0; i <= lin; i++) {
            int first = 0;
            while (first < lout && t.x0(first) < i) {
                first++;
            }
            assertEquals(first, t.start(i), where + " start(" + i + ")");
            assertEquals(i == 0 ? 0 : t.start(i - 1), t.gatherFrom(i), where + " gatherFrom(" + i + ")");
            if (i < lin - 1) {
                most = Math.max(most, t.start(i + 1) - t.gatherFrom(i));
            }
        }
        assertEquals(most, t.maxTerms(), where + " maxTerms");
    }
}
