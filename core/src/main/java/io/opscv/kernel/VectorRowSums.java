package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.BYTE_VECTOR;
import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link KernelProvider#sumRow} on the Vector API, for {@link VectorKernelProvider}: a vector of elements at a
 * time, each slot's terms picked as {@link VectorKernelProvider#interpolateRow} picks its taps (the window's
 * vectors loaded once for all slots) and added to the sums from +0 only in the lanes that have them, slot by
 * slot, so each lane's adds are the scalar loop's. Four rows that share the sums (gradOut rows of a 2-D band,
 * periods of the flat rows) go together, each slot's index, weight and flags loaded once for the four rather
 * than once a row: those loads were half a slot's cost. No vector crosses a call (see VectorCodec): the window
 * indices and the four-vector pick are written out in their loops.
 */
final class VectorRowSums {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    /**
     * A byte per lane for the windows' indices ({@link TapWindows#near}), where the lanes fill a vector of bytes
     * (64 bits or more): the tables of indices, weights and flags outweigh the row they sum.
     */
    private static final VectorSpecies<Byte> NEAR = LANES >= 8
            ? VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES * Byte.SIZE)) : null;

    /** The most slots held sums take, in passes of {@link HeldRowSums#SLOTS}. */
    private static final int HELD_MOST = 2 * HeldRowSums.SLOTS;

    private VectorRowSums() {}

    /**
     * {@link KernelProvider#sumRow}. Sums that repeat every vector ({@link RowSums#period} one vector: a long row's
     * periodic run, {@link PeriodicRows}) keep their slots in registers ({@link HeldRowSums}); other periods (the flat
     * rows and maps) go four at a time as rows a shift apart, sharing the tables' loads.
     */
    static void sum(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        if (e1 - e0 >= 2 * LANES && holds(sums)) {
            TapWindows windows = sums.windows(LANES);
            boolean quad = windows.kind()[0] == TapWindows.QUAD;
            // The vectors whose whole window lies in g: vector m reads from base + m·shift - gBase on.
            int reach = quad ? 4 * LANES : 2 * LANES;
            int base = windows.base()[0] - gBase;
            int m0 = Math.max((e0 + LANES - 1) / LANES, Math.ceilDiv(-base, sums.shift));
            int m1 = Math.min(e1 / LANES, Math.floorDiv(g.length - reach - base, sums.shift) + 1);
            if (m1 > m0) {
                periods(sums, e0, m0 * LANES, g, gBase, y, yBase);
                for (int k = 0; k < windows.slots()[0]; k += HeldRowSums.SLOTS) {
                    int from = base + m0 * sums.shift;
                    int at = m0 * LANES - yBase;
                    if (quad) {
                        HeldRowSums.sumArrayQuad(sums, windows, k, m1 - m0, g, from, y, at, y, at);
                    } else {
                        HeldRowSums.sumArrayPair(sums, windows, k, m1 - m0, g, from, y, at, y, at);
                    }
                }
                periods(sums, m1 * LANES, e1, g, gBase, y, yBase);
                return;
            }
        }
        periods(sums, e0, e1, g, gBase, y, yBase);
    }

    /**
     * {@link KernelProvider#sumRowRun} where the sums are held ({@link #holds}): the whole vectors whose windows lie
     * inside g are summed on the tensors in place ({@link HeldRowSums}, no staging), the partial vectors at the
     * ends decoded, summed and written through the codec; false (nothing done) where the sums are not held.
     */
    static boolean sumRun(KernelProvider codec, RowSums sums, int e0, int e1, int jLo, int jHi, MemorySegment g,
                          long gAt, MemorySegment y, long yAt, DataType type, float[] gScratch, float[] yScratch) {
        if (e1 - e0 < 2 * LANES || !holds(sums)
                || type != DataType.FLOAT && type != DataType.BF16) {
            return false;
        }
        TapWindows windows = sums.windows(LANES);
        boolean quad = windows.kind()[0] == TapWindows.QUAD;
        int reach = quad ? 4 * LANES : 2 * LANES;
        // Vector m's window: positions base + m·shift to + reach, at elements gAt + those of g.
        long base = windows.base()[0];
        long shift = sums.shift;
        long first = gAt + base;
        long room = g.byteSize() / type.byteSize() - reach - first;
        int m0 = (int) Math.max((e0 + LANES - 1) / LANES, Math.ceilDiv(-first, shift));
        int m1 = (int) Math.min(e1 / LANES, room < 0 ? -1 : room / shift + 1);
        if (m1 <= m0) {
            return false;
        }
        int a = m0 * LANES;
        int b = m1 * LANES;
        if (e0 < a) {
            staged(codec, sums, e0, a, jLo, (int) Math.min(jHi, base + (m0 - 1) * shift + reach), g, gAt, y, yAt, type,
                    gScratch, yScratch);
        }
        long from = first + m0 * shift;
        for (int slot = 0; slot < windows.slots()[0]; slot += HeldRowSums.SLOTS) {
            if (type == DataType.FLOAT && quad) {
                HeldRowSums.sumFloatQuad(sums, windows, slot, m1 - m0, g, from, yScratch, 0, y, yAt + a);
            } else if (type == DataType.FLOAT) {
                HeldRowSums.sumFloatPair(sums, windows, slot, m1 - m0, g, from, yScratch, 0, y, yAt + a);
            } else if (quad) {
                HeldRowSums.sumBf16Quad(sums, windows, slot, m1 - m0, g, from, yScratch, 0, y, yAt + a);
            } else {
                HeldRowSums.sumBf16Pair(sums, windows, slot, m1 - m0, g, from, yScratch, 0, y, yAt + a);
            }
        }
        if (b < e1) {
            staged(codec, sums, b, e1, (int) Math.max(jLo, base + m1 * shift), jHi, g, gAt, y, yAt, type, gScratch,
                    yScratch);
        }
        return true;
    }

    /** Elements [e0, e1) decoded from positions [jLo, jHi), summed by {@link #sum} and written through the codec. */
    private static void staged(KernelProvider codec, RowSums sums, int e0, int e1, int jLo, int jHi, MemorySegment g,
                               long gAt, MemorySegment y, long yAt, DataType type, float[] gScratch, float[] yScratch) {
        codec.decodeRun(g, type, gAt + jLo, jHi - jLo, gScratch, 0);
        sum(sums, e0, e1, gScratch, jLo, yScratch, e0);
        codec.encodeRun(yScratch, 0, e1 - e0, y, type, yAt + e0);
    }

    /** {@link #sum} by whole periods, four at a time where the sums repeat. */
    private static void periods(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        int period = sums.period;
        int first = Math.min(e1, (e0 + period - 1) / period * period);
        int periods = period < sums.length() ? (e1 - first) / period : 0;
        if (periods == 0) {
            one(sums, e0, e1, g, gBase, y, yBase);
            return;
        }
        one(sums, e0, first, g, gBase, y, yBase);
        for (int m = 0; m < periods; m += 4) {
            // A last group of fewer than four takes periods before it again (the same bits, stored again).
            int from = first + Math.max(0, Math.min(m, periods - 4)) * period;
            int k1 = Math.min(1, periods - 1);
            int k2 = Math.min(2, periods - 1);
            int k3 = Math.min(3, periods - 1);
            sumFour(sums, from, from + period, g, gBase, k1 * sums.shift, k2 * sums.shift, k3 * sums.shift,
                    y, yBase, y, yBase - k1 * period, y, yBase - k2 * period, y, yBase - k3 * period);
        }
        one(sums, first + periods * period, e1, g, gBase, y, yBase);
    }

    /** {@link KernelProvider#sumRows}: four rows at a time, a last group of fewer taking rows before it again. */
    static void sumRows(RowSums sums, int e0, int e1, float[] g, int gBase, int gPitch, float[][] y, int yBase,
                        int rows) {
        for (int m = 0; m < rows; m += 4) {
            int k0 = Math.max(0, Math.min(m, rows - 4));
            int k1 = Math.min(k0 + 1, rows - 1);
            int k2 = Math.min(k0 + 2, rows - 1);
            int k3 = Math.min(k0 + 3, rows - 1);
            sumFour(sums, e0, e1, g, gBase - k0 * gPitch, (k1 - k0) * gPitch, (k2 - k0) * gPitch, (k3 - k0) * gPitch,
                    y[k0], yBase, y[k1], yBase, y[k2], yBase, y[k3], yBase);
        }
    }

    /** Whether {@link #sum} keeps these sums' slots in registers: one vector a period, two or four window vectors. */
    private static boolean holds(RowSums sums) {
        if (sums.period != LANES || sums.period >= sums.length() || sums.shift <= 0) {
            return false;
        }
        TapWindows windows = sums.windows(LANES);
        byte kind = windows.kind()[0];
        return windows.slots()[0] <= HELD_MOST && (kind == TapWindows.PAIR || kind == TapWindows.QUAD);
    }

    /**
     * One row, as four rows that are all this one (four times the work, on partial periods and calls of less than a
     * period): a single method sums every row, so that C2 compiles each kind's path on the profile of all of them
     * (a method of its own for single rows met most kinds seldom and was compiled with their vector calls cold,
     * boxing every vector: see KERNELS.md, "JIT state").
     */
    private static void one(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        if (e0 < e1) {
            sumFour(sums, e0, e1, g, gBase, 0, 0, 0, y, yBase, y, yBase, y, yBase, y, yBase);
        }
    }

    /**
     * Four rows of the sums, row k's gradOut {@code offk} after row 0's ({@code 0 <= off1 <= off2 <= off3}) and
     * its sums element e at {@code yk[e - yBasek]}: each slot's index, weight and flags are loaded once for the four.
     * Four-vector windows slide where each slot's lanes lie within two vectors ({@link #slideFour}), else go two rows
     * at a time (sixteen window vectors at once would not stay in registers). Each kind of window has a method of its
     * own: one method for all of them was too large for C1, and no sum is boxed in a method of its own since every
     * call on a vector has an exact receiver ({@link ExactVectors}).
     */
    private static void sumFour(RowSums sums, int e0, int e1, float[] g, int gBase, int off1, int off2, int off3,
                                float[] y0, int yBase0, float[] y1, int yBase1, float[] y2, int yBase2, float[] y3,
                                int yBase3) {
        final float[] w = sums.w;
        final boolean[] has = sums.has;
        final int n = sums.stride;
        TapWindows windows = sums.windows(LANES);
        final int[] bases = windows.base();
        final byte[] kinds = windows.kind();
        final int[] reach = windows.reach();
        final int[] slots = windows.slots();
        final int[] at = windows.rel();
        final byte[] near = windows.near();
        final boolean[] slides = windows.slides();
        final int[] lift = windows.lift();
        final int[] slid = windows.slid();
        final byte[] slidNear = windows.slidNear();
        final int vectors = bases.length;
        final int period = sums.period;
        int e = Math.min(e1, (e0 + LANES - 1) / LANES * LANES);
        scalar(sums, e0, e, g, gBase, off1, off2, off3, y0, yBase0, y1, yBase1, y2, yBase2, y3, yBase3);
        // Element e's place in its period, and the positions its period's terms move by. The last vector may
        // be partial: its lanes past e1 are summed too (padding or later elements, whose slots point inside
        // the windows) and not stored.
        int p = e % period;
        int moved = e / period * sums.shift - gBase;
        for (; e < e1; e += LANES, p += LANES) {
            if (p == period) {
                p = 0;
                moved += sums.shift;
            }
            int v = p / LANES;
            int from = bases[v] + moved;
            int count = Math.min(LANES, e1 - e);
            byte kind = kinds[v];
            if (from < 0 || from + off3 + reach[v] > g.length
                    || count < LANES && (e - yBase0 + LANES > y0.length || e - yBase1 + LANES > y1.length
                    || e - yBase2 + LANES > y2.length || e - yBase3 + LANES > y3.length)) {
                scalar(sums, e, e + count, g, gBase, off1, off2, off3, y0, yBase0, y1, yBase1, y2, yBase2, y3,
                        yBase3);
                continue;
            }
            int end = p + slots[v] * n;
            if (kind == TapWindows.QUAD && !slides[v]) {
                quadTwo(w, has, near, at, p, end, n, g, from, off1, y0, e - yBase0, y1, e - yBase1, count);
                quadTwo(w, has, near, at, p, end, n, g, from + off2, off3 - off2, y2, e - yBase2, y3, e - yBase3,
                        count);
                continue;
            }
            int to0 = e - yBase0;
            int to1 = e - yBase1;
            int to2 = e - yBase2;
            int to3 = e - yBase3;
            if (kind == TapWindows.QUAD) {
                slideFour(w, has, slid, slidNear, lift, p, end, n, v, vectors, g, from, off1, off2, off3, y0, to0, y1,
                        to1, y2, to2, y3, to3, count);
            } else if (kind == TapWindows.SPAN) {
                spanFour(w, at, p, end, n, g, from, off1, off2, off3, y0, to0, y1, to1, y2, to2, y3, to3, count);
            } else if (kind == TapWindows.RUNS) {
                runsFour(w, has, at, p, end, n, g, from, off1, off2, off3, y0, to0, y1, to1, y2, to2, y3, to3, count);
            } else if (kind == TapWindows.GATHER) {
                gatherFour(w, has, at, p, end, n, g, from, off1, off2, off3, y0, to0, y1, to1, y2, to2, y3, to3,
                        count);
            } else {
                pairFour(w, has, at, near, p, end, n, g, from, off1, off2, off3, y0, to0, y1, to1, y2, to2, y3, to3,
                        count);
            }
        }
    }

    /**
     * A sliding four-vector window's slots for four rows ({@link #sumFour}): each slot loads the two vectors its
     * lanes lie in and permutes those, where {@link #quadTwo} permutes all four window vectors.
     */
    private static void slideFour(float[] w, boolean[] has, int[] slid, byte[] slidNear, int[] lift, int p, int end,
                                  int n, int v, int vectors, float[] g, int from, int off1, int off2, int off3,
                                  float[] y0, int to0, float[] y1, int to1, float[] y2, int to2, float[] y3, int to3,
                                  int count) {
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        for (int q = p, slot = v; q < end; q += n, slot += vectors) {
            IntVector index = INT_VECTOR.cast(NEAR == null ? IntVector.fromArray(INTS, slid, q)
                    : (IntVector) BYTE_VECTOR.cast(ByteVector.fromArray(NEAR, slidNear, q))
                    .convertShape(VectorOperators.B2I, INTS, 0));
            FloatVector weight = FloatVector.fromArray(FLOATS, w, q);
            VectorMask<Float> term = VectorMask.fromArray(FLOATS, has, q);
            int g0 = from + lift[slot];
            int g1 = g0 + off1;
            int g2 = g0 + off2;
            int g3 = g0 + off3;
            FloatVector t0 = (FloatVector) index.selectFrom(
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g0)).reinterpretShape(INTS, 0),
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g0 + LANES))
                            .reinterpretShape(INTS, 0))
                    .reinterpretShape(FLOATS, 0);
            s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(t0).mul(weight), term);
            FloatVector t1 = (FloatVector) index.selectFrom(
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g1)).reinterpretShape(INTS, 0),
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g1 + LANES))
                            .reinterpretShape(INTS, 0))
                    .reinterpretShape(FLOATS, 0);
            s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(t1).mul(weight), term);
            FloatVector t2 = (FloatVector) index.selectFrom(
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g2)).reinterpretShape(INTS, 0),
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g2 + LANES))
                            .reinterpretShape(INTS, 0))
                    .reinterpretShape(FLOATS, 0);
            s2 = FLOAT_VECTOR.cast(s2).add(FLOAT_VECTOR.cast(t2).mul(weight), term);
            FloatVector t3 = (FloatVector) index.selectFrom(
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g3)).reinterpretShape(INTS, 0),
                    (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, g3 + LANES))
                            .reinterpretShape(INTS, 0))
                    .reinterpretShape(FLOATS, 0);
            s3 = FLOAT_VECTOR.cast(s3).add(FLOAT_VECTOR.cast(t3).mul(weight), term);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
        FLOAT_VECTOR.cast(s2).intoArray(y2, to2, store);
        FLOAT_VECTOR.cast(s3).intoArray(y3, to3, store);
    }

    /** Slots whose every lane has the term, with one weight, for four rows ({@link #sumFour}). */
    private static void spanFour(float[] w, int[] at, int p, int end, int n, float[] g, int from, int off1, int off2,
                                 int off3, float[] y0, int to0, float[] y1, int to1, float[] y2, int to2, float[] y3,
                                 int to3, int count) {
        int f1 = from + off1;
        int f2 = from + off2;
        int f3 = from + off3;
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        // The adds are masked (all lanes) as the others are.
        VectorMask<Float> all = FLOATS.maskAll(true);
        for (int q = p; q < end; q += n) {
            FloatVector weight = FloatVector.broadcast(FLOATS, w[q]);
            int a = at[q];
            s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + a))
                    .mul(weight), all);
            s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f1 + a))
                    .mul(weight), all);
            s2 = FLOAT_VECTOR.cast(s2).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f2 + a))
                    .mul(weight), all);
            s3 = FLOAT_VECTOR.cast(s3).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f3 + a))
                    .mul(weight), all);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
        FLOAT_VECTOR.cast(s2).intoArray(y2, to2, store);
        FLOAT_VECTOR.cast(s3).intoArray(y3, to3, store);
    }

    /** Slots whose lanes read runs of gradOut, one load a row each, for four rows ({@link #sumFour}). */
    private static void runsFour(float[] w, boolean[] has, int[] at, int p, int end, int n, float[] g, int from,
                                 int off1, int off2, int off3, float[] y0, int to0, float[] y1, int to1, float[] y2,
                                 int to2, float[] y3, int to3, int count) {
        int f1 = from + off1;
        int f2 = from + off2;
        int f3 = from + off3;
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        for (int q = p; q < end; q += n) {
            FloatVector weight = FloatVector.fromArray(FLOATS, w, q);
            VectorMask<Float> term = VectorMask.fromArray(FLOATS, has, q);
            int a = at[q];
            s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + a))
                    .mul(weight), term);
            s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f1 + a))
                    .mul(weight), term);
            s2 = FLOAT_VECTOR.cast(s2).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f2 + a))
                    .mul(weight), term);
            s3 = FLOAT_VECTOR.cast(s3).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f3 + a))
                    .mul(weight), term);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
        FLOAT_VECTOR.cast(s2).intoArray(y2, to2, store);
        FLOAT_VECTOR.cast(s3).intoArray(y3, to3, store);
    }

    /** Slots whose lanes are gathered, for four rows ({@link #sumFour}). */
    private static void gatherFour(float[] w, boolean[] has, int[] at, int p, int end, int n, float[] g, int from,
                                   int off1, int off2, int off3, float[] y0, int to0, float[] y1, int to1, float[] y2,
                                   int to2, float[] y3, int to3, int count) {
        int f1 = from + off1;
        int f2 = from + off2;
        int f3 = from + off3;
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        for (int q = p; q < end; q += n) {
            FloatVector weight = FloatVector.fromArray(FLOATS, w, q);
            VectorMask<Float> term = VectorMask.fromArray(FLOATS, has, q);
            s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from, at, q))
                    .mul(weight), term);
            s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f1, at, q))
                    .mul(weight), term);
            s2 = FLOAT_VECTOR.cast(s2).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f2, at, q))
                    .mul(weight), term);
            s3 = FLOAT_VECTOR.cast(s3).add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f3, at, q))
                    .mul(weight), term);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
        FLOAT_VECTOR.cast(s2).intoArray(y2, to2, store);
        FLOAT_VECTOR.cast(s3).intoArray(y3, to3, store);
    }

    /** Slots picked from a two-vector window, for four rows ({@link #sumFour}). */
    private static void pairFour(float[] w, boolean[] has, int[] at, byte[] near, int p, int end, int n, float[] g,
                                 int from, int off1, int off2, int off3, float[] y0, int to0, float[] y1, int to1,
                                 float[] y2, int to2, float[] y3, int to3, int count) {
        int f1 = from + off1;
        int f2 = from + off2;
        int f3 = from + off3;
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        IntVector a0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from)).reinterpretShape(INTS, 0);
        IntVector a1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + LANES))
                .reinterpretShape(INTS, 0);
        IntVector b0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f1)).reinterpretShape(INTS, 0);
        IntVector b1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f1 + LANES))
                .reinterpretShape(INTS, 0);
        IntVector c0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f2)).reinterpretShape(INTS, 0);
        IntVector c1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f2 + LANES))
                .reinterpretShape(INTS, 0);
        IntVector d0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f3)).reinterpretShape(INTS, 0);
        IntVector d1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f3 + LANES))
                .reinterpretShape(INTS, 0);
        for (int q = p; q < end; q += n) {
            IntVector index = INT_VECTOR.cast(NEAR == null ? IntVector.fromArray(INTS, at, q)
                    : (IntVector) BYTE_VECTOR.cast(ByteVector.fromArray(NEAR, near, q))
                    .convertShape(VectorOperators.B2I, INTS, 0));
            FloatVector weight = FloatVector.fromArray(FLOATS, w, q);
            VectorMask<Float> term = VectorMask.fromArray(FLOATS, has, q);
            FloatVector t0 = FLOAT_VECTOR.cast((FloatVector) index.selectFrom(a0, a1).reinterpretShape(FLOATS, 0));
            s0 = FLOAT_VECTOR.cast(s0).add(t0.mul(weight), term);
            FloatVector t1 = FLOAT_VECTOR.cast((FloatVector) index.selectFrom(b0, b1).reinterpretShape(FLOATS, 0));
            s1 = FLOAT_VECTOR.cast(s1).add(t1.mul(weight), term);
            FloatVector t2 = FLOAT_VECTOR.cast((FloatVector) index.selectFrom(c0, c1).reinterpretShape(FLOATS, 0));
            s2 = FLOAT_VECTOR.cast(s2).add(t2.mul(weight), term);
            FloatVector t3 = FLOAT_VECTOR.cast((FloatVector) index.selectFrom(d0, d1).reinterpretShape(FLOATS, 0));
            s3 = FLOAT_VECTOR.cast(s3).add(t3.mul(weight), term);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
        FLOAT_VECTOR.cast(s2).intoArray(y2, to2, store);
        FLOAT_VECTOR.cast(s3).intoArray(y3, to3, store);
    }

    /**
     * Two rows of a four-vector window's slots ({@link #sumFour}), the second {@code gPitch} after the first, their
     * first {@code count} lanes stored.
     */
    private static void quadTwo(float[] w, boolean[] has, byte[] near, int[] at, int p, int end, int n, float[] g,
                                int from, int gPitch, float[] y0, int to0, float[] y1, int to1, int count) {
        IntVector a0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from)).reinterpretShape(INTS, 0);
        IntVector a1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + LANES))
                .reinterpretShape(INTS, 0);
        IntVector a2 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + 2 * LANES))
                .reinterpretShape(INTS, 0);
        IntVector a3 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, from + 3 * LANES))
                .reinterpretShape(INTS, 0);
        int f = from + gPitch;
        IntVector b0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f)).reinterpretShape(INTS, 0);
        IntVector b1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f + LANES))
                .reinterpretShape(INTS, 0);
        IntVector b2 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f + 2 * LANES))
                .reinterpretShape(INTS, 0);
        IntVector b3 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, g, f + 3 * LANES))
                .reinterpretShape(INTS, 0);
        FloatVector s0 = FloatVector.zero(FLOATS);
        FloatVector s1 = s0;
        for (int q = p; q < end; q += n) {
            IntVector index = INT_VECTOR.cast(NEAR == null ? IntVector.fromArray(INTS, at, q)
                    : (IntVector) BYTE_VECTOR.cast(ByteVector.fromArray(NEAR, near, q))
                    .convertShape(VectorOperators.B2I, INTS, 0));
            IntVector pair = index.and(2 * LANES - 1);
            VectorMask<Integer> far = index.compare(VectorOperators.GE, 2 * LANES);
            FloatVector weight = FloatVector.fromArray(FLOATS, w, q);
            VectorMask<Float> term = VectorMask.fromArray(FLOATS, has, q);
            FloatVector a = (FloatVector) pair.selectFrom(a0, a1).blend(pair.selectFrom(a2, a3), far)
                    .reinterpretShape(FLOATS, 0);
            FloatVector b = (FloatVector) pair.selectFrom(b0, b1).blend(pair.selectFrom(b2, b3), far)
                    .reinterpretShape(FLOATS, 0);
            s0 = FLOAT_VECTOR.cast(s0).add(FLOAT_VECTOR.cast(a).mul(weight), term);
            s1 = FLOAT_VECTOR.cast(s1).add(FLOAT_VECTOR.cast(b).mul(weight), term);
        }
        VectorMask<Float> store = FLOATS.indexInRange(0, count);
        FLOAT_VECTOR.cast(s0).intoArray(y0, to0, store);
        FLOAT_VECTOR.cast(s1).intoArray(y1, to1, store);
    }

    /** The scalar loop on the four rows. */
    private static void scalar(RowSums sums, int e0, int e1, float[] g, int gBase, int off1, int off2, int off3,
                               float[] y0, int yBase0, float[] y1, int yBase1, float[] y2, int yBase2, float[] y3,
                               int yBase3) {
        ScalarKernelProvider.sumRowScalar(sums, e0, e1, g, gBase, y0, yBase0);
        ScalarKernelProvider.sumRowScalar(sums, e0, e1, g, gBase - off1, y1, yBase1);
        ScalarKernelProvider.sumRowScalar(sums, e0, e1, g, gBase - off2, y2, yBase2);
        ScalarKernelProvider.sumRowScalar(sums, e0, e1, g, gBase - off3, y3, yBase3);
    }
}
