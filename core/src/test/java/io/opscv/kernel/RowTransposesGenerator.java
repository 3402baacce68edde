package io.opscv.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code RowTransposes.java}: the 8 × 8 transpose between rows and lanes ({@link VectorTransposes}) once per
 * kind of rows from the one template here: rows in a float array (the staged paths), FLOAT rows read straight from a
 * tensor into the lanes and written straight back, so that the rows never pass through a staging tile, and BF16 and
 * FLOAT16 rows as pairs of positions in 32-bit lanes (little-endian), read into the lanes as they are (widened by a
 * pass of their own) and BF16 ones written from pairs rounded by a call at each block: a transpose that also widens
 * or rounds is too large for C1 with the casts to the exact classes that keep C2 from boxing its vectors (see
 * KERNELS.md, "JIT state"). The kind is only the rows' loads and stores, written out in the method: a helper taking
 * or returning a vector is boxed where C2 does not inline it. FLOAT16 rows are written by the JDK's conversion loop
 * through the tile. At 16 lanes it writes the 16 × 16 transpose, for arrays and for FLOAT rows of a tensor both
 * ways, and for BF16 rows as pairs of positions in 32-bit lanes, widened and rounded apart ({@link
 * VectorTransposes}). Run {@code main} from the core module's directory to rewrite the file; {@code
 * GeneratedSourcesTest} checks that the committed file is this output.
 */
final class RowTransposesGenerator {
    /** The generated file, from the core module's directory. */
    static final Path TARGET = Path.of("src/main/java/io/opscv/kernel/RowTransposes.java");

    /**
     * A kind of rows: its methods' suffix, what they move (for the javadoc), the parameters that name the rows, the
     * expression of row {@code %1$s}'s element at position {@code c} (an element index for the array, a byte offset
     * for the tensors), the statement that loads it as the FloatVector {@code r%1$s} ({@code null}: write only), the
     * statements that store the FloatVector {@code s} at {@code %1$s} ({@code null}: read only), the positions a block
     * moves ({@code step}), and, from the lanes' side, the statements that store the transposed {@code c%1$d} into the
     * lanes and that load {@code r%1$d} from them, and the statements that begin each block written ({@code before}).
     * 16-bit rows move 16 positions a block as pairs of positions in 32-bit lanes, which C2 keeps in one vector shape:
     * a 128-bit vector of shorts widened into 256-bit ints meets the JDK's shared vector methods with a second shape,
     * and in some processes C2 then boxes every vector of the method.
     */
    private record Kind(String suffix, String name, String rows, String at, String load, String store, int step,
                        String toLanes, String fromLanes, String before) {
        /** A kind of 8 positions a block, one float per lane. */
        Kind(String suffix, String name, String rows, String at, String load, String store) {
            this(suffix, name, rows, at, load, store, 8, "c%1$d.intoArray(lanes, at + c * 8 + %1$d * 8);\n",
                    "FloatVector r%1$d = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, lanes, at + c * 8 + %1$d * 8));\n",
                    "");
        }
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("Array", "rows of a float array, row l from {@code rowsAt + l·rowStride}",
                    "float[] rows, int rowsAt, int rowStride", "rowsAt + c + %1$s * rowStride",
                    "FloatVector r%1$s = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, rows, %2$s));\n",
                    "s.intoArray(rows, %1$s);\n"),
            new Kind("Float", "FLOAT rows of a tensor, row l from element {@code starts[l] + from}",
                    "MemorySegment rows, long[] starts, long from", "(starts[%1$s] + from + c) * Float.BYTES",
                    "FloatVector r%1$s = FLOAT_VECTOR.cast(FloatVector.fromMemorySegment(FLOATS, rows, %2$s, ORDER));\n",
                    VectorStores.floats("rows")),
            // 16-bit rows as pairs of positions in 32-bit lanes (position 2m the low half, little-endian), moved as
            // they are: transposed pair m of a block goes to the slot of its even position, widened there in place
            // afterwards (VectorTransposes.widenPairsBf16, widenPairsFp16), a pass of its own that keeps this method
            // small enough for C1.
            new Kind("Pairs", "BF16 or FLOAT16 rows of a tensor, row l from element {@code starts[l] + from}",
                    "MemorySegment rows, long[] starts, long from", "(starts[%1$s] + from + c) * 2",
                    "FloatVector r%1$s = FLOAT_VECTOR.cast(FloatVector.fromMemorySegment(FLOATS, rows, %2$s, ORDER));\n",
                    null, 16, "c%1$d.intoArray(lanes, at + (c + 2 * %1$d) * 8);\n", null, ""),
            // BF16 rows written from the lanes: each block's positions rounded and packed in pairs into a buffer
            // first (VectorTransposes.packBf16, a call C1 leaves apart), then transposed as 32-bit lanes.
            new Kind("Bf16", "BF16 rows of a tensor, row l from element {@code starts[l] + from}",
                    "MemorySegment rows, long[] starts, long from, float[] pairs", "(starts[%1$s] + from + c) * 2",
                    null, VectorStores.floats("rows"), 16, null,
                    "FloatVector r%1$d = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, pairs, %1$d * 8));\n",
                    "VectorTransposes.packBf16(lanes, at + c * 8, pairs);\n"));

