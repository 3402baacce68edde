package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    /** Axes of every kind: up, down, fractional and extreme scales, Lout = 1, Lin = 1, identity with scales. */
    private static final int[][] AXES = {{6, 3}, {3, 6}, {16384, 32768}, {7000, 25900}, {32768, 8192}, {7, 16},
        {3, 1500}, {1500, 3}, {9, 1}, {1, 7}, {1, 1}, {20, 20}, {2, 5}, {4097, 8200}, {10000, 20011}, {9000, 4001}};
    private static final double[] SCALES = {0, 2.3, 0.37, 1e-7, 1e7};

    @Test
    void aDeferredTableComputesTheSameStartsAndValues() {
        for (int[] axis : AXES) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                for (double scales : SCALES) {
                    LinearTable whole = LinearTable.of(axis[0], axis[1], alignCorners, scales);
                    LinearTable deferred = LinearTable.deferred(axis[0], axis[1], alignCorners, scales);
                    String where = "lin=" + axis[0] + " lout=" + axis[1] + " ac=" + alignCorners + " scales=" + scales;
                    assertTrue(deferred.isDeferred(), where);
                    for (int i = -1; i <= axis[0] + 1; i++) {
                        assertEquals(whole.start(Math.max(0, Math.min(i, axis[0]))),
                                deferred.start(Math.max(0, Math.min(i, axis[0]))), where + " start(" + i + ")");
                    }
                    for (int i = 0; i <= axis[0]; i++) {
                        assertEquals(whole.gatherFrom(i), deferred.gatherFrom(i), where + " gatherFrom(" + i + ")");
                        assertEquals(whole.gatherTo(Math.min(i, axis[0] - 1)), deferred.gatherTo(Math.min(i, axis[0] - 1)),
                                where + " gatherTo(" + i + ")");
                    }
                    LinearTable built = deferred.full();
                    assertFalse(built.isDeferred(), where);
                    assertSame(built, deferred.full(), where + ": built once");
                    assertEquals(whole.maxTerms(), deferred.maxTerms(), where + " maxTerms");
                    for (int j = 0; j < axis[1]; j++) {
                        assertEquals(whole.x0(j), deferred.x0(j), where + " x0[" + j + "]");
                        assertEquals(Float.floatToRawIntBits(whole.w0(j)), Float.floatToRawIntBits(deferred.w0(j)),
                                where + " w0[" + j + "]");
                        assertEquals(Float.floatToRawIntBits(whole.w1(j)), Float.floatToRawIntBits(deferred.w1(j)),
                                where + " w1[" + j + "]");
                    }
                }
            }
        }
    }

    /**
     * A window of inputs [a, b) holds the whole table's values for the outputs those inputs gather from,
     * shifted to start at 0, with every provider (the vector one computes taps, weights and bounds in
     * vectors), whether its arrays are new or reused from a larger window.
     */
    @Test
    void windowsHoldTheWholeTablesValuesWithEveryProvider() {
        Random random = new Random(31);
        List<KernelProvider> providers = new ArrayList<>(List.of(KernelProviders.scalar()));
        if (KernelProviders.vector() != null) {
            providers.add(KernelProviders.vector());
        }
        for (int[] axis : AXES) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                for (double scales : SCALES) {
                    int lin = axis[0];
                    int lout = axis[1];
                    LinearTable whole = LinearTable.of(lin, lout, alignCorners, scales);
                    LinearTable deferred = LinearTable.deferred(lin, lout, alignCorners, scales);
                    for (KernelProvider provider : providers) {
                        LinearTable reuse = null;
                        for (int trial = 0; trial < 12; trial++) {
                            int a = trial == 0 ? 0 : random.nextInt(lin);
                            int b = trial == 1 ? lin : a + 1 + random.nextInt(Math.min(lin - a, 5000));
                            if (trial == 2) {
                                a = 0;
                                b = lin;
                            }
                            LinearTable w = deferred.window(a, b, reuse, provider);
                            reuse = w;
                            checkWindow(whole, w, a, b, "lin=" + lin + " lout=" + lout + " ac=" + alignCorners
                                    + " scales=" + scales + " " + provider.name() + " window [" + a + ", " + b + ")");
                        }
                    }
                }
            }
        }
    }

    /**
     * Consecutive windows of as many inputs, each built with the previous one as {@code reuse} (as the
     * kernel's threads build them): on axes whose table repeats ({@link LinearTable#period}) the windows a
     * whole number of periods apart and clear of the clamped ends are taken from the previous one without a
     * fill, and every window, translated or built, holds the whole table's values; on other axes every
     * window is filled.
     */
    @Test
    void windowsAWholeNumberOfPeriodsApartAreTranslatedNotRefilled() {
        // {lin, lout, alignCorners (1/0), scales, block, expects translations (1/0)}
        double[][] cases = {
            {1 << 16, 1 << 17, 0, 0, 4096, 1}, {1 << 16, 1 << 17, 0, 0, 333, 1}, {16384, 32768, 1, 0, 1000, 0},
            {32768, 8192, 0, 0, 4096, 1}, {32768, 8192, 0, 0, 1002, 0}, {32768, 8192, 0, 0, 1000, 1},
            {3000, 1000, 0, 0, 999, 1}, {3000, 1000, 0, 0, 1000, 0}, {5000, 20000, 0, 0, 512, 1},
            {4097, 16385, 1, 0, 700, 1}, {7000, 25900, 0, 0, 1000, 0}, {3000, 9000, 0, 0, 500, 0},
            {1000, 3000, 0, 2.0, 200, 1}, {1000, 3000, 0, 3.0, 200, 0}, {1000, 3000, 0, 0.5, 100, 1},
            {200, 400, 0, 0, 7, 1}, {100, 200, 0, 0, 200, 0}, {65, 4097, 1, 0, 1, 1}, {65, 4097, 1, 0, 2, 1},
            {32768, 8192, 0, 0, 1024, 1}, {1000, 3000, 0, 0.5, 10, 1},
        };
        List<KernelProvider> providers = new ArrayList<>(List.of(KernelProviders.scalar()));
        if (KernelProviders.vector() != null) {
            providers.add(KernelProviders.vector());
        }
        for (double[] c : cases) {
            int lin = (int) c[0];
            int lout = (int) c[1];
            boolean alignCorners = c[2] != 0;
            int block = (int) c[4];
            LinearTable whole = LinearTable.of(lin, lout, alignCorners, c[3]);
            LinearTable deferred = LinearTable.deferred(lin, lout, alignCorners, c[3]);
            for (KernelProvider provider : providers) {
                int[] fills = new int[1];
                KernelProvider counting = countingFills(provider, fills);
                String where = "lin=" + lin + " lout=" + lout + " ac=" + alignCorners + " scales=" + c[3] + " block="
                        + block + " " + provider.name();
                // Left to right, as a thread takes its blocks, and right to left.
                for (boolean rightToLeft : new boolean[] {false, true}) {
                    fills[0] = 0;
                    LinearTable reuse = null;
                    int windows = (lin + block - 1) / block;
                    for (int k = 0; k < windows; k++) {
                        int a = (rightToLeft ? windows - 1 - k : k) * block;
                        int b = Math.min(lin, a + block);
                        LinearTable w = deferred.window(a, b, reuse, counting);
                        checkWindow(whole, w, a, b, where + (rightToLeft ? " right to left" : "") + " window [" + a
                                + ", " + b + ")");
                        reuse = w;
                    }
                    if (c[5] != 0) {
                        assertTrue(fills[0] <= Math.max(4, windows / 4), where + ": " + fills[0] + " of " + windows
                                + " windows filled");
                    } else {
                        assertEquals(windows, fills[0], where + ": every window filled");
                    }
                }
            }
        }
    }

    /**
     * A window whose arrays were since overwritten by another window is no basis for a translation: the arrays'
     * contents decide, not the window object passed.
     */
    @Test
    void aTranslationStartsFromWhatTheArraysHoldNow() {
        int lin = 1 << 16;
        LinearTable whole = LinearTable.of(lin, 2 * lin, false, 0);
        LinearTable deferred = LinearTable.deferred(lin, 2 * lin, false, 0);
        KernelProvider provider = KernelProviders.scalar();
        LinearTable first = deferred.window(1000, 1200, null, provider);
        // Another length: filled into the same arrays.
        LinearTable second = deferred.window(5000, 5150, first, provider);
        assertSame(first.x0, second.x0, "the arrays are reused");
        // A translation of `first` by 3 periods, asked with `first` (whose arrays now hold `second`).
        LinearTable third = deferred.window(1003, 1203, first, provider);
        checkWindow(whole, third, 1003, 1203, "after an overwrite");
    }

    /** Periods: exact scales only (powers of two, integer downsampling), none when a source would round. */
    /**
     * The runs of groups that repeat one tap pattern, as the vector kernel looks them up: checked against the
     * definition, group by group, for the lane counts of 512, 256 and 128 bits, on whole tables and on windows.
     */
    @Test
    void patternRunEndsFollowTheDefinition() {
        int[][] shapes = {{16384, 32768}, {4096, 8191}, {7000, 25900}, {32768, 8192}, {1000, 1999}, {3000, 3001},
            {17, 34}, {16, 64}, {2, 5}, {1, 7}};
        for (int[] shape : shapes) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                LinearTable whole = LinearTable.of(shape[0], shape[1], alignCorners, 0);
                List<LinearTable> tables = new ArrayList<>(List.of(whole));
                if (shape[0] > 600) {
                    tables.add(LinearTable.deferred(shape[0], shape[1], alignCorners, 0).window(300, 600, null,
                            KernelProviders.scalar()));
                }
                for (LinearTable t : tables) {
                    for (int lanes : new int[] {16, 8, 4}) {
                        int[] ends = t.patternRunEnds(lanes);
                        String where = shape[0] + "->" + shape[1] + " ac=" + alignCorners + " lin=" + t.lin()
                                + " lanes=" + lanes;
                        int groups = Math.max(0, (t.lin() - 1) / lanes);
                        assertEquals(groups, ends.length, where + " groups");
                        for (int g = 0; g < groups; g++) {
                            int h = g + 1;
                            while (h < groups && samePattern(t, g * lanes, h * lanes, lanes)) {
                                h++;
                            }
                            assertEquals(h, ends[g], where + " group " + g);
                        }
                    }
                }
            }
        }
    }

    private static boolean samePattern(LinearTable t, int a, int b, int lanes) {
        for (int m = 0; m <= lanes + 1; m++) {
            if (t.bounds[b + m] - t.bounds[b] != t.bounds[a + m] - t.bounds[a]) {
                return false;
            }
        }
        return true;
    }

    @Test
    void periodsAreFoundForExactScalesOnly() {
        assertEquals(2L << 32 | 1, LinearTable.period(1 << 20, 0.5, 0.5));
        assertEquals(1L << 32 | 4, LinearTable.period(8192, 4.0, 0.5));
        assertEquals(1L << 32 | 3, LinearTable.period(1000, 3.0, 0.5));
        assertEquals(8L << 32 | 3, LinearTable.period(1000, 0.375, 0.0));
        assertEquals(0, LinearTable.period(1000, 1.0 / 3, 0.5));
        assertEquals(0, LinearTable.period(25900, 7000.0 / 25900, 0.5));
        // 3·2^-30 with 2^22 outputs: m·(2j + 1) = 3·(2^23 - 1) < 2^53, exact; periods longer than 2^30 are not kept.
        assertEquals((1L << 30) << 32 | 3, LinearTable.period(1 << 22, 0x3p-30, 0.5));
        assertEquals(0, LinearTable.period(1 << 22, 1 + 0x1p-40, 0.5));
        assertEquals(0, LinearTable.period(1 << 22, 0x1p-31, 0.5));
        // m = 2^30 + 1 (scale 1 + 2^-30) times 2j + 1: under 2^53 up to 2^22 outputs, over it with 2^23.
        assertEquals(0, LinearTable.period(1 << 23, 1 + 0x1p-30, 0.5));
        assertEquals((1L << 30) << 32 | ((1L << 30) + 1), LinearTable.period(1 << 22, 1 + 0x1p-30, 0.5));
    }

    private static KernelProvider countingFills(KernelProvider provider, int[] fills) {
        return new KernelProvider() {
            @Override
            public String name() {
                return provider.name();
            }

            @Override
            public void linearBackward(LinearTable t, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                                       float[] acc, int accOffset, int accRowStride, float[] work) {
                provider.linearBackward(t, i0, i1, rows, g, gOffset, gRowStride, acc, accOffset, accRowStride, work);
            }

            @Override
            public void linearForward(LinearTable t, float[] x, int xBase, float[] y, int j0, int j1) {
                provider.linearForward(t, x, xBase, y, j0, j1);
            }

            @Override
            public void fillTaps(int[] x0, float[] w0, float[] w1, int at, int first, int count, int lin, double scale,
                                 double half, int tapBase) {
                fills[0]++;
                provider.fillTaps(x0, w0, w1, at, first, count, lin, scale, half, tapBase);
            }

            @Override
            public void firstReaching(int[] taps, int count, int[] starts, int length) {
                provider.firstReaching(taps, count, starts, length);
            }
        };
    }

    private static void checkWindow(LinearTable whole, LinearTable w, int a, int b, String where) {
        int ja = whole.gatherFrom(a);
        int jb = whole.gatherTo(b);
        int inputs = b - a;
        assertEquals(b == whole.lin() ? inputs : inputs + 1, w.lin(), where + " lin");
        assertEquals(jb - ja, w.lout(), where + " lout");
        // The kernels choose their form by the axis's ratio, which a window keeps.
        assertEquals(whole.lin(), w.axisLin(), where + " axisLin");
        assertEquals(whole.lout(), w.axisLout(), where + " axisLout");
        for (int k = 0; k <= inputs; k++) {
            assertEquals(whole.start(a + k) - ja, w.start(k), where + " start(" + (a + k) + ")");
            assertEquals(whole.gatherFrom(a + k) - ja, w.gatherFrom(k), where + " gatherFrom(" + (a + k) + ")");
        }
        for (int i = 0; i < inputs; i++) {
            assertEquals(whole.gatherTo(a + i) - ja, w.gatherTo(i), where + " gatherTo(" + (a + i) + ")");
        }
        int padded = Math.min(jb - ja + LinearTable.WEIGHT_PADDING, whole.lout() - ja);
        for (int m = 0; m < padded; m++) {
            assertEquals(whole.x0(ja + m) - a, w.x0(m), where + " x0[" + (ja + m) + "]");
            assertEquals(Float.floatToRawIntBits(whole.w0(ja + m)), Float.floatToRawIntBits(w.w0(m)),
                    where + " w0[" + (ja + m) + "]");
            assertEquals(Float.floatToRawIntBits(whole.w1(ja + m)), Float.floatToRawIntBits(w.w1(m)),
                    where + " w1[" + (ja + m) + "]");
        }
        for (int m = Math.max(padded, 0); m < jb - ja + LinearTable.WEIGHT_PADDING; m++) {
            assertEquals(0f, w.w0(m), where + " w0 padding");
            assertEquals(0f, w.w1(m), where + " w1 padding");
        }
    }

    /**
     * The vector provider's fill takes the floor with additions of 2^52 and converts to int and float in
     * plain loops (no Vector API conversion): it must match the reference on ties of the float rounding,
     * on sources just below, at and above integers, on sources past 2^52 and past the last input, and on
     * weights under 2^-126.
     */
    @Test
    void vectorTapFillMatchesTheReferenceOnTiesAndExtremes() {
        KernelProvider vector = KernelProviders.vector();
        if (vector == null) {
            return;
        }
        // {first output, lin, scale, half}: j·2^-25 for j in [2^24, 2^25) is a float tie at every odd j; scales
        // that put sources on, just under and just over integers; sources past 2^52 and past lin - 1; half pixels;
        // weights under 2^-126.
        double[][] axes = {
            {1 << 24, 2, 0x1p-25, 0}, {(1 << 25) - 200, 2, 0x1p-25, 0}, {0, 1000, 1.0, 0}, {0, 1000, 1.0 - 0x1p-40, 0},
            {0, 1000, 1.0 + 0x1p-40, 0}, {1, 100, 0x1p60, 0}, {0, 50, 0.75, 0.5}, {3, 7000, 7000.0 / 25900, 0.5},
            {0, 3, 1e-9, 0.5}, {1, 9, 0x1p-126, 0}, {5, 2, 0x1p-130, 0}, {0, 1 << 30, 1.0 / 3, 0.5},
        };
        for (double[] axis : axes) {
            int first = (int) axis[0];
            int lin = (int) axis[1];
            int count = 203;
            int[] x0 = new int[count];
            float[] w0 = new float[count];
            float[] w1 = new float[count];
            int[] rx0 = new int[count];
            float[] rw0 = new float[count];
            float[] rw1 = new float[count];
            vector.fillTaps(x0, w0, w1, 0, first, count, lin, axis[2], axis[3], 1);
            LinearTable.fillTaps(rx0, rw0, rw1, 0, first, count, lin, axis[2], axis[3], 1);
            for (int m = 0; m < count; m++) {
                String where = "output " + (first + m) + " of lin=" + lin + " scale=" + axis[2] + " half=" + axis[3];
                assertEquals(rx0[m], x0[m], where + ": tap");
                assertEquals(Float.floatToRawIntBits(rw1[m]), Float.floatToRawIntBits(w1[m]), where + ": w1 " + rw1[m]);
                assertEquals(Float.floatToRawIntBits(rw0[m]), Float.floatToRawIntBits(w0[m]), where + ": w0 " + rw0[m]);
            }
        }
    }
}
