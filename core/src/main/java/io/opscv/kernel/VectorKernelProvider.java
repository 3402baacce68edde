package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link KernelProvider} on the Vector API, one vector of the preferred species per position of the
 * lane-major buffers: a vector holds one position of {@code lanes()} rows, so the sums of every row
 * advance together, each lane in the scalar reference's order (a lane's arithmetic is the reference's,
 * one multiply and one add per term). Loaded reflectively by {@link KernelProviders}; package-private.
 * Its transposes between rows and lanes live in {@link VectorTransposes}.
 */
final class VectorKernelProvider implements KernelProvider {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    /** As many 16-bit lanes as {@link #FLOATS} has floats. */
    private static final VectorSpecies<Short> HALFS = VectorSpecies.of(short.class,
            VectorShape.forBitSize(LANES * Short.SIZE));
    /** The longest rows {@link #decodeRows} and {@link #encodeRows} move as masked vectors. */
    private static final int SHORT_RUN = 64;
    /**
     * The most runs of consecutive lanes {@link #gatherLanes} loads one by one rather than by a hardware gather
     * (channels-last rows of 8 to 15 channels); from three runs the gathers are faster.
     */
    private static final int GATHER_RUNS = 2;
    /**
     * Positions from which up to {@link #LONG_CALL_RUNS} runs load and store faster than gathers and scatters
     * (maps of 3 channels: five runs); in shorter calls the runs' set-up costs more than it saves.
     */
    private static final int LONG_CALL = 24;
    private static final int LONG_CALL_RUNS = 5;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    @Override
    public String name() {
        return "vector-" + FLOATS.vectorBitSize();
    }

    @Override
    public int lanes() {
        return LANES;
    }

    @Override
    public void sumLanes(LinearTable t, int i0, int i1, int jFrom, int jTo, float[] g, int jBase, float[] sums,
                         int iBase) {
        if (t.lout() < t.lin()) {
            VectorWalk.scatter(t, i0, i1, jFrom, jTo, g, jBase, sums, iBase);
        } else {
            VectorWalk.sum(t, i0, i1, jFrom, jTo, g, jBase, sums, iBase);
        }
    }

    /** Four lines at a time ({@link VectorLines}), the rest line by line. */
    @Override
    public void sumLines(LinearTable t, int q0, int q1, float[] from, float[] to, int outStride, float[] line) {
        int q = VectorLines.sum(t.full(), q0, q1, from, to, outStride);
        KernelProvider.super.sumLines(t, q, q1, from, to, outStride, line);
    }

    @Override
    public void interpolateLines(LinearTable t, int q0, int q1, float[] from, float[] to, int outStride,
                                 float[] line) {
        VectorLines.interpolate(t.full(), q0, q1, from, to, outStride);
    }