    private RowTransposesGenerator() {}

    public static void main(String[] args) throws IOException {
        Files.writeString(Path.of(args.length > 0 ? args[0] : ".").resolve(TARGET), source(), StandardCharsets.UTF_8);
    }

    /** The whole generated file. */
    static String source() {
        StringBuilder s = new StringBuilder("""
                // Generated by RowTransposesGenerator (core/src/test/java/io/opscv/kernel) - do not edit.
                package io.opscv.kernel;

                import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
                import static io.opscv.kernel.ExactVectors.LONG_VECTOR;

                import java.lang.foreign.MemorySegment;
                import java.nio.ByteOrder;
                import jdk.incubator.vector.FloatVector;
                import jdk.incubator.vector.LongVector;
                import jdk.incubator.vector.VectorMask;
                import jdk.incubator.vector.VectorOperators;
                import jdk.incubator.vector.VectorShuffle;
                import jdk.incubator.vector.VectorSpecies;

                /**
                 * The 8 × 8 transposes between rows and lanes of {@link VectorTransposes}, one method per kind of rows
                 * and direction: rows in a float array, or rows of a tensor read into the lanes and written from them
                 * in registers, with no staging tile between (the tile's copy took as long as the transpose): FLOAT
                 * rows both ways, BF16 and FLOAT16 rows read as pairs of positions in 32-bit lanes, 16 positions a
                 * block, widened afterwards by {@link VectorTransposes}, and BF16 rows written from pairs it rounds.
                 * {@code count} positions (a multiple of 8) of the 8 rows, position k of row l at
                 * {@code lanes[at + k·8 + l]}; only at 8 lanes (AVX2). The transpose swaps blocks:
                 * round d = 4, 2, 1 exchanges, for each pair of rows d apart, the upper row's lanes with bit d set
                 * and the lower row's lanes with bit d clear, a single-source permute and a blend a row (a
                 * two-source permute is two permutes and a blend on AVX2). Round 1 swaps the halves of 64-bit lanes,
                 * so it shifts and masks them: integer operations, where a permute and a blend took a third longer.
                 * At 16 lanes (AVX-512) a two-source permute is one instruction, so the 16 × 16 transposes zip
                 * ({@link #transpose16}), one block a call; FLOAT rows of a tensor go straight to the lanes and
                 * back that way too, and BF16 rows as pairs of positions.
                 */
                final class RowTransposes {
                    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
                    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
                    private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, FLOATS.vectorShape());
                    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
                    /** Whether the vectors have the 8 lanes these transposes are written for. */
                    static final boolean APPLIES = FLOATS.length() == 8;
                    private static final VectorShuffle<Float> SWAP2 = APPLIES ? VectorShuffle.fromOp(FLOATS, k -> k ^ 2) : null;
                    private static final VectorShuffle<Float> SWAP4 = APPLIES ? VectorShuffle.fromOp(FLOATS, k -> k ^ 4) : null;
                    /** Round 1's halves of a 64-bit lane: the even lane's bits and the odd lane's. */
                    private static final long LOW = 0xffff_ffffL;
                    private static final long HIGH = ~LOW;
                    private static final VectorMask<Float> BIT2 = APPLIES ? VectorMask.fromLong(FLOATS, 0b11001100) : null;
                    private static final VectorMask<Float> BIT4 = APPLIES ? VectorMask.fromLong(FLOATS, 0b11110000) : null;
                    /** Whether the vectors have the 16 lanes of the 16 × 16 transposes. */
                    static final boolean APPLIES16 = FLOATS.length() == 16;
                    /** A zip's lane k takes lane from + k/2 of the first vector (k even) or of the second (k odd). */
                    private static final FloatVector ZIP_LOW = APPLIES16 ? zip(0) : null;
                    private static final FloatVector ZIP_HIGH = APPLIES16 ? zip(8) : null;

                    private RowTransposes() {}

                    private static FloatVector zip(int from) {
                        float[] index = new float[16];
                        for (int k = 0; k < 16; k++) {
                            index[k] = from + k / 2 + (k % 2 == 0 ? 0 : 16);
                        }
                        return FloatVector.fromArray(FLOATS, index, 0);
                    }
                """);
        for (Kind k : KINDS) {
            if (k.toLanes() != null) {
                s.append(toLanes(k));
            }
            if (k.store() != null) {
                s.append(fromLanes(k));
            }
        }
        s.append(transpose16("transpose16", "float[] src, int srcAt, int srcStride, float[] dst, int dstAt, int dstStride",
                "A 16 × 16 transpose of floats in arrays, row l from {@code srcAt + l·srcStride} to column l from"
                        + " {@code dstAt + l·dstStride}",
                "FloatVector r%1$d = FloatVector.fromArray(FLOATS, src, srcAt + %1$d * srcStride);\n",
                "d%1$d.intoArray(dst, dstAt + %1$d * dstStride);\n"));
        s.append(transpose16("toLanes16Float", "MemorySegment rows, long[] starts, long from, float[] lanes, int at",
                "16 positions of 16 FLOAT rows of a tensor, row l from element {@code starts[l] + from}, into the"
                        + " lanes at {@code at}",
                "FloatVector r%1$d = FloatVector.fromMemorySegment(FLOATS, rows, (starts[%1$d] + from) * Float.BYTES,"
                        + " ORDER);\n",
                "d%1$d.intoArray(lanes, at + %1$d * 16);\n"));
        s.append(transpose16("fromLanes16Float", "float[] lanes, int at, MemorySegment rows, long[] starts, long from",
                "The inverse of {@link #toLanes16Float}: 16 positions of the lanes at {@code at} into the 16 rows",
                "FloatVector r%1$d = FloatVector.fromArray(FLOATS, lanes, at + %1$d * 16);\n",
                "d%1$d.intoMemorySegment(rows, (starts[%1$d] + from) * Float.BYTES, ORDER);\n"));
        s.append(transpose16("toPairs16Bf16", "MemorySegment rows, long[] starts, long from, float[] pairs, int at",
                "32 positions of 16 BF16 rows of a tensor, row l from element {@code starts[l] + from}, as 16 pairs"
                        + " of positions into {@code pairs} at {@code at}: lane l of vector m holds row l's positions"
                        + " 2m (low half, little-endian) and 2m + 1 (high half), widened by"
                        + " {@link VectorTransposes#unpackBf16}",
                "FloatVector r%1$d = FloatVector.fromMemorySegment(FLOATS, rows, (starts[%1$d] + from) * 2, ORDER);\n",
                "d%1$d.intoArray(pairs, at + %1$d * 16);\n"));
        s.append(transpose16("fromPairs16Bf16", "float[] pairs, int at, MemorySegment rows, long[] starts, long from",
                "The inverse of {@link #toPairs16Bf16}: 16 pairs of rounded positions ({@link"
                        + " VectorTransposes#packBf16}) into the 16 rows",
                "FloatVector r%1$d = FloatVector.fromArray(FLOATS, pairs, at + %1$d * 16);\n",
                "d%1$d.intoMemorySegment(rows, (starts[%1$d] + from) * 2, ORDER);\n"));
        return SegmentTwins.apply(s.append("}\n").toString());
    }

