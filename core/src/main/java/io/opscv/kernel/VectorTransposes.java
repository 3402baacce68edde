package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector provider's transposes between rows and lanes: log2(lanes) rounds of zips. Round after round,
 * rows k and k + lanes/2 become rows 2k and 2k + 1 by interleaving their low halves and their high halves
 * (one two-source permute each); after log2(lanes) rounds row m holds column m. At 16 lanes the four rounds
 * run on locals ({@link RowTransposes#transpose16}: the JIT keeps only locals in registers). At 8 lanes (AVX2) a
 * two-source permute is two permutes and a blend, so the transposes swap blocks instead ({@link RowTransposes}).
 * At other widths each round goes through a small L1 buffer, which keeps every vector local to one loop body.
 */
final class VectorTransposes {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
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
                RowTransposes.transpose16(rows, rowsAt + c, rowStride, lanes, at + c * LANES, LANES);
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
                RowTransposes.transpose16(lanes, at + c * LANES, LANES, rows, rowsAt + c, rowStride);
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
                RowTransposes.transpose16(lanes, at + c * LANES, LANES, spare, 0, LANES);
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
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, spare, result + l * LANES))
                        .intoArray(rows, rowsAt + l * rowStride + c, first);
            }
        }
    }

    /**
     * {@link KernelProvider#rowsToLanes}: at 8 lanes, FLOAT, BF16 and FLOAT16 rows straight into the lanes ({@link
     * RowTransposes}, the 16-bit ones 16 positions a block as pairs, widened in a pass of their own; at 16 lanes
     * FLOAT and BF16 rows, {@link #rowsToLanes16}), a partial group's lanes past its rows reading its last row again
     * ({@link #repeatLastStart}; not FLOAT16); a partial last block read whole where the segment holds every row's
     * vector (its lanes past the rows are slack), else decoded row by row into {@code spare} and transposed from
     * there.
     */
    static boolean rowsToLanes(MemorySegment seg, DataType type, long[] starts, int rows, long from, int count,
                               float[] lanes, float[] spare) {
        if (sixteen(type)) {
            if (wholeRun(starts, rows, from, count)) {
                return false;
            }
            rowsToLanes16(seg, type, starts, rows, from, count, lanes, spare);
            return true;
        }
        if (!RowTransposes.APPLIES || type != DataType.FLOAT && !pairs(type)
                || rows < LANES && type == DataType.FLOAT16) {
            // A partial group of FP16 rows, written through the tile anyway, measured no faster read straight.
            return false;
        }
        repeatLastStart(starts, rows);
        int whole = count / LANES * LANES;
        if (whole < count) {
            if (held(seg, type, starts, from + whole + LANES)) {
                whole += LANES;
            } else {
                codecBlock(seg, type, starts, from + whole, count - whole, lanes, whole * LANES, spare);
            }
        }
        if (type != DataType.FLOAT && whole % (2 * LANES) != 0 && !held(seg, type, starts, from + whole + LANES)) {
            // 16-bit rows move 16 positions a block: a last half block reads 16.
            whole -= LANES;
            codecBlock(seg, type, starts, from + whole, LANES, lanes, whole * LANES, spare);
        }
        if (whole == 0) {
            // No call without a block: a method called often with no iterations has its loop's calls profiled cold,
            // and C2 may then box the vectors there once blocks come.
            return true;
        }
        if (type == DataType.FLOAT) {
            RowTransposes.toLanesFloat(seg, starts, from, whole, lanes, 0);
        } else {
            RowTransposes.toLanesPairs(seg, starts, from, whole, lanes, 0);
            if (type == DataType.BF16) {
                widenPairsBf16(lanes, whole);
            } else {
                widenPairsFp16(lanes, whole);
            }
        }
        return true;
    }

    /**
     * The BF16 pairs {@link RowTransposes#toLanesPairs} left in the slots of the even positions of the lanes'
     * first {@code count} positions, widened in place: the high halves, masked, to the odd slots, the low halves,
     * shifted up, over the pairs. A pass of its own: widening inside the transpose made a method too large for C1.
     */
    private static void widenPairsBf16(float[] lanes, int count) {
        for (int k = 0; k < count; k += 2) {
            IntVector v = INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, k * LANES))
                    .reinterpretShape(INTS, 0));
            FLOAT_VECTOR.cast((FloatVector) v.and(0xffff0000).reinterpretShape(FLOATS, 0))
                    .intoArray(lanes, (k + 1) * LANES);
            FLOAT_VECTOR.cast((FloatVector) v.lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0))
                    .intoArray(lanes, k * LANES);
        }
    }

    /**
     * {@link #widenPairsBf16} for FLOAT16 pairs, each half widened exactly as {@link VectorCodec#widenFp16}: the
     * magnitude's bits moved into a float's and scaled by 2^112, the sign put back; a vector holding an infinity or
     * a NaN (exponent bits all set: adding 0x0400 carries into the half's top bit) goes lane by lane instead.
     */
    private static void widenPairsFp16(float[] lanes, int count) {
        for (int k = 0; k < count; k += 2) {
            IntVector v = INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, k * LANES))
                    .reinterpretShape(INTS, 0));
            if (v.and(0x7c007c00).add(0x04000400).and(0x80008000).compare(VectorOperators.NE, 0).anyTrue()) {
                specialPairs(lanes, k);
                continue;
            }
            FLOAT_VECTOR.cast((FloatVector) INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast((FloatVector) v
                    .lanewise(VectorOperators.LSHR, 16).and(0x7fff).lanewise(VectorOperators.LSHL, 13)
                    .reinterpretShape(FLOATS, 0)).mul(0x1p112f).reinterpretShape(INTS, 0)).or(v.and(0x80000000))
                    .reinterpretShape(FLOATS, 0)).intoArray(lanes, (k + 1) * LANES);
            FLOAT_VECTOR.cast((FloatVector) INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast((FloatVector) v.and(0x7fff)
                    .lanewise(VectorOperators.LSHL, 13).reinterpretShape(FLOATS, 0)).mul(0x1p112f)
                    .reinterpretShape(INTS, 0)).or(v.lanewise(VectorOperators.LSHL, 16).and(0x80000000))
                    .reinterpretShape(FLOATS, 0)).intoArray(lanes, k * LANES);
        }
    }

    /** A vector of FLOAT16 pairs holding an infinity or a NaN, widened lane by lane as {@link Float#float16ToFloat}. */
    private static void specialPairs(float[] lanes, int k) {
        for (int l = 0; l < LANES; l++) {
            int pair = Float.floatToRawIntBits(lanes[k * LANES + l]);
            lanes[(k + 1) * LANES + l] = Float.float16ToFloat((short) (pair >>> 16));
            lanes[k * LANES + l] = Float.float16ToFloat((short) pair);
        }
    }

    /** Whether the segment holds every row of the group up to position {@code end}. */
    private static boolean held(MemorySegment seg, DataType type, long[] starts, long end) {
        boolean held = true;
        for (int l = 0; l < LANES; l++) {
            held &= (starts[l] + end) * type.byteSize() <= seg.byteSize();
        }
        return held;
    }

    /** Whether rows of this dtype go straight at 16 lanes: FLOAT, and BF16 as pairs. */
    private static boolean sixteen(DataType type) {
        return RowTransposes.APPLIES16 && (type == DataType.FLOAT || type == DataType.BF16 && pairs(type));
    }

    /** Whether 16-bit rows can move as pairs of positions in 32-bit lanes: position 2m in the low half. */
    private static boolean pairs(DataType type) {
        return (type == DataType.BF16 || type == DataType.FLOAT16) && ORDER == ByteOrder.LITTLE_ENDIAN;
    }

    /**
     * {@link #rowsToLanes} at 16 lanes: FLOAT 16 positions a call ({@link RowTransposes#toLanes16Float}), BF16 32, as
     * pairs of positions in 32-bit lanes transposed and then widened ({@link RowTransposes#toPairs16Bf16}, {@link
     * #unpackBf16}: a 16 × 16 block that widens is too large for C1); the lanes past a partial group's rows reading
     * its last row again; a partial last block read whole where the segment holds it and the lanes have room, else
     * decoded row by row into {@code spare} and transposed from there.
     */
    private static void rowsToLanes16(MemorySegment seg, DataType type, long[] starts, int rows, long from, int count,
                                      float[] lanes, float[] spare) {
        repeatLastStart(starts, rows);
        boolean bf16 = type == DataType.BF16;
        int block = bf16 ? 2 * LANES : LANES;
        int whole = count / block * block;
        int tail = whole;
        if (whole < count) {
            // A held last block of BF16 with at most 16 positions left widens only its first 8 pairs: the lanes end
            // at position roundUp(count, 16).
            if (held(seg, type, starts, from + whole + block)) {
                tail = count;
            } else {
                for (int c = whole; c < count; c += LANES) {
                    codecBlock(seg, type, starts, from + c, Math.min(LANES, count - c), lanes, c * LANES, spare);
                }
            }
        }
        for (int c = 0; c < tail; c += block) {
            if (bf16) {
                RowTransposes.toPairs16Bf16(seg, starts, from + c, spare, 0);
                unpackBf16(spare, lanes, c * LANES, Math.min(LANES, (tail - c + 1) / 2));
            } else {
                RowTransposes.toLanes16Float(seg, starts, from + c, lanes, c * LANES);
            }
        }
    }

    /**
     * The lanes of {@code pairs} vectors of BF16 pairs ({@link RowTransposes#toPairs16Bf16}) widened into the lanes
     * at {@code at}: pair m's low halves, shifted up, are position 2m, its high halves, masked, position 2m + 1.
     */
    static void unpackBf16(float[] pairs, float[] lanes, int at, int count) {
        for (int m = 0; m < count; m++) {
            IntVector v = INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, pairs, m * LANES))
                    .reinterpretShape(INTS, 0));
            FLOAT_VECTOR.cast((FloatVector) v.lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0))
                    .intoArray(lanes, at + 2 * m * LANES);
            FLOAT_VECTOR.cast((FloatVector) v.and(0xffff0000).reinterpretShape(FLOATS, 0))
                    .intoArray(lanes, at + (2 * m + 1) * LANES);
        }
    }

    /**
     * The inverse of {@link #unpackBf16}: 32 positions of the lanes at {@code at}, each rounded to BF16 as {@link
     * ElementCodec#floatToBf16} does, packed in pairs into {@code pairs} for {@link RowTransposes#fromPairs16Bf16}.
     */
    static void packBf16(float[] lanes, int at, float[] pairs) {
        for (int m = 0; m < LANES; m++) {
            FloatVector e = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, at + 2 * m * LANES));
            FloatVector o = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, at + (2 * m + 1) * LANES));
            IntVector even = INT_VECTOR.cast((IntVector) e.reinterpretShape(INTS, 0));
            IntVector odd = INT_VECTOR.cast((IntVector) o.reinterpretShape(INTS, 0));
            // ElementCodec.floatToBf16: add 0x7fff plus the lowest kept bit, keep the top half; a NaN keeps its top
            // half, quieted.
            IntVector evenTop = even.lanewise(VectorOperators.LSHR, 16);
            IntVector evenHalf = even.add(0x7fff).add(evenTop.and(1)).lanewise(VectorOperators.LSHR, 16)
                    .blend(evenTop.or(0x0040), even.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000));
            IntVector oddTop = odd.lanewise(VectorOperators.LSHR, 16);
            IntVector oddHalf = odd.add(0x7fff).add(oddTop.and(1)).lanewise(VectorOperators.LSHR, 16)
                    .blend(oddTop.or(0x0040), odd.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000));
            FLOAT_VECTOR.cast((FloatVector) evenHalf.or(oddHalf.lanewise(VectorOperators.LSHL, 16))
                    .reinterpretShape(FLOATS, 0))
                    .intoArray(pairs, m * LANES);
        }
    }

    /**
     * Whether the rows are whole and end to end, one run of memory: at 16 lanes that run copied in one piece and
     * transposed from L1 costs less than 16 rows side by side straight from memory (small 2-D maps in lanes).
     */
    private static boolean wholeRun(long[] starts, int rows, long from, int count) {
        if (from != 0) {
            return false;
        }
        for (int l = 1; l < rows; l++) {
            if (starts[l] != starts[l - 1] + count) {
                return false;
            }
        }
        return true;
    }

    /**
     * A block of the group's rows, its first {@code count} positions decoded by the codec into {@code spare} and the
     * block transposed into the lanes at {@code at} (its positions past count are slack): a partial last block that
     * ends the segment.
     */
    static void codecBlock(MemorySegment seg, DataType type, long[] starts, long from, int count, float[] lanes, int at,
                           float[] spare) {
        for (int l = 0; l < LANES; l++) {
            ElementCodec.decode(seg, type, starts[l] + from, 1, count, spare, l * LANES);
        }
        if (LANES == 16) {
            RowTransposes.transpose16(spare, 0, LANES, lanes, at, LANES);
        } else {
            RowTransposes.toLanesArray(spare, 0, LANES, LANES, lanes, at);
        }
    }

    /**
     * {@link KernelProvider#lanesToRows}: at 8 lanes, FLOAT and BF16 rows straight from the lanes ({@link
     * RowTransposes}; at 16 lanes FLOAT and BF16 rows, {@link #lanesToRows16}), a partial group's lanes past its rows
     * repeating its last row; a partial last block transposed into {@code spare} and rounded row by row by the codec.
     */
    static boolean lanesToRows(float[] lanes, int count, MemorySegment seg, DataType type, long[] starts, int rows,
                               long from, float[] spare) {
        boolean sixteen = sixteen(type);
        if (sixteen ? wholeRun(starts, rows, from, count)
                : !RowTransposes.APPLIES || type != DataType.FLOAT && !(type == DataType.BF16 && pairs(type))) {
            return false;
        }
        if (rows < LANES) {
            // The lanes past the rows repeat the last row, values and start: its stores write its bits again.
            repeatLastStart(starts, rows);
            for (int k = 0; k < count; k++) {
                java.util.Arrays.fill(lanes, k * LANES + rows, (k + 1) * LANES, lanes[k * LANES + rows - 1]);
            }
        }
        if (sixteen) {
            lanesToRows16(lanes, count, seg, type, starts, rows, from, spare);
            return true;
        }
        int block = type == DataType.FLOAT ? LANES : 2 * LANES;
        int whole = count / block * block;
        // Rows of fewer positions than a block go to the codec below, with no call here (see rowsToLanes).
        if (whole > 0) {
            if (type == DataType.FLOAT) {
                RowTransposes.fromLanesFloat(lanes, 0, whole, seg, starts, from);
            } else {
                RowTransposes.fromLanesBf16(lanes, 0, whole, seg, starts, from, spare);
            }
        }
        for (int c = whole; c < count; c += LANES) {
            RowTransposes.fromLanesArray(lanes, c * LANES, LANES, spare, 0, LANES);
            for (int l = 0; l < rows; l++) {
                ElementCodec.encode(spare, l * LANES, Math.min(LANES, count - c), seg, type, starts[l] + from + c, 1);
            }
        }
        return true;
    }

    /**
     * {@link #lanesToRows} at 16 lanes: FLOAT 16 positions a call ({@link RowTransposes#fromLanes16Float}), BF16 32,
     * rounded and packed in pairs first ({@link #packBf16}, {@link RowTransposes#fromPairs16Bf16}); a partial last
     * block transposed into {@code spare} 16 positions at a time and stored a masked vector a row ({@link
     * VectorCodec}: a codec call per row costs more than its few elements).
     */
    private static void lanesToRows16(float[] lanes, int count, MemorySegment seg, DataType type, long[] starts,
                                      int rows, long from, float[] spare) {
        boolean bf16 = type == DataType.BF16;
        int block = bf16 ? 2 * LANES : LANES;
        int whole = count / block * block;
        for (int c = 0; c < whole; c += block) {
            if (bf16) {
                packBf16(lanes, c * LANES, spare);
                RowTransposes.fromPairs16Bf16(spare, 0, seg, starts, from + c);
            } else {
                RowTransposes.fromLanes16Float(lanes, c * LANES, seg, starts, from + c);
            }
        }
        for (int c = whole; c < count; c += LANES) {
            RowTransposes.transpose16(lanes, c * LANES, LANES, spare, 0, LANES);
            int n = Math.min(LANES, count - c);
            for (int l = 0; l < rows; l++) {
                if (bf16) {
                    VectorCodec.roundBf16(spare, l * LANES, 1, seg, starts[l] + from + c, LANES, n);
                } else {
                    VectorCodec.storeFloats(spare, l * LANES, 1, seg, starts[l] + from + c, LANES, n);
                }
            }
        }
    }

    /**
     * A partial group's lanes past its {@code rows} rows take the last row's start: they read that row again (its
     * lanes are dropped), so the transposes in registers serve a partial group as a whole one, where a run per row
     * into a tile and a transpose from there cost more.
     */
    private static void repeatLastStart(long[] starts, int rows) {
        for (int l = rows; l < LANES; l++) {
            starts[l] = starts[rows - 1];
        }
    }

    /** One round: rows k and k + lanes/2 of src (rows {@code stride} apart) become rows 2k and 2k + 1 of dst. */
    private static void zipRound(float[] src, int srcAt, int stride, float[] dst, int dstAt) {
        for (int k = 0; k < LANES / 2; k++) {
            IntVector a = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, srcAt + k * stride))
                    .reinterpretShape(INTS, 0);
            int second = srcAt + (k + LANES / 2) * stride;
            IntVector b = (IntVector) FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, second))
                    .reinterpretShape(INTS, 0);
            FLOAT_VECTOR.cast((FloatVector) ZIP_LOW.selectFrom(a, b).reinterpretShape(FLOATS, 0))
                    .intoArray(dst, dstAt + 2 * k * LANES);
            FLOAT_VECTOR.cast((FloatVector) ZIP_HIGH.selectFrom(a, b).reinterpretShape(FLOATS, 0))
                    .intoArray(dst, dstAt + (2 * k + 1) * LANES);
        }
    }
}
