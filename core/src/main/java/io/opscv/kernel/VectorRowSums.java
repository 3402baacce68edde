package io.opscv.kernel;

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
 * slot, so each lane's adds are the scalar loop's. No vector crosses a call (see VectorCodec): the window
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

    private VectorRowSums() {}

    static void sum(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
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
        final int period = sums.period;
        int e = Math.min(e1, (e0 + LANES - 1) / LANES * LANES);
        ScalarKernelProvider.sumRowScalar(sums, e0, e, g, gBase, y, yBase);
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
            if (from < 0 || from + reach[v] > g.length || count < LANES && e - yBase + LANES > y.length) {
                ScalarKernelProvider.sumRowScalar(sums, e, e + count, g, gBase, y, yBase);
                continue;
            }
            byte kind = kinds[v];
            int end = p + slots[v] * n;
            FloatVector s = FloatVector.zero(FLOATS);
            if (kind == TapWindows.SPAN) {
                // Every lane has the slot's term, with one weight. The add is masked (all lanes) as the others are: the
                // unmasked add of this loop-carried sum compiled without its intrinsic in some processes, boxing it.
                VectorMask<Float> all = FLOATS.maskAll(true);
                for (int q = p; q < end; q += n) {
                    FloatVector weight = FloatVector.broadcast(FLOATS, w[q]);
                    s = s.add(FloatVector.fromArray(FLOATS, g, from + at[q]).mul(weight), all);
                }
            } else if (kind == TapWindows.RUNS) {
                for (int q = p; q < end; q += n) {
                    s = s.add(FloatVector.fromArray(FLOATS, g, from + at[q]).mul(FloatVector.fromArray(FLOATS, w, q)),
                            VectorMask.fromArray(FLOATS, has, q));
                }
            } else if (kind == TapWindows.PAIR) {
                IntVector a0 = FloatVector.fromArray(FLOATS, g, from).reinterpretAsInts();
                IntVector a1 = FloatVector.fromArray(FLOATS, g, from + LANES).reinterpretAsInts();
                for (int q = p; q < end; q += n) {
                    IntVector index = NEAR == null ? IntVector.fromArray(INTS, at, q)
                            : (IntVector) ByteVector.fromArray(NEAR, near, q).convertShape(VectorOperators.B2I, INTS, 0);
                    FloatVector a = index.selectFrom(a0, a1).reinterpretAsFloats();
                    s = s.add(a.mul(FloatVector.fromArray(FLOATS, w, q)), VectorMask.fromArray(FLOATS, has, q));
                }
            } else if (kind == TapWindows.QUAD) {
                IntVector a0 = FloatVector.fromArray(FLOATS, g, from).reinterpretAsInts();
                IntVector a1 = FloatVector.fromArray(FLOATS, g, from + LANES).reinterpretAsInts();
                IntVector a2 = FloatVector.fromArray(FLOATS, g, from + 2 * LANES).reinterpretAsInts();
                IntVector a3 = FloatVector.fromArray(FLOATS, g, from + 3 * LANES).reinterpretAsInts();
                for (int q = p; q < end; q += n) {
                    IntVector index = NEAR == null ? IntVector.fromArray(INTS, at, q)
                            : (IntVector) ByteVector.fromArray(NEAR, near, q).convertShape(VectorOperators.B2I, INTS, 0);
                    IntVector pair = index.and(2 * LANES - 1);
                    FloatVector a = pair.selectFrom(a0, a1).blend(pair.selectFrom(a2, a3),
                            index.compare(VectorOperators.GE, 2 * LANES)).reinterpretAsFloats();
                    s = s.add(a.mul(FloatVector.fromArray(FLOATS, w, q)), VectorMask.fromArray(FLOATS, has, q));
                }
            } else {
                for (int q = p; q < end; q += n) {
                    s = s.add(FloatVector.fromArray(FLOATS, g, from, at, q).mul(FloatVector.fromArray(FLOATS, w, q)),
                            VectorMask.fromArray(FLOATS, has, q));
                }
            }
            if (count == LANES) {
                s.intoArray(y, e - yBase);
            } else {
                s.intoArray(y, e - yBase, VectorMask.fromLong(FLOATS, (1L << count) - 1));
            }
        }
    }
}