    private static String toLanes(Kind k) {
        StringBuilder m = new StringBuilder("""

                    /**
                     * {@code count} positions (a multiple of 8) of 8 %1$s,
                     * into the lanes%4$s.
                     */
                    static void toLanes%2$s(%3$s, int count, float[] lanes,
                            int at) {
                        for (int c = 0; c < count; c += %5$d) {
                """.formatted(k.name(), k.suffix(), k.rows(), k.step() == 8 ? "" : ", as pairs of positions in the"
                        + " slots of their even positions (the odd ones untouched); the rows hold 16 positions from each"
                        + " block of 16 started", k.step()));
        for (int r = 0; r < 8; r++) {
            m.append(k.load().formatted(r, k.at().formatted(r)).indent(12));
        }
        m.append(TRANSPOSE.indent(12));
        for (int r = 0; r < 8; r++) {
            if (k.step() == 16 && r == 4) {
                // A last half block (count an odd multiple of 8) reads 16 positions and stores its first 8.
                m.append("if (c + 8 < count) {\n".indent(12));
            }
            m.append(k.toLanes().formatted(r).indent(k.step() == 16 && r >= 4 ? 16 : 12));
        }
        if (k.step() == 16) {
            m.append("}\n".indent(12));
        }
        return m.append("""
                        }
                    }
                """).toString();
    }

