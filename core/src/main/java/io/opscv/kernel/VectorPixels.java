package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;
import static io.opscv.kernel.ExactVectors.SHORT_VECTOR;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
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
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final VectorSpecies<Short> HALFS = VectorSpecies.of(short.class,
            VectorShape.forBitSize(LANES * Short.SIZE));
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Whether a vector of ints holds two BF16 channels low half first ({@link CombineRows#pixelsBf16Pairs}). */
    private static final boolean PAIRS = ORDER == ByteOrder.LITTLE_ENDIAN;

    private VectorPixels() {}

    /**
     * A decoded row. Apart from the tensor's loop below: one loop choosing its loads by where the row lies ran
     * (223, 1024, 12 × 12 → 10 × 10) BF16 1.25 × slower than the two.
     */
    private static void interpolate(LinearTable t, int pix, float[] x, float[] y) {
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
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, left + c)).mul(a)
                        .add(FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, right + c)).mul(b))
                        .intoArray(y, at + c);
                if (c == tail) {
                    break;
                }
            }
        }
    }

    /**
     * {@link KernelProvider#interpolatePixels}: FLOAT and BF16 rows of pixels of a vector or more, W upsampled by at
     * most 2, read straight from the segment (a BF16 element widened by a shift); any other row decoded into
     * {@code x} first. Upsampled further, each input would be loaded (and widened) that many times over: (14,
     * 16, 93 × 165 → 360 × 640) BF16 ran 1.09 × slower straight.
     */
    static void interpolate(KernelProvider provider, LinearTable t, int pix, MemorySegment seg, DataType type,
                            long first, float[] x, float[] y) {
        if (pix < LANES || type != DataType.FLOAT && type != DataType.BF16 || t.lout() > 2L * t.lin()) {
            provider.decodeRun(seg, type, first, t.lin() * pix, x, 0);
            interpolate(t, pix, x, y);
            return;
        }
        LinearTable f = t.full();
        final int[] x0 = f.x0;
        final float[] w0 = f.w0;
        final float[] w1 = f.w1;
        final int last = t.lin() - 1;
        final boolean bf16 = type == DataType.BF16;
        final long size = type.byteSize();
        final int tail = pix - LANES;
        for (int j = 0, n = t.lout(); j < n; j++) {
            FloatVector a = FloatVector.broadcast(FLOATS, w0[j]);
            FloatVector b = FloatVector.broadcast(FLOATS, w1[j]);
            long left = (first + (long) x0[j] * pix) * size;
            long right = (first + (long) (x0[j] < last ? x0[j] + 1 : x0[j]) * pix) * size;
            int at = j * pix;
            for (int c = 0; ; c += LANES) {
                if (c > tail) {
                    c = tail;
                }
                // A BF16 element widened by a shift, written out here: no vector crosses a method boundary
                // (KERNELS.md, "JIT state").
                FloatVector l = bf16
                        ? (FloatVector) INT_VECTOR.cast((IntVector) SHORT_VECTOR.cast(
                                ShortVector.fromMemorySegment(HALFS, seg, left + c * 2L, ORDER))
                                .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0))
                                .lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0)
                        : FloatVector.fromMemorySegment(FLOATS, seg, left + c * 4L, ORDER);
                FloatVector r = bf16
                        ? (FloatVector) INT_VECTOR.cast((IntVector) SHORT_VECTOR.cast(
                                ShortVector.fromMemorySegment(HALFS, seg, right + c * 2L, ORDER))
                                .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0))
                                .lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0)
                        : FloatVector.fromMemorySegment(FLOATS, seg, right + c * 4L, ORDER);
                FLOAT_VECTOR.cast(l).mul(a).add(FLOAT_VECTOR.cast(r).mul(b)).intoArray(y, at + c);
                if (c == tail) {
                    break;
                }
            }
        }
    }

    /**
     * {@link KernelProvider#combinePixels}: FLOAT and BF16 rows of pixels of a vector or more, both passes in one
     * loop straight from self to out (four loads and a store a vector of channels), where the two passes apart
     * write each intermediate row, read it back and copy the out row once more; returns false for other rows.
     * The loops are generated per dtype ({@link CombineRows}), as other loops over every dtype are (KERNELS.md,
     * "JIT state").
     */
    static boolean combine(LinearTable t, int pix, float ha, long first0, float hb, long first1, MemorySegment seg,
                           DataType type, MemorySegment out, long at) {
        if (pix < LANES) {
            return false;
        }
        switch (type) {
            case FLOAT -> CombineRows.pixelsFloat(t, pix, ha, first0, hb, first1, seg, out, at);
            case BF16 -> {
                if (PAIRS && pix % (2 * LANES) == 0) {
                    CombineRows.pixelsBf16Pairs(t, pix, ha, first0, hb, first1, seg, out, at);
                } else {
                    CombineRows.pixelsBf16(t, pix, ha, first0, hb, first1, seg, out, at);
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link KernelProvider#sumPixels}: FLOAT and BF16 rows of pixels of a vector or more read straight from the
     * segment (each gradOut element is read once), any other row decoded into {@code g} first.
     */
    static void sum(KernelProvider provider, LinearTable t, int pix, MemorySegment seg, DataType type, long first,
                    float[] g, float[] y) {
        if (pix < LANES || type != DataType.FLOAT && type != DataType.BF16) {
            provider.decodeRun(seg, type, first, t.lout() * pix, g, 0);
            sum(t, pix, g, y);
            return;
        }
        LinearTable f = t.full();
        final int[] x0 = f.x0;
        final float[] w0 = f.w0;
        final float[] w1 = f.w1;
        final int last = t.lin() - 1;
        final int whole = pix - pix % LANES;
        final boolean bf16 = type == DataType.BF16;
        final long size = type.byteSize();
        java.util.Arrays.fill(y, 0, t.lin() * pix, 0f);
        for (int j = 0, n = t.lout(); j < n; j++) {
            float wa = w0[j];
            float wb = w1[j];
            FloatVector a = FloatVector.broadcast(FLOATS, wa);
            FloatVector b = FloatVector.broadcast(FLOATS, wb);
            int left = x0[j] * pix;
            int right = (x0[j] < last ? x0[j] + 1 : x0[j]) * pix;
            long at = (first + (long) j * pix) * size;
            for (int c = 0; c < whole; c += LANES) {
                FloatVector v = bf16
                        ? (FloatVector) INT_VECTOR.cast((IntVector) SHORT_VECTOR.cast(
                                ShortVector.fromMemorySegment(HALFS, seg, at + c * 2L, ORDER))
                                .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0))
                                .lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0)
                        : FloatVector.fromMemorySegment(FLOATS, seg, at + c * 4L, ORDER);
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, y, left + c)).add(FLOAT_VECTOR.cast(v).mul(a))
                        .intoArray(y, left + c);
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, y, right + c)).add(FLOAT_VECTOR.cast(v).mul(b))
                        .intoArray(y, right + c);
            }
            for (int c = whole; c < pix; c++) {
                float v = ElementCodec.get(seg, type, first + (long) j * pix + c);
                y[left + c] += wa * v;
                y[right + c] += wb * v;
            }
        }
    }

    /** A decoded row's sums, a loop of its own as {@link #interpolate}'s decoded row has. */
    private static void sum(LinearTable t, int pix, float[] g, float[] y) {
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
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, y, left + c)).add(FLOAT_VECTOR.cast(v).mul(a))
                        .intoArray(y, left + c);
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, y, right + c)).add(FLOAT_VECTOR.cast(v).mul(b))
                        .intoArray(y, right + c);
            }
            for (int c = whole; c < pix; c++) {
                y[left + c] += wa * g[at + c];
                y[right + c] += wb * g[at + c];
            }
        }
    }
}