    @Override
    public void interpolateLanes(LinearTable t, int j0, int j1, float[] x, int xBase, float[] y) {
        final int last = t.lin() - 1;
        for (int j = j0; j < j1; j++) {
            int left = t.x0[j];
            int right = left < last ? left + 1 : left;
            FloatVector a = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, (left - xBase) * LANES)).mul(t.w0[j]);
            FloatVector b = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, (right - xBase) * LANES)).mul(t.w1[j]);
            a.add(b).intoArray(y, (j - j0) * LANES);
        }
    }

    /**
     * A vector of outputs at a time for all the rows: where the vector's taps lie within two vectors of inputs
     * (any upsampling; downsampling by up to about 2) both taps are picked from those two by two-source
     * permutes, which cost a cycle where a hardware gather costs about 25, within four (downsampling by up to
     * about 4) by two pairs of them blended; other vectors, and the outputs from the first whose right tap is
     * clamped, go through the scalar loop. The left product first. The vector's table entries (taps and
     * weights, 12 bytes an output, read from L2 on long rows) are loaded once for every row.
     * ({@link #interpolateRow} does the same from stored taps, whose per-vector tests are slower on these rows.)
     */
    @Override
    public void linearForward(LinearTable table, float[] x, int xBase, int xPitch, float[] y, int yBase, int yPitch,
                              int rows, int j0, int j1) {
        LinearTable t = table.full();
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        int vectorEnd = Math.min(j1, t.start(t.lin() - 1));
        int lastRow = (rows - 1) * xPitch;
        int j = j0;
        for (; j + LANES <= vectorEnd; j += LANES) {
            int base = x0[j] - xBase;
            int reach = x0[j + LANES - 1] - x0[j] + 1;
            if (reach >= 4 * LANES || base + lastRow + (reach < 2 * LANES ? 2 : 4) * LANES > x.length) {
                for (int k = 0; k < rows; k++) {
                    ScalarKernelProvider.forward(t, x, xBase - k * xPitch, y, j, j + LANES, yBase - k * yPitch);
                }
                continue;
            }
            IntVector left = INT_VECTOR.cast(IntVector.fromArray(INTS, x0, j)).sub(x0[j]);
            IntVector right = left.add(1);
            FloatVector l = FloatVector.fromArray(FLOATS, w0, j);
            FloatVector r = FloatVector.fromArray(FLOATS, w1, j);
            if (reach < 2 * LANES) {
                for (int k = 0; k < rows; k++) {
                    int b = base + k * xPitch;
                    IntVector v0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b))
                            .reinterpretShape(INTS, 0);
                    IntVector v1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b + LANES))
                            .reinterpretShape(INTS, 0);
                    FloatVector a = (FloatVector) left.selectFrom(v0, v1).reinterpretShape(FLOATS, 0);
                    FloatVector c = (FloatVector) right.selectFrom(v0, v1).reinterpretShape(FLOATS, 0);
                    FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(c).mul(r)).intoArray(y, j - yBase + k * yPitch);
                }
                continue;
            }
            // Downsampling by 2 to about 4: the taps lie within four vectors, two pairs of permutes.
            IntVector near = left.and(2 * LANES - 1);
            IntVector nearRight = right.and(2 * LANES - 1);
            VectorMask<Integer> farLeft = left.compare(VectorOperators.GE, 2 * LANES);
            VectorMask<Integer> farRight = right.compare(VectorOperators.GE, 2 * LANES);
            for (int k = 0; k < rows; k++) {
                int b = base + k * xPitch;
                IntVector v0 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b))
                        .reinterpretShape(INTS, 0);
                IntVector v1 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b + LANES))
                        .reinterpretShape(INTS, 0);
                IntVector v2 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b + 2 * LANES))
                        .reinterpretShape(INTS, 0);
                IntVector v3 = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, x, b + 3 * LANES))
                        .reinterpretShape(INTS, 0);
                FloatVector a = (FloatVector) near.selectFrom(v0, v1).blend(near.selectFrom(v2, v3), farLeft)
                        .reinterpretShape(FLOATS, 0);
                FloatVector c = (FloatVector) nearRight.selectFrom(v0, v1)
                        .blend(nearRight.selectFrom(v2, v3), farRight).reinterpretShape(FLOATS, 0);
                FLOAT_VECTOR.cast(a).mul(l).add(FLOAT_VECTOR.cast(c).mul(r)).intoArray(y, j - yBase + k * yPitch);
            }
        }
        for (int k = 0; k < rows; k++) {
            ScalarKernelProvider.forward(t, x, xBase - k * xPitch, y, j, j1, yBase - k * yPitch);
        }
    }

    @Override
    public void interpolateRow(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        VectorRowTaps.interpolate(taps, e0, e1, x, xBase, y, yBase);
    }

    @Override
    public void interpolatePixels(LinearTable t, int pix, MemorySegment seg, DataType type, long first, float[] x,
                                  float[] y) {
        VectorPixels.interpolate(this, t, pix, seg, type, first, x, y);
    }

    @Override
    public boolean combinePixels(LinearTable w, int pix, float a, long first0, float b, long first1, MemorySegment seg,
                                 DataType type, MemorySegment out, long at) {
        return VectorPixels.combine(w, pix, a, first0, b, first1, seg, type, out, at);
    }

    @Override
    public void sumPixels(LinearTable t, int pix, MemorySegment seg, DataType type, long first, float[] g, float[] y) {
        VectorPixels.sum(this, t, pix, seg, type, first, g, y);
    }

    @Override
    public void sumRow(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        VectorRowSums.sum(sums, e0, e1, g, gBase, y, yBase);
    }

    /**
     * BF16 stored straight into out ({@link CombineRows}), and FLOAT where a vector is a whole cache line (half-line
     * stores are slower than the row's copy); FLOAT16 rounds faster through the JDK's loop.
     */
    @Override
    public void combineRun(float a, float[] u, float b, float[] v, float[] y, int count, MemorySegment seg,
                           DataType type, long first) {
        if (type == DataType.BF16) {
            CombineRows.combineBf16(a, u, b, v, count, seg, first);
        } else if (type == DataType.FLOAT && FLOATS.vectorByteSize() >= 64) {
            CombineRows.combineFloat(a, u, b, v, count, seg, first);
        } else {
            KernelProvider.super.combineRun(a, u, b, v, y, count, seg, type, first);
        }
    }

    @Override
    public void sumRowRun(RowSums sums, int e0, int e1, int jLo, int jHi, MemorySegment g, long gAt, MemorySegment y,
                          long yAt, DataType type, float[] gScratch, float[] yScratch) {
        if (!VectorRowSums.sumRun(this, sums, e0, e1, jLo, jHi, g, gAt, y, yAt, type, gScratch, yScratch)) {
            KernelProvider.super.sumRowRun(sums, e0, e1, jLo, jHi, g, gAt, y, yAt, type, gScratch, yScratch);
        }
    }

    @Override
    public void sumRows(RowSums sums, int e0, int e1, float[] g, int gBase, int gPitch, float[][] y, int yBase,
                        int rows) {
        VectorRowSums.sumRows(sums, e0, e1, g, gBase, gPitch, y, yBase, rows);
    }

    /**
     * Where the lanes fall into at most {@link #GATHER_RUNS} runs of consecutive elements (the channels of one
     * batch of a channels-last tensor), a load per run and position, blended in; otherwise one hardware gather
     * per position ({@code vgatherdps}, about 25 cycles here). Lanes past {@code rows} hold unspecified values.
     */
    @Override
    public void gatherLanes(float[] src, int[] at, int rows, int step, int count, float[] lanes, int to) {
        if (runsFit(src, at, rows, step, count)) {
            loadRuns(src, at, rows, step, count, lanes, to);
            return;
        }
        int[] index = at;
        if (rows < LANES) {
            index = java.util.Arrays.copyOf(at, LANES);
            java.util.Arrays.fill(index, rows, LANES, at[0]);
        }
        for (int k = 0; k < count; k++) {
            FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, k * step, index, 0)).intoArray(lanes, to + k * LANES);
        }
    }

    /** Whether the lanes make few runs, each of whose whole-vector loads lies inside {@code src}. */
    private static boolean runsFit(float[] src, int[] at, int rows, int step, int count) {
        long reach = (long) (count - 1) * step + LANES;
        int most = count >= LONG_CALL ? LONG_CALL_RUNS : GATHER_RUNS;
        int runs = 0;
        for (int l = 0; l < rows; l++) {
            if (l == 0 || at[l] != at[l - 1] + 1) {
                runs++;
                if (runs > most || at[l] < l || at[l] - l + reach > src.length) {
                    return false;
                }
            }
        }
        return runs > 0 && count > 0;
    }

    /** {@link #gatherLanes} run by run: run [s, e) loaded so that lane s takes {@code src[at[s] + k·step]}. */
    private static void loadRuns(float[] src, int[] at, int rows, int step, int count, float[] lanes, int to) {
        for (int s = 0, e; s < rows; s = e) {
            e = s + 1;
            while (e < rows && at[e] == at[e - 1] + 1) {
                e++;
            }
            int from = at[s] - s;
            if (s == 0) {
                for (int k = 0; k < count; k++) {
                    FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, from + k * step))
                            .intoArray(lanes, to + k * LANES);
                }
                continue;
            }
            // Lanes from s on: the runs after this one overwrite theirs in turn.
            VectorMask<Float> mine = VectorMask.fromLong(FLOATS, -1L << s);
            for (int k = 0; k < count; k++) {
                int o = to + k * LANES;
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, o))
                        .blend(FloatVector.fromArray(FLOATS, src, from + k * step), mine).intoArray(lanes, o);
            }
        }
    }

    /** {@link #scatterLanes} run by run: lanes [s, e) of each position stored, masked, as one run. */
    private static void storeRuns(float[] lanes, int from, int rows, int step, int count, float[] dst, int[] at) {
        for (int s = 0, e; s < rows; s = e) {
            e = s + 1;
            while (e < rows && at[e] == at[e - 1] + 1) {
                e++;
            }
            int to = at[s] - s;
            VectorMask<Float> mine = VectorMask.fromLong(FLOATS, (-1L << s) & ~(-1L << e));
            for (int k = 0; k < count; k++) {
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, from + k * LANES))
                        .intoArray(dst, to + k * step, mine);
            }
        }
    }

    /**
     * Where the lanes fall into few runs of consecutive elements ({@link #gatherLanes}), a masked store per
     * run and position; otherwise one hardware scatter per position ({@code vscatterdps}), masked to the
     * first {@code rows} lanes. Below 512-bit vectors (no AVX-512: no scatter instruction, and the JDK's
     * fallback boxes every vector) the elements are stored one by one.
     */
    @Override
    public void scatterLanes(float[] lanes, int from, int rows, int step, int count, float[] dst, int[] at) {
        if (runsFit(dst, at, rows, step, count)) {
            storeRuns(lanes, from, rows, step, count, dst, at);
            return;
        }
        if (!VectorCodec.AVX512) {
            KernelProvider.super.scatterLanes(lanes, from, rows, step, count, dst, at);
            return;
        }
        if (rows < LANES) {
            int[] index = java.util.Arrays.copyOf(at, LANES);
            java.util.Arrays.fill(index, rows, LANES, at[0]);
            VectorMask<Float> valid = FLOATS.indexInRange(0, rows);
            for (int k = 0; k < count; k++) {
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, from + k * LANES))
                        .intoArray(dst, k * step, index, 0, valid);
            }
            return;
        }
        for (int k = 0; k < count; k++) {
            FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, from + k * LANES)).intoArray(dst, k * step, at, 0);
        }
    }

    @Override
    public void toLanes(float[] rows, int rowsAt, int rowStride, int count, float[] lanes, int at, float[] spare) {
        VectorTransposes.toLanes(rows, rowsAt, rowStride, count, lanes, at, spare);
    }

    @Override
    public void fromLanes(float[] lanes, int at, int count, float[] rows, int rowsAt, int rowStride, float[] spare) {
        VectorTransposes.fromLanes(lanes, at, count, rows, rowsAt, rowStride, spare);
    }

    /**
     * A masked vector of bytes a row ({@link VectorCodec#copyRows}); without AVX-512 a masked store of bytes is no
     * instruction ({@link VectorCodec#AVX512}): typed accesses.
     */
    @Override
    public void copyRows(MemorySegment from, long fromAt, long fromPitch, MemorySegment to, long toAt, long toPitch,
                         long rows, int bytes) {
        if (bytes > FLOATS.vectorByteSize() || !VectorCodec.AVX512) {
            KernelProvider.super.copyRows(from, fromAt, fromPitch, to, toAt, toPitch, rows, bytes);
            return;
        }
        VectorCodec.copyRows(from, fromAt, fromPitch, to, toAt, toPitch, rows, bytes);
    }

    /** Powers of two, multiples of the lanes and three ways by permutes ({@link VectorInterleave}), the rest scalar. */
    @Override
    public short[] unzip(short[] src, short[] dst, int ways, int count) {
        return VectorInterleave.fits(ways, count, Short.BYTES) ? VectorInterleave.unzip(src, dst, ways, count)
                : KernelProvider.super.unzip(src, dst, ways, count);
    }

    @Override
    public int[] unzip(int[] src, int[] dst, int ways, int count) {
        return VectorInterleave.fits(ways, count, Integer.BYTES) ? VectorInterleave.unzip(src, dst, ways, count)
                : KernelProvider.super.unzip(src, dst, ways, count);
    }

    @Override
    public short[] zip(short[] src, short[] dst, int ways, int count) {
        return VectorInterleave.fits(ways, count, Short.BYTES) ? VectorInterleave.zip(src, dst, ways, count)
                : KernelProvider.super.zip(src, dst, ways, count);
    }

    @Override
    public int[] zip(int[] src, int[] dst, int ways, int count) {
        return VectorInterleave.fits(ways, count, Integer.BYTES) ? VectorInterleave.zip(src, dst, ways, count)
                : KernelProvider.super.zip(src, dst, ways, count);
    }

    /** A vector a position (a copy call per position cost more than its 64 bytes). */
    @Override
    public void copyPositions(float[] src, int from, int step, int count, float[] dst, int to) {
        for (int k = 0; k < count; k++) {
            FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, (from + k * step) * LANES))
                    .intoArray(dst, (to + k) * LANES);
        }
    }

    /** BF16 and FP16 widened in registers ({@link VectorCodec}); FLOAT copied. */
    @Override
    public void decodeRun(MemorySegment seg, DataType type, long first, int count, float[] dst, int dstOff) {
        int whole = type == DataType.FLOAT ? 0 : count / LANES * LANES;
        if (type == DataType.BF16) {
            VectorCodec.widenBf16(seg, first, LANES, whole / LANES, LANES, dst, dstOff);
        } else if (type == DataType.FLOAT16) {
            VectorCodec.widenFp16(seg, first, LANES, whole / LANES, LANES, dst, dstOff);
        }
        ElementCodec.decode(seg, type, first + whole, 1, count - whole, dst, dstOff + whole);
    }

    /**
     * BF16 rounded in registers ({@link VectorCodec}), a partial last vector stored masked where {@code src} holds
     * the whole vector (the codec's element loop on every short row's tail cost more than the row's whole vectors);
     * FLOAT and FP16 by the codec's loops ({@code vcvtps2ph}).
     */
    @Override
    public void encodeRun(float[] src, int srcOff, int count, MemorySegment seg, DataType type, long first) {
        int done = 0;
        if (type == DataType.BF16) {
            int vectors = count / LANES;
            int last = LANES;
            if (vectors * LANES < count && srcOff + (vectors + 1) * LANES <= src.length) {
                last = count - vectors * LANES;
                vectors++;
            }
            VectorCodec.roundBf16(src, srcOff, vectors, seg, first, LANES, last);
            done = Math.min(count, vectors * LANES);
        }
        ElementCodec.encode(src, srcOff + done, count - done, seg, type, first + done, 1);
    }

    /** One vector per position, widened in registers. */
    @Override
    public void decodeLanes(MemorySegment seg, DataType type, long first, long stride, int count, float[] lanes,
                            int at) {
        switch (type) {
            case FLOAT -> VectorCodec.loadFloats(seg, first, stride, count, LANES, lanes, at);
            case BF16 -> VectorCodec.widenBf16(seg, first, stride, count, LANES, lanes, at);
            case FLOAT16 -> VectorCodec.widenFp16(seg, first, stride, count, LANES, lanes, at);
            default -> KernelProvider.super.decodeLanes(seg, type, first, stride, count, lanes, at);
        }
    }

    /** One vector per position, rounded in registers. */
    @Override
    public void encodeLanes(float[] lanes, int at, int count, MemorySegment seg, DataType type, long first,
                            long stride) {
        switch (type) {
            case FLOAT -> VectorCodec.storeFloats(lanes, at, count, seg, first, stride, LANES);
            case BF16 -> VectorCodec.roundBf16(lanes, at, count, seg, first, stride, LANES);
            case FLOAT16 -> VectorCodec.roundFp16(lanes, at, count, seg, first, stride, LANES);
            default -> KernelProvider.super.encodeLanes(lanes, at, count, seg, type, first, stride);
        }
    }

    /**
     * Rows shorter than {@link #SHORT_RUN} positions as a few vectors each, the last one masked: a codec call
     * per row (a copy, or a loop with its set-up) costs more than such a row's elements.
     */
    @Override
    public void decodeRows(MemorySegment seg, DataType type, long[] starts, long from, int rows, int count,
                           float[] tile, int tileStride) {
        if (count > SHORT_RUN || count == 0) {
            KernelProvider.super.decodeRows(seg, type, starts, from, rows, count, tile, tileStride);
            return;
        }
        int vectors = (count + LANES - 1) / LANES;
        int last = count - (vectors - 1) * LANES;
        for (int l = 0; l < rows; l++) {
            switch (type) {
                case FLOAT -> VectorCodec.loadFloats(seg, starts[l] + from, LANES, vectors, last, tile, l * tileStride);
                case BF16 -> VectorCodec.widenBf16(seg, starts[l] + from, LANES, vectors, last, tile, l * tileStride);
                case FLOAT16 -> VectorCodec.widenFp16(seg, starts[l] + from, LANES, vectors, last, tile,
                        l * tileStride);
                default -> decodeRun(seg, type, starts[l] + from, count, tile, l * tileStride);
            }
        }
    }

    /** FLOAT, BF16, FLOAT16 rows at 8 lanes, FLOAT and BF16 at 16 ({@link VectorTransposes#rowsToLanes}). */
    @Override
    public boolean rowsToLanes(MemorySegment seg, DataType type, long[] starts, int rows, long from, int count,
                               float[] lanes, float[] spare) {
        return VectorTransposes.rowsToLanes(seg, type, starts, rows, from, count, lanes, spare);
    }

    /** FLOAT and BF16 rows at 8 and 16 lanes, in registers ({@link VectorTransposes#lanesToRows}). */
    @Override
    public boolean lanesToRows(float[] lanes, int count, MemorySegment seg, DataType type, long[] starts, int rows,
                               long from, float[] spare) {
        return VectorTransposes.lanesToRows(lanes, count, seg, type, starts, rows, from, spare);
    }

    /** The inverse of {@link #decodeRows}, rounded once. */
    @Override
    public void encodeRows(float[] tile, int tileStride, int rows, int count, MemorySegment seg, DataType type,
                           long[] starts, long from) {
        if (count > SHORT_RUN || count == 0) {
            KernelProvider.super.encodeRows(tile, tileStride, rows, count, seg, type, starts, from);
            return;
        }
        int vectors = (count + LANES - 1) / LANES;
        int last = count - (vectors - 1) * LANES;
        for (int l = 0; l < rows; l++) {
            switch (type) {
                case FLOAT -> VectorCodec.storeFloats(tile, l * tileStride, vectors, seg, starts[l] + from, LANES,
                        last);
                case BF16 -> VectorCodec.roundBf16(tile, l * tileStride, vectors, seg, starts[l] + from, LANES, last);
                case FLOAT16 -> VectorCodec.roundFp16(tile, l * tileStride, vectors, seg, starts[l] + from, LANES,
                        last);
                default -> encodeRun(tile, l * tileStride, count, seg, type, starts[l] + from);
            }
        }
    }

    /**
     * FP16 rounded for the whole chunk by the JDK's conversion loop ({@code vcvtps2ph}, several times faster
     * than rounding in registers a row at a time) and its bits stored a row at a time; FLOAT stored likewise
     * (rows of up to {@link #SHORT_RUN}), BF16 rounded in registers row by row.
     */
    @Override
    public void encodePitched(float[] buf, short[] halves, int length, int rows, long pitch, MemorySegment seg,
                              DataType type, long first) {
        if (length == 1) {
            // Elements a pitch apart: one strided loop, where a vector store a row wrote one element each.
            ElementCodec.encode(buf, 0, rows, seg, type, first, pitch);
        } else if (type == DataType.FLOAT16) {
            for (int i = 0; i < rows * length; i++) {
                halves[i] = Float.floatToFloat16(buf[i]);
            }
            VectorCodec.storeHalfRows(halves, length, rows, seg, first, pitch);
        } else if (type == DataType.FLOAT && length <= SHORT_RUN) {
            VectorCodec.storeFloatRows(buf, length, rows, seg, first, pitch);
        } else if (type == DataType.BF16 && length <= SHORT_RUN) {
            int vectors = (length + LANES - 1) / LANES;
            for (int r = 0; r < rows; r++) {
                VectorCodec.roundBf16(buf, r * length, vectors, seg, first + r * pitch, LANES,
                        length - (vectors - 1) * LANES);
            }
        } else {
            KernelProvider.super.encodePitched(buf, halves, length, rows, pitch, seg, type, first);
        }
    }
}