    private static String fromLanes(Kind k) {
        StringBuilder m = new StringBuilder("""

                    /**
                     * %5$s{@code count} positions (a multiple of %4$d) of the lanes
                     * into 8 %1$s%6$s.
                     */
                    static void fromLanes%2$s(float[] lanes, int at, int count,
                            %3$s) {
                        for (int c = 0; c < count; c += %4$d) {
                """.formatted(k.name(), k.suffix(), k.rows(), k.step(),
                k.toLanes() == null ? "" : "The inverse of {@link #toLanes%s}: ".formatted(k.suffix()),
                k.before().isEmpty() ? "" : ", each block's positions rounded and packed in pairs of positions into"
                        + " {@code pairs} first ({@link VectorTransposes#packBf16})"));
        m.append(k.before().indent(12));
        for (int r = 0; r < 8; r++) {
            m.append(k.fromLanes().formatted(r).indent(12));
        }
        m.append(TRANSPOSE.indent(12));
        m.append("FloatVector s;\n".indent(12));
        for (int r = 0; r < 8; r++) {
            m.append("s = c%d;\n".formatted(r).indent(12));
            m.append(k.store().formatted(k.at().formatted(r)).indent(12));
        }
        return m.append("""
                        }
                    }
                """).toString();
    }

    /**
     * A 16 × 16 transpose of one block, by four rounds of zips on locals: round after round, rows k and k + 8 become
     * rows 2k and 2k + 1 by interleaving their low halves and their high halves (one two-source permute each); after
     * four rounds row m holds column m. The rows move as floats whatever they hold (BF16 pairs too): a permute of
     * floats moves their bits, the loads give their permutes and the permutes their stores a vector of exact class
     * (no cast, see ExactVectors), and no lane changes type. One block a call, no loop: C1 cannot compile a larger
     * method of these (out of virtual registers), and a method C1 gives up on never reaches C2.
     */
    private static String transpose16(String name, String params, String doc, String load, String store) {
        StringBuilder m = new StringBuilder("""

                    /** %s; only at 16 lanes. */
                    static void %s(%s) {
                """.formatted(doc, name, params));
        for (int r = 0; r < 16; r++) {
            m.append(load.formatted(r).indent(8));
        }
        String[] from = {"r", "a", "b", "c"};
        String[] to = {"a", "b", "c", "d"};
        for (int round = 0; round < 4; round++) {
            for (int k = 0; k < 8; k++) {
                m.append("FloatVector %1$s%2$d = ZIP_LOW.selectFrom(%3$s%4$d, %3$s%5$d);\n"
                        .formatted(to[round], 2 * k, from[round], k, k + 8).indent(8));
                m.append("FloatVector %1$s%2$d = ZIP_HIGH.selectFrom(%3$s%4$d, %3$s%5$d);\n"
                        .formatted(to[round], 2 * k + 1, from[round], k, k + 8).indent(8));
            }
        }
        for (int r = 0; r < 16; r++) {
            m.append(store.formatted(r).indent(8));
        }
        return m.append("    }\n").toString();
    }

