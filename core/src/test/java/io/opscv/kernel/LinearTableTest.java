package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
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
        boolean every = t.x0(0) == 0 && t.x0(lout - 1) >= lin - 2;
        for (int j = 1; j < lout; j++) {
            every &= t.x0(j) - t.x0(j - 1) <= 1;
        }
        assertEquals(every, t.visitsEveryInput(), where + " visitsEveryInput");
    }

    @Test
    void upsamplingTablesVisitEveryInputUnlessTheirScalesSkipSome() {
        assertTrue(LinearTable.of(7000, 25900, false, 0).visitsEveryInput());
        assertTrue(LinearTable.of(3, 1500, true, 0).visitsEveryInput());
        assertTrue(LinearTable.of(1, 7, false, 0).visitsEveryInput());
        assertFalse(LinearTable.of(8, 16, false, 0.3).visitsEveryInput(), "taps 3.3 inputs apart");
        assertFalse(LinearTable.of(8, 16, false, 8.0).visitsEveryInput(), "taps end at input 1");
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

    /** Deferred tables of one axis share one built table (phase 2 pays once per axis); other axes do not. */
    @Test
    void deferredTablesOfOneAxisShareTheirBuiltArrays() {
        LinearTable a = LinearTable.deferred(3001, 7919, false, 0).full();
        LinearTable b = LinearTable.deferred(3001, 7919, false, 0).full();
        assertSame(a, b, "the cache of recent axes");
        assertFalse(a == LinearTable.deferred(3001, 7919, true, 0).full(), "alignCorners is part of the axis");
        assertFalse(a == LinearTable.deferred(3001, 7919, false, 2.7).full(), "so is a given scales");
    }

    /**
     * A period the table reports holds entry for entry (inputs q apart gather from positions p apart with the
     * same weight bits); exact scales have one over almost the whole axis, the identity none.
     */
    @Test
    void periodsHoldEntryForEntry() {
        LinearTable up2x = LinearTable.of(16384, 32768, false, 0);
        LinearTable.Period p = up2x.periodicInputs();
        assertEquals(1, p.inputs());
        assertEquals(2, p.outputs());
        assertTrue(p.from() <= 2 && p.to() >= 16382, p.toString());
        LinearTable corners = LinearTable.of(12289, 49153, true, 0);
        assertEquals(4, corners.periodicInputs().outputs());
        assertEquals(null, LinearTable.of(500, 500, false, 0).periodicInputs());
        assertEquals(null, LinearTable.of(1000, 2000, false, 2.1).periodicInputs(), "a given scales of another ratio");
        int[][] axes = {{16384, 32768}, {3000, 1000}, {7000, 25900}, {4410, 4800}, {9000, 4001}, {2000, 16000}};
        for (int[] axis : axes) {
            for (boolean ac : new boolean[] {false, true}) {
                LinearTable t = LinearTable.of(axis[0], axis[1], ac, 0);
                LinearTable.Period period = t.periodicInputs();
                if (period == null) {
                    continue;
                }
                for (int i = period.from(); i + period.inputs() < period.to(); i++) {
                    int k = i + period.inputs();
                    String where = java.util.Arrays.toString(axis) + " ac=" + ac + " " + period + " input " + i;
                    assertEquals(t.gatherFrom(i) + period.outputs(), t.gatherFrom(k), where);
                    assertEquals(t.gatherTo(i) + period.outputs(), t.gatherTo(k), where);
                    for (int j = t.gatherFrom(i); j < t.gatherTo(i); j++) {
                        int m = j + period.outputs();
                        assertEquals(t.x0(j) + period.inputs(), t.x0(m), where + " j=" + j);
                        assertEquals(Float.floatToRawIntBits(t.w0(j)), Float.floatToRawIntBits(t.w0(m)), where);
                        assertEquals(Float.floatToRawIntBits(t.w1(j)), Float.floatToRawIntBits(t.w1(m)), where);
                    }
                }
            }
        }
    }

    @Test
    void derivedStructuresAreBuiltOncePerKeyAndKeptWithTheCachedTable() {
        LinearTable t = LinearTable.deferred(37, 101, false, 0).full();
        assertSame(t, LinearTable.deferred(37, 101, false, 0).full(), "the axis's table is cached");
        AtomicInteger builds = new AtomicInteger();
        RowTaps first = t.derived(List.of("row taps", 3, 16), () -> {
            builds.incrementAndGet();
            return RowTaps.of(t, 3, 16);
        });
        RowTaps again = LinearTable.deferred(37, 101, false, 0).full().derived(List.of("row taps", 3, 16), () -> {
            builds.incrementAndGet();
            return RowTaps.of(t, 3, 16);
        });
        assertSame(first, again);
        assertEquals(1, builds.get(), "built once for a key");
        RowTaps other = t.derived(List.of("row taps", 1, 16), () -> RowTaps.of(t, 1, 16));
        assertNotSame(first, other, "another pixel size is another key");
        assertEquals(101, other.length());
        // The table keeps the last few: after four other keys the first is built again.
        for (int pix = 4; pix < 8; pix++) {
            int p = pix;
            t.derived(List.of("row taps", p, 16), () -> RowTaps.of(t, p, 16));
        }
        t.derived(List.of("row taps", 3, 16), () -> {
            builds.incrementAndGet();
            return RowTaps.of(t, 3, 16);
        });
        assertEquals(2, builds.get(), "an evicted key is built anew");
    }
}
