package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector provider's transposes between rows and lanes: log2(lanes) rounds of zips. Round after round,
 * rows k and k + lanes/2 become rows 2k and 2k + 1 by interleaving their low halves and their high halves
 * (one two-source permute each); after log2(lanes) rounds row m holds column m. At 16 lanes the four rounds
 * run on locals ({@link #transpose16}: the JIT keeps only locals in registers). At 8 lanes (AVX2) a
 * two-source permute is two permutes and a blend, so the transposes swap blocks instead ({@link RowTransposes}).
 * At other widths each round goes through a small L1 buffer, which keeps every vector local to one loop body.
 */
final class VectorTransposes {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    /** Rounds of zips in a transpose. */
    private static final int ROUNDS = Integer.numberOfTrailingZeros(LANES);
    private static final IntVector ZIP_LOW = zip(0);
    private static final IntVector ZIP_HIGH = zip(LANES / 2);
    /**
     * The most positions of a partial block moved element by element: a whole transpose and a masked store per
     * row cost more than these few moves.
     */
    static final int SCALAR_TAIL = 3;
    private VectorTransposes() {}

    /** Lane k takes lane from + k/2 of the first vector (k even) or of the second (k odd). */
    private static IntVector zip(int from) {
        int[] index = new int[LANES];
        for (int k = 0; k < LANES; k++) {
            index[k] = from + k / 2 + (k % 2 == 0 ? 0 : LANES);
        }
        return IntVector.fromArray(INTS, index, 0);
    }

    static void toLanes(float[] rows, int rowsAt, int rowStride, int count, float[] lanes, int at, float[] spare) {
        for (int c = 0; c < count; c += LANES) {
            if (LANES == 16) {
                transpose16(rows, rowsAt + c, rowStride, lanes, at + c * LANES, LANES);
                continue;
            }
            if (LANES == 8) {
                RowTransposes.toLanesArray(rows, rowsAt + c, rowStride, LANES, lanes, at + c * LANES);
                continue;
            }
            // The rounds alternate between the spare buffer and the block's place in lanes, ending in lanes.
            boolean toSpare = ROUNDS % 2 == 0;
            zipRound(rows, rowsAt + c, rowStride, toSpare ? spare : lanes, toSpare ? 0 : at + c * LANES);
            for (int round = 1; round < ROUNDS; round++) {
                toSpare = !toSpare;
                if (toSpare) {
                    zipRound(lanes, at + c * LANES, LANES, spare, 0);
                } else {
                    zipRound(spare, 0, LANES, lanes, at + c * LANES);
                }
            }
        }
    }

    static void fromLanes(float[] lanes, int at, int count, float[] rows, int rowsAt, int rowStride, float[] spare) {
        for (int c = 0; c < count; c += LANES) {
            int n = Math.min(LANES, count - c);
            if (LANES == 16 && n == LANES) {
                transpose16(lanes, at + c * LANES, LANES, rows, rowsAt + c, rowStride);
                continue;
            }
            if (LANES == 8 && n == LANES) {
                RowTransposes.fromLanesArray(lanes, at + c * LANES, LANES, rows, rowsAt + c, rowStride);
                continue;
            }
            if (n <= SCALAR_TAIL) {
                for (int l = 0; l < LANES; l++) {
                    for (int k = 0; k < n; k++) {
                        rows[rowsAt + l * rowStride + c + k] = lanes[at + (c + k) * LANES + l];
                    }
                }
                continue;
            }
            // A partial block (or another width): the rounds in the spare buffer's two halves, then n per row by
            // a vector move, masked for a partial block (an arraycopy call per row costs more than the transpose).
            int result;
            if (LANES == 16) {
                transpose16(lanes, at + c * LANES, LANES, spare, 0, LANES);
                result = 0;
            } else if (LANES == 8) {
                RowTransposes.fromLanesArray(lanes, at + c * LANES, LANES, spare, 0, LANES);
                result = 0;
            } else {
                float[] from = lanes;
                int fromAt = at + c * LANES;
                for (int round = 0; round < ROUNDS; round++) {
                    int toAt = fromAt == 0 && from == spare ? LANES * LANES : 0;
                    zipRound(from, fromAt, LANES, spare, toAt);
                    from = spare;
                    fromAt = toAt;
                }
                result = fromAt;
            }
            VectorMask<Float> first = FLOATS.indexInRange(0, n);
            for (int l = 0; l < LANES; l++) {
                FloatVector.fromArray(FLOATS, spare, result + l * LANES)
                        .intoArray(rows, rowsAt + l * rowStride + c, first);
            }
        }
    }

    /**
     * {@link KernelProvider#rowsToLanes}: at 8 lanes, FLOAT, BF16 and FLOAT16 rows straight into the lanes ({@link
     * RowTransposes}), a partial group's lanes past its rows reading its last row again ({@link #repeatLastStart}; not
     * FLOAT16); a partial last block read whole where the segment holds every row's vector (its lanes past the rows
     * are slack), else decoded row by row into {@code spare} and transposed from there.
     */
    static boolean rowsToLanes(MemorySegment seg, DataType type, long[] starts, int rows, long from, int count,
                               float[] lanes, float[] spare) {
        if (!RowTransposes.APPLIES || type != DataType.FLOAT && type != DataType.BF16 && type != DataType.FLOAT16
                || rows < LANES && type == DataType.FLOAT16) {
            // A partial group of FP16 rows, written through the tile anyway, measured no faster read straight.
            return false;
        }
        repeatLastStart(starts, rows);
        int whole = count / LANES * LANES;
        if (whole < count) {
            boolean held = true;
            for (int l = 0; l < LANES; l++) {
                held &= (starts[l] + from + whole + LANES) * type.byteSize() <= seg.byteSize();
            }
            if (held) {
                whole += LANES;
            } else {
                codecBlock(seg, type, starts, from + whole, count - whole, lanes, whole * LANES, spare);
            }
        }
        switch (type) {
            case FLOAT -> RowTransposes.toLanesFloat(seg, starts, from, whole, lanes, 0);
            case BF16 -> RowTransposes.toLanesBf16(seg, starts, from, whole, lanes, 0);
            default -> RowTransposes.toLanesFp16(seg, starts, from, whole, lanes, 0, spare);
        }
        return true;
    }

    /**
     * A block of the 8 rows, its first {@code count} positions decoded by the codec into {@code spare} and the block
     * transposed into the lanes at {@code at} (its positions past count are slack): a partial last block that ends
     * the segment, or an FP16 block holding an infinity or a NaN.
     */
    static void codecBlock(MemorySegment seg, DataType type, long[] starts, long from, int count, float[] lanes, int at,
                           float[] spare) {
        for (int l = 0; l < LANES; l++) {
            ElementCodec.decode(seg, type, starts[l] + from, 1, count, spare, l * LANES);
        }
        RowTransposes.toLanesArray(spare, 0, LANES, LANES, lanes, at);
    }

    /**
     * {@link KernelProvider#lanesToRows}: at 8 lanes, FLOAT and BF16 rows straight from the lanes ({@link
     * RowTransposes}), a partial group's lanes past its rows repeating its last row; a partial last block transposed
     * into {@code spare} and rounded row by row by the codec.
     */
    static boolean lanesToRows(float[] lanes, int count, MemorySegment seg, DataType type, long[] starts, int rows,
                               long from, float[] spare) {
        if (!RowTransposes.APPLIES || type != DataType.FLOAT && type != DataType.BF16) {
            return false;
        }
        if (rows < LANES) {
            // The lanes past the rows repeat the last row, values and start: its stores write its bits again.
            repeatLastStart(starts, rows);
            for (int k = 0; k < count; k++) {
                java.util.Arrays.fill(lanes, k * LANES + rows, (k + 1) * LANES, lanes[k * LANES + rows - 1]);
            }
        }
        int whole = count / LANES * LANES;
        if (type == DataType.FLOAT) {
            RowTransposes.fromLanesFloat(lanes, 0, whole, seg, starts, from);
        } else {
            RowTransposes.fromLanesBf16(lanes, 0, whole, seg, starts, from);
        }
        if (whole < count) {
            RowTransposes.fromLanesArray(lanes, whole * LANES, LANES, spare, 0, LANES);
            for (int l = 0; l < rows; l++) {
                ElementCodec.encode(spare, l * LANES, count - whole, seg, type, starts[l] + from + whole, 1);
            }
        }
        return true;
    }

    /**
     * A partial group's lanes past its {@code rows} rows take the last row's start: they read that row again (its
     * lanes are dropped), so the 8 × 8 transposes serve a partial group as a whole one, where a run per row into a
     * tile and a transpose from there cost more.
     */
    private static void repeatLastStart(long[] starts, int rows) {
        for (int l = rows; l < LANES; l++) {
            starts[l] = starts[rows - 1];
        }
    }

    /** A 16 × 16 transpose in registers: {@link #zipRound}'s four rounds on locals (the JIT keeps only locals in registers). */
    private static void transpose16(float[] src, int srcAt, int srcStride, float[] dst, int dstAt, int dstStride) {
        IntVector r0 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 0 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r1 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 1 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r2 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 2 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r3 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 3 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r4 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 4 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r5 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 5 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r6 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 6 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r7 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 7 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r8 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 8 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r9 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 9 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r10 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 10 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r11 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 11 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r12 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 12 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r13 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 13 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r14 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 14 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector r15 = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + 15 * srcStride)
                .reinterpretShape(INTS, 0);
        IntVector a0 = ZIP_LOW.selectFrom(r0, r8);
        IntVector a1 = ZIP_HIGH.selectFrom(r0, r8);
        IntVector a2 = ZIP_LOW.selectFrom(r1, r9);
        IntVector a3 = ZIP_HIGH.selectFrom(r1, r9);
        IntVector a4 = ZIP_LOW.selectFrom(r2, r10);
        IntVector a5 = ZIP_HIGH.selectFrom(r2, r10);
        IntVector a6 = ZIP_LOW.selectFrom(r3, r11);
        IntVector a7 = ZIP_HIGH.selectFrom(r3, r11);
        IntVector a8 = ZIP_LOW.selectFrom(r4, r12);
        IntVector a9 = ZIP_HIGH.selectFrom(r4, r12);
        IntVector a10 = ZIP_LOW.selectFrom(r5, r13);
        IntVector a11 = ZIP_HIGH.selectFrom(r5, r13);
        IntVector a12 = ZIP_LOW.selectFrom(r6, r14);
        IntVector a13 = ZIP_HIGH.selectFrom(r6, r14);
        IntVector a14 = ZIP_LOW.selectFrom(r7, r15);
        IntVector a15 = ZIP_HIGH.selectFrom(r7, r15);
        IntVector b0 = ZIP_LOW.selectFrom(a0, a8);
        IntVector b1 = ZIP_HIGH.selectFrom(a0, a8);
        IntVector b2 = ZIP_LOW.selectFrom(a1, a9);
        IntVector b3 = ZIP_HIGH.selectFrom(a1, a9);
        IntVector b4 = ZIP_LOW.selectFrom(a2, a10);
        IntVector b5 = ZIP_HIGH.selectFrom(a2, a10);
        IntVector b6 = ZIP_LOW.selectFrom(a3, a11);
        IntVector b7 = ZIP_HIGH.selectFrom(a3, a11);
        IntVector b8 = ZIP_LOW.selectFrom(a4, a12);
        IntVector b9 = ZIP_HIGH.selectFrom(a4, a12);
        IntVector b10 = ZIP_LOW.selectFrom(a5, a13);
        IntVector b11 = ZIP_HIGH.selectFrom(a5, a13);
        IntVector b12 = ZIP_LOW.selectFrom(a6, a14);
        IntVector b13 = ZIP_HIGH.selectFrom(a6, a14);
        IntVector b14 = ZIP_LOW.selectFrom(a7, a15);
        IntVector b15 = ZIP_HIGH.selectFrom(a7, a15);
        IntVector c0 = ZIP_LOW.selectFrom(b0, b8);
        IntVector c1 = ZIP_HIGH.selectFrom(b0, b8);
        IntVector c2 = ZIP_LOW.selectFrom(b1, b9);
        IntVector c3 = ZIP_HIGH.selectFrom(b1, b9);
        IntVector c4 = ZIP_LOW.selectFrom(b2, b10);
        IntVector c5 = ZIP_HIGH.selectFrom(b2, b10);
        IntVector c6 = ZIP_LOW.selectFrom(b3, b11);
        IntVector c7 = ZIP_HIGH.selectFrom(b3, b11);
        IntVector c8 = ZIP_LOW.selectFrom(b4, b12);
        IntVector c9 = ZIP_HIGH.selectFrom(b4, b12);
        IntVector c10 = ZIP_LOW.selectFrom(b5, b13);
        IntVector c11 = ZIP_HIGH.selectFrom(b5, b13);
        IntVector c12 = ZIP_LOW.selectFrom(b6, b14);
        IntVector c13 = ZIP_HIGH.selectFrom(b6, b14);
        IntVector c14 = ZIP_LOW.selectFrom(b7, b15);
        IntVector c15 = ZIP_HIGH.selectFrom(b7, b15);
        IntVector d0 = ZIP_LOW.selectFrom(c0, c8);
        IntVector d1 = ZIP_HIGH.selectFrom(c0, c8);
        IntVector d2 = ZIP_LOW.selectFrom(c1, c9);
        IntVector d3 = ZIP_HIGH.selectFrom(c1, c9);
        IntVector d4 = ZIP_LOW.selectFrom(c2, c10);
        IntVector d5 = ZIP_HIGH.selectFrom(c2, c10);
        IntVector d6 = ZIP_LOW.selectFrom(c3, c11);
        IntVector d7 = ZIP_HIGH.selectFrom(c3, c11);
        IntVector d8 = ZIP_LOW.selectFrom(c4, c12);
        IntVector d9 = ZIP_HIGH.selectFrom(c4, c12);
        IntVector d10 = ZIP_LOW.selectFrom(c5, c13);
        IntVector d11 = ZIP_HIGH.selectFrom(c5, c13);
        IntVector d12 = ZIP_LOW.selectFrom(c6, c14);
        IntVector d13 = ZIP_HIGH.selectFrom(c6, c14);
        IntVector d14 = ZIP_LOW.selectFrom(c7, c15);
        IntVector d15 = ZIP_HIGH.selectFrom(c7, c15);
        ((FloatVector) d0.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 0 * dstStride);
        ((FloatVector) d1.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 1 * dstStride);
        ((FloatVector) d2.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 2 * dstStride);
        ((FloatVector) d3.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 3 * dstStride);
        ((FloatVector) d4.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 4 * dstStride);
        ((FloatVector) d5.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 5 * dstStride);
        ((FloatVector) d6.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 6 * dstStride);
        ((FloatVector) d7.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 7 * dstStride);
        ((FloatVector) d8.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 8 * dstStride);
        ((FloatVector) d9.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 9 * dstStride);
        ((FloatVector) d10.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 10 * dstStride);
        ((FloatVector) d11.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 11 * dstStride);
        ((FloatVector) d12.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 12 * dstStride);
        ((FloatVector) d13.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 13 * dstStride);
        ((FloatVector) d14.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 14 * dstStride);
        ((FloatVector) d15.reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 15 * dstStride);
    }

    /** One round: rows k and k + lanes/2 of src (rows {@code stride} apart) become rows 2k and 2k + 1 of dst. */
    private static void zipRound(float[] src, int srcAt, int stride, float[] dst, int dstAt) {
        for (int k = 0; k < LANES / 2; k++) {
            IntVector a = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + k * stride)
                    .reinterpretShape(INTS, 0);
            IntVector b = (IntVector) FloatVector.fromArray(FLOATS, src, srcAt + (k + LANES / 2) * stride)
                    .reinterpretShape(INTS, 0);
            ((FloatVector) ZIP_LOW.selectFrom(a, b).reinterpretShape(FLOATS, 0)).intoArray(dst, dstAt + 2 * k * LANES);
            ((FloatVector) ZIP_HIGH.selectFrom(a, b).reinterpretShape(FLOATS, 0))
                    .intoArray(dst, dstAt + (2 * k + 1) * LANES);
        }
    }
}