    /** Rows r0..r7 to columns c0..c7, by block swaps of 4, 2 and 1 lanes (the last by shifts of 64-bit lanes). */
    private static final String TRANSPOSE = """
            FloatVector a0 = r0.blend(r4.rearrange(SWAP4), BIT4);
            FloatVector a4 = r0.rearrange(SWAP4).blend(r4, BIT4);
            FloatVector a1 = r1.blend(r5.rearrange(SWAP4), BIT4);
            FloatVector a5 = r1.rearrange(SWAP4).blend(r5, BIT4);
            FloatVector a2 = r2.blend(r6.rearrange(SWAP4), BIT4);
            FloatVector a6 = r2.rearrange(SWAP4).blend(r6, BIT4);
            FloatVector a3 = r3.blend(r7.rearrange(SWAP4), BIT4);
            FloatVector a7 = r3.rearrange(SWAP4).blend(r7, BIT4);
            FloatVector b0 = a0.blend(a2.rearrange(SWAP2), BIT2);
            FloatVector b2 = a0.rearrange(SWAP2).blend(a2, BIT2);
            FloatVector b1 = a1.blend(a3.rearrange(SWAP2), BIT2);
            FloatVector b3 = a1.rearrange(SWAP2).blend(a3, BIT2);
            FloatVector b4 = a4.blend(a6.rearrange(SWAP2), BIT2);
            FloatVector b6 = a4.rearrange(SWAP2).blend(a6, BIT2);
            FloatVector b5 = a5.blend(a7.rearrange(SWAP2), BIT2);
            FloatVector b7 = a5.rearrange(SWAP2).blend(a7, BIT2);
            LongVector e0 = LONG_VECTOR.cast((LongVector) b0.reinterpretShape(LONGS, 0));
            LongVector e1 = LONG_VECTOR.cast((LongVector) b1.reinterpretShape(LONGS, 0));
            LongVector e2 = LONG_VECTOR.cast((LongVector) b2.reinterpretShape(LONGS, 0));
            LongVector e3 = LONG_VECTOR.cast((LongVector) b3.reinterpretShape(LONGS, 0));
            LongVector e4 = LONG_VECTOR.cast((LongVector) b4.reinterpretShape(LONGS, 0));
            LongVector e5 = LONG_VECTOR.cast((LongVector) b5.reinterpretShape(LONGS, 0));
            LongVector e6 = LONG_VECTOR.cast((LongVector) b6.reinterpretShape(LONGS, 0));
            LongVector e7 = LONG_VECTOR.cast((LongVector) b7.reinterpretShape(LONGS, 0));
            FloatVector c0 = FLOAT_VECTOR.cast((FloatVector) e0.and(LOW).or(e1.lanewise(VectorOperators.LSHL, 32))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c1 = FLOAT_VECTOR.cast((FloatVector) e0.lanewise(VectorOperators.LSHR, 32).or(e1.and(HIGH))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c2 = FLOAT_VECTOR.cast((FloatVector) e2.and(LOW).or(e3.lanewise(VectorOperators.LSHL, 32))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c3 = FLOAT_VECTOR.cast((FloatVector) e2.lanewise(VectorOperators.LSHR, 32).or(e3.and(HIGH))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c4 = FLOAT_VECTOR.cast((FloatVector) e4.and(LOW).or(e5.lanewise(VectorOperators.LSHL, 32))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c5 = FLOAT_VECTOR.cast((FloatVector) e4.lanewise(VectorOperators.LSHR, 32).or(e5.and(HIGH))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c6 = FLOAT_VECTOR.cast((FloatVector) e6.and(LOW).or(e7.lanewise(VectorOperators.LSHL, 32))
                    .reinterpretShape(FLOATS, 0));
            FloatVector c7 = FLOAT_VECTOR.cast((FloatVector) e6.lanewise(VectorOperators.LSHR, 32).or(e7.and(HIGH))
                    .reinterpretShape(FLOATS, 0));
            """;
}
