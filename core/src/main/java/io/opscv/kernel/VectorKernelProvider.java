package io.opscv.kernel;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API ({@code jdk.incubator.vector}) implementation of {@link KernelProvider}, loaded
 * reflectively by {@link KernelProviders}; bit-identical to {@link ScalarKernelProvider} (every
 * output is the same float products added in the same order, without fused multiply-add).
 *
 * <p>Implementation overview. The backward has three vector forms, chosen per call:
 * <ul>
 *   <li><b>windowed</b> (Lout ≤ 2·Lin, at every vector width from 128 bits: FLOAT always; FP16/BF16
 *       when upsampling, or downsampling with fewer than 16 rows or below 512 bits): one lane per
 *       input. The right-tap terms of L neighbouring inputs (L lanes: 16 at 512 bits) lie within 2L
 *       positions, as do their left-tap terms; the products {@code P1 = w1·g}, {@code P0 = w0·g} of
 *       each window are formed in two vectors, and step k hands every lane its k-th term with one
 *       two-source permute (unrolled when no lane has more than two terms per tap). FLOAT and BF16
 *       rows (at any ratio up to 2×, downsampling included) are read from and written to device
 *       memory in place, 4 rows at a time.</li>
 *   <li><b>wide windowed</b> (FLOAT in place, 2·Lin &lt; Lout ≤ 4·Lin): as the windowed form, with
 *       each tap's terms of a group within four vectors of products, picked by two permutes and a
 *       blend per step; a group of fewer than L inputs is masked, so short rows take it too. Groups
 *       whose terms lie within four vectors of gradOut (ratios up to about 3.75) take a table of steps
 *       per group and call instead, each row's vectors split into even and odd positions, one permute
 *       per term, four rows at a time.</li>
 *   <li><b>short rows</b> (FLOAT in place, 8 or more rows of at most L inputs per call, ratios up to 4):
 *       a table of steps made once per call; per row, each step selects every lane's next term from the
 *       row's vectors (split first into even and odd positions when they are three or four), then one
 *       multiply and one masked add; four rows at a time.</li>
 *   <li><b>tiles</b> (512 bits only; other ratios, 16 rows or more; and any ratio when gradOut's rows
 *       lie side by side, a transposed view): one lane per row. A 16 × 16 register transpose turns 16 rows of
 *       gradOut into one vector per position (a transposed view is already position-major and
 *       needs none); every term is then a vector times a broadcast weight, and the sums are
 *       transposed back.</li>
 *   <li><b>gather</b> (the rows left over by tiles): one lane per input, each step gathering every
 *       lane's k-th term from the products. Vector gathers are slow on this hardware (about 12 ns
 *       per 16 lanes), so this form only serves those few rows.</li>
 * </ul>
 * In every form a lane adds its terms in ascending j from 0f (right taps, then left taps): the
 * canonical order. Lanes with fewer terms than the step are masked out, or add a +0f (a sum that
 * starts at +0f is never -0f under round-to-nearest, so adding +0f changes nothing); no 0·x
 * product is ever formed for a missing term (0·Inf would be NaN). The last input of a row (both
 * taps of the rightmost outputs land on it: per output, its left-tap term, then its right-tap term)
 * is summed in its group by the wide form, and by a scalar loop in the others; groups that do not
 * fit a form go through the scalar reference. BF16 is converted in registers; FP16 in registers
 * in place, and through the reference loops in the buffered forms, which the JIT compiles to
 * {@code vcvtph2ps}/{@code vcvtps2ph}. The table's coordinates are filled in {@code DoubleVector}s
 * without shape-changing conversions ({@link #fillTaps}) and its bounds found by compressing the
 * outputs where the tap steps up ({@link #firstReaching}).
 */
final class VectorKernelProvider implements KernelProvider {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    /** As many 16-bit lanes as {@link #FLOATS} has floats, for FP16/BF16 loads and stores. */
    private static final VectorSpecies<Short> HALFS = VectorSpecies.of(short.class,
            VectorShape.forBitSize(LANES * Short.SIZE));
    /** At least as many byte lanes as {@link #FLOATS} has floats (64 bits at least), for {@link WideChunk}'s indices. */
    private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class,
            VectorShape.forBitSize(Math.max(64, LANES * Byte.SIZE)));
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /**
     * The whole address space: the in-place forms read and write {@linkplain PinnedScopes held} memory
     * through it, at raw addresses. A constant segment lets the JIT fold away the per-access checks of
     * bounds, liveness and read-only (a segment argument's are reloaded at every access, never hoisted
     * out of the row loop); {@link #linearBackwardInPlace} checks bounds and liveness once per call.
     */
    private static final MemorySegment RAW = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final KernelProvider SCALAR = new ScalarKernelProvider();
    /** Doubles for the coordinates of {@link #fillTaps}. */
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final int DOUBLE_LANES = DOUBLES.length();
    /** Outputs per slice of {@link #fillTaps}: its per-thread scratch holds the slice's lefts and weights as doubles. */
    private static final int TAP_CHUNK = 1024;
    private static final ThreadLocal<double[][]> TAP_SCRATCH =
            ThreadLocal.withInitial(() -> new double[][] {new double[TAP_CHUNK], new double[TAP_CHUNK]});
    /** Per-thread buffer between the two halves of a 16 × 16 transpose. */
    private static final ThreadLocal<float[]> TRANSPOSE_BUFFER = ThreadLocal.withInitial(() -> new float[16 * 16]);
    /** Rows per tile, inputs per window group; the transposes are written for 16 lanes (512-bit). */
    private static final int TILE = 16;
    private static final boolean TILED = LANES == TILE;
    /** The windowed form works on groups of as many inputs as a vector has lanes, 4 or more (128-bit and up). */
    private static final boolean WINDOWED = LANES >= 4;
    // Index vectors of the 16 × 16 transpose (two-source permutes: 0..15 pick the first source, 16..31 the second).
    private static final IntVector SWAP_LOW_8 = permutation(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    private static final IntVector SWAP_HIGH_8 = permutation(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
    private static final IntVector SWAP_LOW_4 = permutation(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    private static final IntVector SWAP_HIGH_4 = permutation(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    private static final IntVector SWAP_LOW_2 = permutation(0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
    private static final IntVector SWAP_HIGH_2 = permutation(2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
    private static final IntVector SWAP_LOW_1 = permutation(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
    private static final IntVector SWAP_HIGH_1 = permutation(1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);

    /**
     * The 16-bit forms' paired loads ({@link #backwardInPlaceBf16}): an int lane holds the half at the even
     * position in its low 16 bits (little-endian memory).
     */
    private static final boolean PAIRED = ORDER == ByteOrder.LITTLE_ENDIAN;
    /**
     * Bytes from one group's gradOut window to the next in a run of groups whose every tap has two terms (2x
     * upsampling): 2L FLOAT positions. The paired forms step their load addresses by this constant rather than by a
     * value read from the table: with a constant stride the JIT takes the loads' access checks out of the loop (as
     * it did for the stores, whose stride was constant), three instructions per load ({@code bin/bench-ab}, long row
     * ratio medians of 6 rounds: 1.88 → 1.58).
     */
    private static final long FLOAT_PAIR_SHIFT = 8L * LANES;
    /** {@link #FLOAT_PAIR_SHIFT} for BF16 and FP16 positions. */
    private static final long HALF_PAIR_SHIFT = 4L * LANES;
    /**
     * gradOut positions of a row per sub-run of the FLOAT wide form's quads ({@link #wideFours}): each quad of rows
     * goes across about this many positions (2 KiB) of a run of kept-step groups before the next quad does, rather
     * than across the whole run (32 groups at most, up to about 7.5 KiB at 3.7x). In one process against whole runs
     * (`SettingsComparison`, a temporary switch, op ms): up3.7x 4.96 → 4.07 and 5.23 → 4.74; (8, 128, 7000 → 21000)
     * 3.45 → 2.90; (32, 64, 4000 → 10000) 3.10 → 2.86; (64, 64, 2000 → 7000, alignCorners) 4.38 → 3.84; (64, 128,
     * 1000 → 3700) 5.53 → 4.86; irregular upsampling, whose runs are about this long already, (32, 64, 16384 →
     * 19661) 10.26 → 10.11 and (32, 64, 16384 → 30000) 12.74 → 12.84. Sub-runs of 8 groups whatever the ratio made
     * irregular upsampling slower (9.52 → 11.42 at 1.2x); 384 and 768 positions gained less at 3.7x or at 3x. The
     * BF16 and FP16 forms keep whole runs: sub-runs of 2 KiB there gained at 3.7x (BF16 2.83 → 2.67, FP16 3.43 →
     * 3.24) and lost at 2.5x (BF16 2.15 → 2.29) and on irregular and alignCorners FP16 (1–3 %).
     */
    private static final int WIDE_RUN_POSITIONS = 512;
    /** Lane k picks lane 2k (EVEN) or 2k + 1 (ODD) of two concatenated vectors (two-source permutes). */
    private static final IntVector EVEN = IntVector.zero(INTS).addIndex(2);
    private static final IntVector ODD = EVEN.add(1);

    private static IntVector permutation(int... lanes) {
        return TILED ? IntVector.fromArray(INTS, lanes, 0) : null;
    }

    /** Public for reflective loading by {@link KernelProviders}. */
    public VectorKernelProvider() {}

    @Override
    public String name() {
        return "vector-" + FLOATS.vectorBitSize();
    }

    /**
     * Tiles of 16 rows: the transposed block and the transposed sums; the rows left over: per row
     * P1 (span), P0 (span) and one +0f slot. Tiles and leftover rows run one after the other.
     */
    @Override
    public int backwardWorkFloats(int inputs, int span, int rows) {
        int tiled = TILED && rows >= TILE ? Math.multiplyExact(TILE, roundUp(span) + roundUp(inputs)) : 0;
        // A call with fewer rows (the last group of a call) may leave up to TILE - 1 rows over.
        int leftover = TILED ? Math.min(rows, TILE - 1) : rows;
        return Math.max(tiled, Math.multiplyExact(2 * span + 1, leftover));
    }

    @Override
    public void linearBackward(LinearTable t, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                               float[] acc, int accOffset, int accRowStride, float[] work) {
        // Buffered, downsampling with enough rows: tiles are cheaper per element (see backwardInPlace).
        if (windowed(t) && (!TILED || t.lout() >= t.lin() || rows < TILE)) {
            backwardWindowed(t, i0, i1, rows, g, gOffset, gRowStride, acc, accOffset, accRowStride);
            return;
        }
        int r = 0;
        if (TILED) {
            for (; r + TILE <= rows; r += TILE) {
                backwardTile(t, i0, i1, g, gOffset + r * gRowStride, gRowStride, acc, accOffset + r * accRowStride,
                        accRowStride, work);
            }
        }
        if (r < rows) {
            backwardGather(t, i0, i1, rows - r, g, gOffset + r * gRowStride, gRowStride, acc, accOffset + r * accRowStride,
                    accRowStride, work);
        }
    }

    /**
     * Whether the windowed form applies: at most two outputs per input on average over the axis (a window's
     * own ratio may be a little more: {@link LinearTable#axisLin}), so that the
     * right-tap (and the left-tap) terms of a vector's worth of neighbouring inputs (16 at 512 bits,
     * 8 at 256, 4 at 128) usually lie within two vectors of positions.
     */
    private static boolean windowed(LinearTable t) {
        return WINDOWED && (long) t.axisLout() <= 2L * t.axisLin();
    }

    /**
     * The windowed form: one lane per input, no gather and no transpose. For a group of L inputs
     * (L lanes, 16 at 512 bits) starting at i, the right-tap terms of every lane lie in the 2L positions
     * from {@code bounds[i]}, the left-tap terms in the 2L from {@code bounds[i + 1]}; the products
     * P1 = w1·g and P0 = w0·g of each window are formed in two vectors each, and step k gives every
     * lane its k-th right-tap term (then its k-th left-tap term) with one two-source permute, added
     * under the mask of the lanes that have that many terms: per lane, the canonical order. A group
     * whose windows are wider, or that would read past the end of {@code g}, is summed by the scalar
     * reference; so is the last input.
     */
    private static void backwardWindowed(LinearTable t, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                                         float[] acc, int accOffset, int accRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        final int vectorEnd = Math.min(i1, last);
        final int window = 2 * LANES;
        for (int i = i0; i < vectorEnd; i += LANES) {
            int count = Math.min(LANES, vectorEnd - i);
            int rightBase = bounds[i];
            int leftBase = bounds[i + 1];
            int lastRow = gOffset + (rows - 1) * gRowStride - jLo;
            if (bounds[i + count] - rightBase > window || bounds[i + count + 1] - leftBase > window
                    || lastRow + Math.max(rightBase, leftBase) + window > g.length) {
                SCALAR.linearBackward(t, i, i + count, rows, g, gOffset + t.gatherFrom(i) - jLo, gRowStride, acc,
                        accOffset + i - i0, accRowStride, null);
                continue;
            }
            VectorMask<Integer> inputs = INTS.indexInRange(0, count);
            IntVector from = IntVector.fromArray(INTS, bounds, i, inputs);
            IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1, inputs);
            IntVector to = IntVector.fromArray(INTS, bounds, i + 2, inputs);
            IntVector rightCount = leftFrom.sub(from);
            IntVector leftCount = to.sub(leftFrom);
            int rightSteps = rightCount.reduceLanes(VectorOperators.MAX);
            int leftSteps = leftCount.reduceLanes(VectorOperators.MAX);
            IntVector rightIndex = from.sub(rightBase);
            IntVector leftIndex = leftFrom.sub(leftBase);
            FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rightBase);
            FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rightBase + LANES);
            FloatVector w0a = FloatVector.fromArray(FLOATS, w0, leftBase);
            FloatVector w0b = FloatVector.fromArray(FLOATS, w0, leftBase + LANES);
            VectorMask<Float> store = inputs.cast(FLOATS);
            if (rightSteps <= 2 && leftSteps <= 2) {
                // At most two terms per tap: the steps unrolled, indices and masks set up once for all rows (as
                // in linearBackwardInPlace); a step that no lane has adds under an empty mask.
                IntVector right1 = rightIndex.add(1);
                IntVector left1 = leftIndex.add(1);
                VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                VectorMask<Float> hasRight1 = rightCount.compare(VectorOperators.GT, 1).cast(FLOATS);
                VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                VectorMask<Float> hasLeft1 = leftCount.compare(VectorOperators.GT, 1).cast(FLOATS);
                for (int r = 0; r < rows; r++) {
                    int row = gOffset + r * gRowStride - jLo;
                    IntVector p1a = FloatVector.fromArray(FLOATS, g, row + rightBase).mul(w1a).reinterpretAsInts();
                    IntVector p1b = FloatVector.fromArray(FLOATS, g, row + rightBase + LANES).mul(w1b)
                            .reinterpretAsInts();
                    IntVector p0a = FloatVector.fromArray(FLOATS, g, row + leftBase).mul(w0a).reinterpretAsInts();
                    IntVector p0b = FloatVector.fromArray(FLOATS, g, row + leftBase + LANES).mul(w0b)
                            .reinterpretAsInts();
                    FloatVector sum = FloatVector.zero(FLOATS)
                            .add(rightIndex.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight0)
                            .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight1)
                            .add(leftIndex.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft0)
                            .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft1);
                    int a = accOffset + r * accRowStride + i - i0;
                    if (count == LANES) {
                        sum.intoArray(acc, a);
                    } else {
                        sum.intoArray(acc, a, store);
                    }
                }
                continue;
            }
            for (int r = 0; r < rows; r++) {
                int row = gOffset + r * gRowStride - jLo;
                IntVector p1a = FloatVector.fromArray(FLOATS, g, row + rightBase).mul(w1a).reinterpretAsInts();
                IntVector p1b = FloatVector.fromArray(FLOATS, g, row + rightBase + LANES).mul(w1b).reinterpretAsInts();
                IntVector p0a = FloatVector.fromArray(FLOATS, g, row + leftBase).mul(w0a).reinterpretAsInts();
                IntVector p0b = FloatVector.fromArray(FLOATS, g, row + leftBase + LANES).mul(w0b).reinterpretAsInts();
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int k = 0; k < rightSteps; k++) {
                    FloatVector term = rightIndex.add(k).selectFrom(p1a, p1b).reinterpretAsFloats();
                    sum = sum.add(term, rightCount.compare(VectorOperators.GT, k).cast(FLOATS));
                }
                for (int k = 0; k < leftSteps; k++) {
                    FloatVector term = leftIndex.add(k).selectFrom(p0a, p0b).reinterpretAsFloats();
                    sum = sum.add(term, leftCount.compare(VectorOperators.GT, k).cast(FLOATS));
                }
                int a = accOffset + r * accRowStride + i - i0;
                if (count == LANES) {
                    sum.intoArray(acc, a);
                } else {
                    sum.intoArray(acc, a, store);
                }
            }
        }
        if (last >= i0 && last < i1) {
            SCALAR.linearBackward(t, last, last + 1, rows, g, gOffset + t.gatherFrom(last) - jLo, gRowStride, acc,
                    accOffset + last - i0, accRowStride, null);
        }
    }

    /**
     * FLOAT rows are read and written in place whenever the windowed form applies
     * ({@link #windowed}), downsampling included, and at ratios between 2 and 4 ({@link #wide}): in
     * place saves the buffered form's two extra passes over the data, and the wide form the tiles'
     * transposes (up3.7x: 1.2 ns per element of out in place, 2.0 in tiles, in cache). BF16 rows in the
     * windowed form too, in a method of their own ({@link #backwardInPlaceBf16}) that widens and
     * rounds in registers, and FP16 rows likewise ({@link #backwardInPlaceHalf}, with bit operations:
     * the Vector API has no FP16 conversion, and the scalar ones inlined here made the FLOAT method
     * much slower, 25 ns per input instead of 0.9). On periodic tables ({@link LinearTable#period}) the
     * windowed forms set a group up once for its whole run of translated groups ({@link #regularRunEnd}).
     * A call of {@link #SHORT_MIN_ROWS} or more FLOAT rows of at most L inputs (short rows) takes a table of
     * steps made once per call ({@link #backwardInPlaceShort}), at any ratio up to 4. Every dtype in place at
     * exactly 4x and 8x ({@link #fourfoldRun}, {@link #eightfold}) on rows of more than two groups.
     */
    @Override
    public boolean backwardInPlace(LinearTable table, DataType type) {
        // BF16 and FP16 at ratios between 2 and 4 only on rows with whole groups (the others would all go through
        // the buffered form, one row at a time).
        return (type == DataType.FLOAT && (windowed(table) || wide(table)))
                || ((type == DataType.BF16 || type == DataType.FLOAT16)
                && (windowed(table) || (wide(table) && table.lin() > 2 * LANES)))
                || (eightfold(table) && table.lin() > 2 * LANES);
    }

    /**
     * What the segments' own checks would ensure at every access, once per call: both native and
     * {@linkplain PinnedScopes#isHeld held} (alive for the call), out's rows inside out, and gradOut's
     * rows starting inside gradOut (each group checks that its windows end inside it, or takes the
     * buffered form).
     */
    private static void checkRawAccess(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                       long gRowStride, MemorySegment out, long oFirst, long oRowStride, DataType type) {
        if (!PinnedScopes.isHeld(gradOut) || !PinnedScopes.isHeld(out)) {
            throw new IllegalStateException("The in-place backward needs native memory held for the call (PinnedScopes)");
        }
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("out is read-only");
        }
        int size = type.byteSize();
        if (rows < 1 || i0 < 0 || i1 <= i0 || i1 > t.lin() || gRowStride < 0 || oRowStride < 0) {
            throw new IllegalArgumentException("rows " + rows + ", inputs [" + i0 + ", " + i1 + "), row strides "
                    + gRowStride + " and " + oRowStride);
        }
        Objects.checkFromIndexSize(oFirst, (rows - 1) * oRowStride + (i1 - i0), out.byteSize() / size);
        Objects.checkFromIndexSize(gFirst, (rows - 1) * gRowStride + 1, gradOut.byteSize() / size);
    }

    /**
     * Few rows per call for the windowed forms where a group's set-up is light or shared: FLOAT
     * downsampling (one vector of gradOut per row and group), periodic tables (a run of groups shares
     * one set-up), and FLOAT tables whose groups mostly repeat the tap pattern of the group before
     * ({@link #similarRunEnd}). Irregular ratios keep many rows per call: their groups each need a
     * set-up, and with 2 rows per call (32, 64, 16384 ← 19661) took 27–30 ms against 23.5–24 with 6
     * (one thread: 32–35 against 26–27; Zen 5 host, one process alternating the two). Since 2026-12-01
     * (seventh session) irregular FLOAT upsampling takes the wide form with its steps kept with the table
     * ({@link #irregularUpsampling}), in the driver's wide calls: in one process against the windowed form with
     * 6 rows of 4096 inputs, (32, 64, 16384 ← 19661) 2.95 → 2.47 of the copy, (32, 64, 16384 ← 30000) 2.72 →
     * 2.03, (16, 32, 10000 ← 13001, alignCorners) 1.43 → 1.28.
     */
    @Override
    public boolean fewRowsPerCall(LinearTable t, DataType type) {
        if (!windowed(t) || t.isDeferred()) {
            return false;
        }
        if (t.periodInputs() > 0 && LANES % t.periodInputs() == 0) {
            return true;
        }
        return type == DataType.FLOAT && (t.lout() <= t.lin() || mostlySimilar(t));
    }

    /**
     * FLOAT rows of at most L inputs at ratios up to 4: {@link #backwardInPlaceShort} (its step table is made once
     * per call, when its terms fit).
     */
    @Override
    public boolean shortRowsForm(LinearTable t, DataType type) {
        return type == DataType.FLOAT && t.lin() <= LANES && t.lout() <= 4L * t.lin();
    }

    /** Whether at least 9 in 10 of the table's whole groups of L inputs repeat the previous group's tap pattern. */
    private static boolean mostlySimilar(LinearTable t) {
        final int[] bounds = t.bounds;
        int groups = 0;
        int similar = 0;
        for (int i = LANES; i + LANES < t.lin(); i += LANES) {
            groups++;
            if (samePattern(bounds, i - LANES, i)) {
                similar++;
            }
        }
        return groups > 0 && 10L * similar >= 9L * groups;
    }

    /**
     * A table at a ratio between 1 and 2 (the windowed forms' range) that repeats no pattern: neither periodic with
     * a whole number of periods per L inputs nor {@linkplain #mostlySimilar mostly similar}. Its groups each need a
     * set-up in the windowed forms, made in every call; the wide forms ({@link #backwardInPlaceWide} for FLOAT,
     * {@link #backwardInPlaceWide16} for BF16 and FP16) keep their steps with the table instead ({@link WideSteps}),
     * and the driver then takes its rows as the wide form's ({@link #fewRowsPerCall} is false for it). Windows
     * (which keep no steps) stay with the windowed forms.
     */
    private static boolean irregularUpsampling(LinearTable t) {
        if (t.lout() <= t.lin() || (t.periodInputs() > 0 && LANES % t.periodInputs() == 0)) {
            return false;
        }
        WideSteps steps = wideSteps(t);
        return steps != null && steps.irregular;
    }

    /**
     * Exactly 8x (a period of one input and eight outputs, at every dtype): in place as the wide forms, whose runs of
     * unclamped groups take {@link #eightfoldRun} (the row's first and last groups the buffered form).
     */
    private static boolean eightfold(LinearTable t) {
        return WINDOWED && t.periodInputs() == 1 && t.periodOutputs() == 8;
    }

    /** Ratios between 2 and 4: the wide windowed form ({@link #backwardInPlaceWide}). */
    private static boolean wide(LinearTable t) {
        return WINDOWED && (long) t.axisLout() > 2L * t.axisLin() && (long) t.axisLout() <= 4L * t.axisLin();
    }

    @Override
    public void linearBackwardInPlace(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                      long gRowStride, MemorySegment out, long oFirst, long oRowStride, DataType type) {
        checkRawAccess(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride, type);
        if (type == DataType.BF16) {
            if (windowed(t) && !irregularUpsampling(t)) {
                backwardInPlaceBf16(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride);
            } else {
                backwardInPlaceWide16(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride, type);
            }
            return;
        }
        if (type == DataType.FLOAT16) {
            if (windowed(t) && !irregularUpsampling(t)) {
                backwardInPlaceHalf(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride);
            } else {
                backwardInPlaceWide16(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride, type);
            }
            return;
        }
        if (rows >= SHORT_MIN_ROWS && i1 - i0 <= LANES
                && backwardInPlaceShort(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride)) {
            return;
        }
        if (!windowed(t) || irregularUpsampling(t)) {
            backwardInPlaceWide(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride);
            return;
        }
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        // Many rows per call (rows shorter than the driver's blocks): the group with the last input, and groups
        // whose windows do not fit (the first, where the clamped sources give the first inputs a third term), take
        // the short form's step table, made once per call for all the rows, instead of the buffered form row by row;
        // a partial last group is summed as the whole group that ends where it does. One process, op ms: (8, 512,
        // 128 -> 256) 0.410 -> 0.129, (64, 256, 256 -> 512, alignCorners) 2.57 -> 1.44, (16, 256, 1000 -> 2000)
        // 1.25 -> 1.05.
        final boolean steps = rows >= SHORT_MIN_ROWS;
        final boolean lastDone = steps && lastGroup(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst,
                oRowStride, type);
        final int vectorEnd = lastDone ? i1 - LANES : Math.min(i1, last);
        final int window = 2 * LANES;
        final long gEnd = gradOut.byteSize() / type.byteSize();
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        // Runs of groups that are translations of one another (periodic tables): L a whole number of periods.
        final boolean periodic = t.periodInputs() > 0 && LANES % t.periodInputs() == 0;
        final int regularFrom = t.unclampedFrom();
        final int regularTo = t.unclampedTo();
        int retryFrom = i0;
        for (int i = i0; i < vectorEnd; ) {
            int count = Math.min(LANES, vectorEnd - i);
            if (count < LANES && vectorEnd - LANES >= i0) {
                // The last group, partial: the whole group that ends where it does (its first lanes' sums, made
                // again, have the same bits).
                i = vectorEnd - LANES;
                count = LANES;
            }
            int rightBase = bounds[i];
            int leftBase = bounds[i + 1];
            if (count < LANES || bounds[i + count] - rightBase > window || bounds[i + count + 1] - leftBase > window
                    || lastRow + Math.max(rightBase, leftBase) + window > gEnd) {
                if (steps && stepGroup(t, i0, i, i + count, rows, gradOut, gFirst, gRowStride, out, oFirst,
                        oRowStride, type)) {
                    i += count;
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    bufferedInputs(t, i, i + count, gradOut, gFirst + r * gRowStride - jLo, out,
                            oFirst + r * oRowStride + i - i0, type);
                }
                i += count;
                continue;
            }
            int runEnd = periodic ? regularRunEnd(bounds, i, vectorEnd, regularFrom, regularTo, window, lastRow, gEnd)
                    : i + LANES;
            // A run of several groups goes across ROW_BAND rows at a time; a group alone takes all the rows.
            final int band = runEnd - i > LANES ? ROW_BAND : rows;
            IntVector from = IntVector.fromArray(INTS, bounds, i);
            IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
            IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
            IntVector rightCount = leftFrom.sub(from);
            IntVector leftCount = to.sub(leftFrom);
            if (bounds[i + count + 1] - rightBase <= LANES
                    && !rightCount.compare(VectorOperators.GT, 1).or(leftCount.compare(VectorOperators.GT, 1)).anyTrue()) {
                // At most one term per tap and every term within 16 positions (downsampling by 2x or more): one
                // vector of gradOut per row, both products of it, one step per tap. The indices wrap at 32, so
                // lanes without a term may point anywhere: their adds are masked off. (Tested with compares, before
                // the two lane reductions that only the other branches need.)
                IntVector right0 = from.sub(rightBase);
                IntVector left0 = leftFrom.sub(rightBase);
                VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                FloatVector w1r = FloatVector.fromArray(FLOATS, w1, rightBase);
                FloatVector w0r = FloatVector.fromArray(FLOATS, w0, rightBase);
                for (int r0 = 0; r0 < rows; r0 += band) {
                    int r1 = Math.min(rows, r0 + band);
                    for (int k = i; k < runEnd; k += LANES) {
                        int base = bounds[k];
                        for (int r = r0; r < r1; r++) {
                            long right = gAddr + (gFirst + r * gRowStride - jLo + base) * 4;
                            FloatVector v = FloatVector.fromMemorySegment(FLOATS, RAW, right, ORDER);
                            IntVector p1 = v.mul(w1r).reinterpretAsInts();
                            IntVector p0 = v.mul(w0r).reinterpretAsInts();
                            FloatVector sum = FloatVector.zero(FLOATS)
                                    .add(right0.selectFrom(p1, p1).reinterpretAsFloats(), hasRight0)
                                    .add(left0.selectFrom(p0, p0).reinterpretAsFloats(), hasLeft0);
                            sum.intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + k - i0) * 4, ORDER);
                        }
                    }
                }
                i = runEnd;
                continue;
            }
            int rightSteps = rightCount.reduceLanes(VectorOperators.MAX);
            int leftSteps = leftCount.reduceLanes(VectorOperators.MAX);
            IntVector rightIndex = from.sub(rightBase);
            IntVector leftIndex = leftFrom.sub(leftBase);
            FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rightBase);
            FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rightBase + LANES);
            FloatVector w0a = FloatVector.fromArray(FLOATS, w0, leftBase);
            FloatVector w0b = FloatVector.fromArray(FLOATS, w0, leftBase + LANES);
            if (rightSteps <= 2 && leftSteps <= 2) {
                // At most two terms per tap (every ratio up to 2x but the odd alignCorners group): the four
                // steps unrolled, their indices and masks set up once for all rows. A step that no lane has
                // adds under an empty mask, which changes nothing.
                IntVector right0 = rightIndex;
                IntVector right1 = rightIndex.add(1);
                IntVector left0 = leftIndex;
                IntVector left1 = leftIndex.add(1);
                VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                VectorMask<Float> hasRight1 = rightCount.compare(VectorOperators.GT, 1).cast(FLOATS);
                VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
                VectorMask<Float> hasLeft1 = leftCount.compare(VectorOperators.GT, 1).cast(FLOATS);
                // Not periodic: the following groups whose taps repeat this one's pattern (an almost periodic
                // table, as alignCorners makes) share its indices and masks, each with its own weights
                // (similarRunInPlace). Where no group repeats the one before (an irregular ratio), the search
                // pauses for SIMILAR_RETRY groups.
                if (!periodic && i >= retryFrom) {
                    int end = similarRunEnd(t, i, vectorEnd, window, lastRow, gEnd);
                    if (end > i + LANES) {
                        similarRunInPlace(t, i, end, i0, rows, gAddr, gFirst, gRowStride, jLo, oAddr, oFirst,
                                oRowStride);
                        i = end;
                        continue;
                    }
                    retryFrom = i + SIMILAR_RETRY * LANES;
                }
                if (runEnd > i + LANES && !rightCount.compare(VectorOperators.NE, 2)
                        .or(leftCount.compare(VectorOperators.NE, 2)).anyTrue()) {
                    periodicPairsInPlace(t, i, runEnd, i0, rows, gAddr, gFirst, gRowStride, jLo, oAddr, oFirst,
                            oRowStride);
                    i = runEnd;
                    continue;
                }
                for (int r0 = 0; r0 < rows; r0 += band) {
                    int r1 = Math.min(rows, r0 + band);
                    for (int k = i; k < runEnd; k += LANES) {
                        int rb = bounds[k];
                        int lb = bounds[k + 1];
                        for (int r = r0; r < r1; r++) {
                            long row = gFirst + r * gRowStride - jLo;
                            long right = gAddr + (row + rb) * 4;
                            long left = gAddr + (row + lb) * 4;
                            IntVector p1a = FloatVector.fromMemorySegment(FLOATS, RAW, right, ORDER).mul(w1a)
                                    .reinterpretAsInts();
                            IntVector p1b = FloatVector.fromMemorySegment(FLOATS, RAW, right + 4 * LANES, ORDER).mul(w1b)
                                    .reinterpretAsInts();
                            IntVector p0a = FloatVector.fromMemorySegment(FLOATS, RAW, left, ORDER).mul(w0a)
                                    .reinterpretAsInts();
                            IntVector p0b = FloatVector.fromMemorySegment(FLOATS, RAW, left + 4 * LANES, ORDER).mul(w0b)
                                    .reinterpretAsInts();
                            FloatVector sum = FloatVector.zero(FLOATS)
                                    .add(right0.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight0)
                                    .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight1)
                                    .add(left0.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft0)
                                    .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft1);
                            sum.intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + k - i0) * 4, ORDER);
                        }
                    }
                }
                i = runEnd;
                continue;
            }
            for (int r0 = 0; r0 < rows; r0 += band) {
                int r1 = Math.min(rows, r0 + band);
                for (int k = i; k < runEnd; k += LANES) {
                    int rb = bounds[k];
                    int lb = bounds[k + 1];
                    for (int r = r0; r < r1; r++) {
                        long row = gFirst + r * gRowStride - jLo;
                        long right = gAddr + (row + rb) * 4;
                        long left = gAddr + (row + lb) * 4;
                        IntVector p1a = FloatVector.fromMemorySegment(FLOATS, RAW, right, ORDER).mul(w1a).reinterpretAsInts();
                        IntVector p1b = FloatVector.fromMemorySegment(FLOATS, RAW, right + 4 * LANES, ORDER).mul(w1b)
                                .reinterpretAsInts();
                        IntVector p0a = FloatVector.fromMemorySegment(FLOATS, RAW, left, ORDER).mul(w0a).reinterpretAsInts();
                        IntVector p0b = FloatVector.fromMemorySegment(FLOATS, RAW, left + 4 * LANES, ORDER).mul(w0b)
                                .reinterpretAsInts();
                        FloatVector sum = FloatVector.zero(FLOATS);
                        for (int step = 0; step < rightSteps; step++) {
                            FloatVector term = rightIndex.add(step).selectFrom(p1a, p1b).reinterpretAsFloats();
                            sum = sum.add(term, rightCount.compare(VectorOperators.GT, step).cast(FLOATS));
                        }
                        for (int step = 0; step < leftSteps; step++) {
                            FloatVector term = leftIndex.add(step).selectFrom(p0a, p0b).reinterpretAsFloats();
                            sum = sum.add(term, leftCount.compare(VectorOperators.GT, step).cast(FLOATS));
                        }
                        sum.intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + k - i0) * 4, ORDER);
                    }
                }
            }
            i = runEnd;
        }
        if (!lastDone && last >= i0 && last < i1) {
            for (int r = 0; r < rows; r++) {
                lastInput(t, gradOut, gFirst + r * gRowStride - jLo, out, oFirst + r * oRowStride + last - i0);
            }
        }
    }

    /**
     * Rows per pass of the FLOAT windowed form's loops over a run of groups (a periodic table's), which before took
     * each group across all the call's rows: with many short rows per call (the driver's rows shorter than its
     * blocks), row strides of a power of two put every row's window in the same few sets of the L1. One process,
     * 2, 4, 8 rows against all, op ms: (64, 256, 512 -> 256) 1.30, 1.14, 1.30 against 1.53-1.64; (64, 256, 2048 ->
     * 1024) 4.73, 4.93, 4.77 against 6.5-7.5. A group alone (an irregular table) keeps all the rows: 4 rows per pass
     * made (64, 256, 512 -> 170) 1.4x slower.
     */
    static final int ROW_BAND = 4;
    /** Rows per call from which a group of at most L inputs takes {@link #backwardInPlaceShort}: its table is per call. */
    static final int SHORT_MIN_ROWS = 8;
    /** Rows per pass of {@link #edgeGroup16}: bounds its scratch. */
    private static final int EDGE_ROWS = 64;
    /** Per thread: {@link #edgeGroup16}'s native scratch, [0] gradOut's spans and [1] the sums, grown on demand. */
    private static final ThreadLocal<MemorySegment[]> EDGE_SCRATCH = ThreadLocal.withInitial(() -> new MemorySegment[2]);
    /** Per thread: {@link #edgeGroup16}'s heap side of the same. */
    private static final ThreadLocal<float[][]> EDGE_ARRAYS = ThreadLocal.withInitial(() -> new float[2][0]);

    /**
     * Inputs {@code [g0, g1)} (at most L, the last input allowed) of BF16 or FP16 rows whose windows the 16-bit
     * windowed forms do not take (the first group, where the clamped sources give the first inputs a third term;
     * the group with the last input): each row's span widened into FLOAT scratch, summed there by
     * {@link #backwardInPlaceShort}'s step table (made once per pass of {@link #EDGE_ROWS} rows, not per row), and
     * rounded back, as the buffered form would, bit for bit. {@code gFirst} is row 0's element of gradOut position
     * {@code t.gatherFrom(g0)}, {@code oFirst} its element of out for input g0. False, having done nothing, where the
     * step table does not take the group.
     */
    private static boolean edgeGroup16(LinearTable t, int g0, int g1, int rows, MemorySegment gradOut, long gFirst,
                                       long gRowStride, MemorySegment out, long oFirst, long oRowStride, DataType type) {
        if (t.bounds[g1 + 1] - t.bounds[g0] > 4 * LANES) {
            // More than the short form takes (it would say so only after the rows were widened).
            return false;
        }
        final int jLo = t.gatherFrom(g0);
        final int span = t.gatherTo(g1) - jLo;
        final int count = g1 - g0;
        // Room for the short form's whole vectors (at most four from bounds[g0], which is at least jLo).
        final int stride = span + t.bounds[g0] - jLo + 4 * LANES;
        final int chunk = Math.min(rows, EDGE_ROWS);
        MemorySegment[] scratch = EDGE_SCRATCH.get();
        float[][] arrays = EDGE_ARRAYS.get();
        if (arrays[0].length < chunk * stride) {
            // Room for twice this stride: the next edge's span is most often no wider.
            arrays[0] = new float[2 * EDGE_ROWS * stride];
            scratch[0] = Arena.ofAuto().allocate(4L * arrays[0].length, 64);
        }
        if (arrays[1].length < chunk * LANES) {
            arrays[1] = new float[EDGE_ROWS * LANES];
            scratch[1] = Arena.ofAuto().allocate(4L * arrays[1].length, 64);
        }
        final MemorySegment g = scratch[0];
        final MemorySegment o = scratch[1];
        final float[] ga = arrays[0];
        final float[] oa = arrays[1];
        for (int r0 = 0; r0 < rows; r0 += chunk) {
            int n = Math.min(chunk, rows - r0);
            for (int r = 0; r < n; r++) {
                ElementCodec.decode(gradOut, type, gFirst + (r0 + r) * gRowStride, 1, span, ga, r * stride);
            }
            MemorySegment.copy(ga, 0, g, ValueLayout.JAVA_FLOAT, 0, n * stride);
            if (!backwardInPlaceShort(t, g0, g1, n, g, 0, stride, o, 0, LANES)) {
                return false;
            }
            MemorySegment.copy(o, ValueLayout.JAVA_FLOAT, 0, oa, 0, n * LANES);
            for (int r = 0; r < n; r++) {
                ElementCodec.encode(oa, r * LANES, count, out, type, oFirst + (r0 + r) * oRowStride, 1);
            }
        }
        return true;
    }

    /**
     * Inputs {@code [g0, g1)} (at most L, the last input allowed) of a windowed call's rows by the short form's step
     * table, made once for all the rows: in place for FLOAT ({@link #backwardInPlaceShort}), through FLOAT scratch for
     * BF16 and FP16 ({@link #edgeGroup16}). {@code gFirst} and {@code oFirst} as the windowed forms' (row 0's elements
     * of gradOut position {@code t.gatherFrom(i0)} and of out for input i0). False, having done nothing, where the
     * step table does not take the group.
     */
    private static boolean stepGroup(LinearTable t, int i0, int g0, int g1, int rows, MemorySegment gradOut, long gFirst,
                                     long gRowStride, MemorySegment out, long oFirst, long oRowStride, DataType type) {
        long g = gFirst - t.gatherFrom(i0) + t.gatherFrom(g0);
        long o = oFirst + g0 - i0;
        return type == DataType.FLOAT ? backwardInPlaceShort(t, g0, g1, rows, gradOut, g, gRowStride, out, o, oRowStride)
                : edgeGroup16(t, g0, g1, rows, gradOut, g, gRowStride, out, o, oRowStride, type);
    }

    /**
     * The last L inputs of a windowed call that ends at the row's last input, by {@link #stepGroup}. False, having
     * done nothing, where the call does not end there, has fewer inputs, or the step table does not take them.
     */
    private static boolean lastGroup(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                     long gRowStride, MemorySegment out, long oFirst, long oRowStride, DataType type) {
        int from = i1 - LANES;
        return i1 == t.lin() && from >= i0
                && stepGroup(t, i0, from, i1, rows, gradOut, gFirst, gRowStride, out, oFirst, oRowStride, type);
    }

    /** The most terms a lane may have for {@link #backwardInPlaceShort} (steps per row). */
    private static final int SHORT_MAX_STEPS = 16;
    /** Per thread: the step table of {@link #backwardInPlaceShort} (gradOut positions, -1 for none) and its weights. */
    private static final ThreadLocal<int[]> SHORT_INDEX = ThreadLocal.withInitial(() -> new int[SHORT_MAX_STEPS * LANES]);
    private static final ThreadLocal<float[]> SHORT_WEIGHT =
            ThreadLocal.withInitial(() -> new float[SHORT_MAX_STEPS * LANES]);

    /**
     * FLOAT rows of one group of at most L inputs (a short row: 16 → 64 is one group per row) whose terms
     * lie within 4L positions: every lane's terms, in the reference's order, are written once per call as
     * a table of steps (step k: each lane's k-th term's position and weight; the last input's left-tap
     * positions twice, left weight then right), and each row then costs, per step, the selection of that
     * step's positions from the row's vectors, one multiply and one masked add: no per-row index arithmetic
     * and no products of positions a lane does not use. Terms within two vectors take one permute per step;
     * within three or four, {@link #shortByParity}. Rows go four at a time (then one by one): a row's sum is
     * a chain of as many dependent adds as steps (10 at 16 → 64), and with two rows per pass the form waited
     * on those chains (in cache, one process: 1024 rows of 16 → 32 took 7.4 µs one by one, 3.4 four at a
     * time; 16 → 64 8.1 µs in pairs, 6.1 four at a time with {@link #shortByParity}). Returns false, having
     * done nothing, when the group does not fit (too many terms per lane, terms beyond 4L positions, or
     * windows that would read past gradOut's end for the last row).
     */
    private static boolean backwardInPlaceShort(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut,
                                                long gFirst, long gRowStride, MemorySegment out, long oFirst,
                                                long oRowStride) {
        final int[] bounds = t.bounds;
        final int last = t.lin() - 1;
        final int count = i1 - i0;
        final int base = bounds[i0];
        final int span = bounds[i1 + 1] - base;
        final int vectors = (span + LANES - 1) / LANES;
        final int jLo = t.gatherFrom(i0);
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        if (span > 4 * LANES || lastRow + base + (long) vectors * LANES > gradOut.byteSize() / 4) {
            return false;
        }
        int steps = 0;
        for (int i = i0; i < i1; i++) {
            int left = bounds[i + 2] - bounds[i + 1];
            steps = Math.max(steps, bounds[i + 1] - bounds[i] + (i == last ? 2 * left : left));
        }
        if (steps > SHORT_MAX_STEPS) {
            return false;
        }
        final int[] index = SHORT_INDEX.get();
        final float[] weight = SHORT_WEIGHT.get();
        // A lane without a k-th term keeps -1 there, which masks its add off (its weight is never used).
        Arrays.fill(index, 0, steps * LANES, -1);
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        for (int lane = 0; lane < count; lane++) {
            int i = i0 + lane;
            int k = 0;
            for (int j = bounds[i]; j < bounds[i + 1]; j++, k++) {
                index[k * LANES + lane] = j - base;
                weight[k * LANES + lane] = w1[j];
            }
            for (int j = bounds[i + 1]; j < bounds[i + 2]; j++, k++) {
                index[k * LANES + lane] = j - base;
                weight[k * LANES + lane] = w0[j];
                if (i == last) {
                    k++;
                    index[k * LANES + lane] = j - base;
                    weight[k * LANES + lane] = w1[j];
                }
            }
        }
        final long gAddr = gradOut.address() + 4L * (gFirst - jLo + base);
        final long oAddr = out.address() + 4L * oFirst;
        final VectorMask<Float> store = FLOATS.indexInRange(0, count);
        final boolean whole = count == LANES;
        if (vectors > 2) {
            shortByParity(index, weight, steps, count, rows, gAddr, gRowStride, oAddr, oRowStride, vectors > 3);
            return true;
        }
        // Four rows at a time (four chains of sums), then one by one; rows of one vector load it twice.
        final long gs = 4L * gRowStride;
        final long second = vectors > 1 ? 4L * LANES : 0;
        int r = 0;
        for (; r + 3 < rows; r += 4) {
            long g = gAddr + r * gs;
            IntVector ga = FloatVector.fromMemorySegment(FLOATS, RAW, g, ORDER).reinterpretAsInts();
            IntVector gb = FloatVector.fromMemorySegment(FLOATS, RAW, g + second, ORDER).reinterpretAsInts();
            IntVector ha = FloatVector.fromMemorySegment(FLOATS, RAW, g + gs, ORDER).reinterpretAsInts();
            IntVector hb = FloatVector.fromMemorySegment(FLOATS, RAW, g + gs + second, ORDER).reinterpretAsInts();
            IntVector ia = FloatVector.fromMemorySegment(FLOATS, RAW, g + 2 * gs, ORDER).reinterpretAsInts();
            IntVector ib = FloatVector.fromMemorySegment(FLOATS, RAW, g + 2 * gs + second, ORDER).reinterpretAsInts();
            IntVector ja = FloatVector.fromMemorySegment(FLOATS, RAW, g + 3 * gs, ORDER).reinterpretAsInts();
            IntVector jb = FloatVector.fromMemorySegment(FLOATS, RAW, g + 3 * gs + second, ORDER).reinterpretAsInts();
            FloatVector s1 = FloatVector.zero(FLOATS);
            FloatVector s2 = s1;
            FloatVector s3 = s1;
            FloatVector s4 = s1;
            for (int k = 0; k < steps; k++) {
                IntVector at = IntVector.fromArray(INTS, index, k * LANES);
                VectorMask<Float> has = at.compare(VectorOperators.GE, 0).cast(FLOATS);
                FloatVector v = FloatVector.fromArray(FLOATS, weight, k * LANES);
                s1 = s1.add(at.selectFrom(ga, gb).reinterpretAsFloats().mul(v), has);
                s2 = s2.add(at.selectFrom(ha, hb).reinterpretAsFloats().mul(v), has);
                s3 = s3.add(at.selectFrom(ia, ib).reinterpretAsFloats().mul(v), has);
                s4 = s4.add(at.selectFrom(ja, jb).reinterpretAsFloats().mul(v), has);
            }
            long o = oAddr + 4L * r * oRowStride;
            long os = 4L * oRowStride;
            if (whole) {
                s1.intoMemorySegment(RAW, o, ORDER);
                s2.intoMemorySegment(RAW, o + os, ORDER);
                s3.intoMemorySegment(RAW, o + 2 * os, ORDER);
                s4.intoMemorySegment(RAW, o + 3 * os, ORDER);
            } else {
                s1.intoMemorySegment(RAW, o, ORDER, store);
                s2.intoMemorySegment(RAW, o + os, ORDER, store);
                s3.intoMemorySegment(RAW, o + 2 * os, ORDER, store);
                s4.intoMemorySegment(RAW, o + 3 * os, ORDER, store);
            }
        }
        for (; r < rows; r++) {
            long g = gAddr + 4L * r * gRowStride;
            IntVector ga = FloatVector.fromMemorySegment(FLOATS, RAW, g, ORDER).reinterpretAsInts();
            IntVector gb = vectors > 1 ? FloatVector.fromMemorySegment(FLOATS, RAW, g + 4L * LANES, ORDER)
                    .reinterpretAsInts() : ga;
            FloatVector sum = FloatVector.zero(FLOATS);
            for (int k = 0; k < steps; k++) {
                IntVector at = IntVector.fromArray(INTS, index, k * LANES);
                FloatVector term = at.selectFrom(ga, gb).reinterpretAsFloats()
                        .mul(FloatVector.fromArray(FLOATS, weight, k * LANES));
                sum = sum.add(term, at.compare(VectorOperators.GE, 0).cast(FLOATS));
            }
            long o = oAddr + 4L * r * oRowStride;
            if (whole) {
                sum.intoMemorySegment(RAW, o, ORDER);
            } else {
                sum.intoMemorySegment(RAW, o, ORDER, store);
            }
        }
        return true;
    }

    /** The most steps of {@link #wideByParity}: terms within 4L positions, a lane's start delayed by one. */
    private static final int WIDE_MAX_STEPS = 4 * LANES + 2;
    /**
     * Per thread: the steps of {@link #shortByParity} and {@link #wideByParity} (pair positions, -1 for none) and
     * their weights ({@link #parityRows}).
     */
    private static final ThreadLocal<int[]> PARITY_INDEX = ThreadLocal.withInitial(
            () -> new int[Math.max(2 * SHORT_MAX_STEPS, WIDE_MAX_STEPS) * LANES]);
    private static final ThreadLocal<float[]> PARITY_WEIGHT = ThreadLocal.withInitial(
            () -> new float[Math.max(2 * SHORT_MAX_STEPS, WIDE_MAX_STEPS) * LANES]);

    /**
     * {@link #backwardInPlaceShort}'s rows whose terms span three or four vectors, from its step table ({@code
     * index}, {@code weight}: lane l's k-th term at {@code k * L + l}, -1 past its last). Each row's vectors are
     * split once into its even and its odd positions (two vectors each, four two-source permutes), and the steps
     * alternate between the two: a step takes every lane's next term of the step's parity with one permute from
     * that pair, and a lane whose next term has the other parity waits a step. Each lane's terms still come in the
     * table's order (the reference's), so the sums are the step table's, bit for bit; per row and step this is one
     * permute, a multiply and a masked add instead of two permutes, a blend, a multiply and an add. At a ratio of
     * 4 (16 → 64) every lane's terms alternate in parity but the last input's doubled ones, and the schedule has
     * as many steps as the table (10). It starts with the parity that gives fewer steps; it never has more than
     * twice the table's. Rows four at a time, then one by one. In cache (one process, 1024 rows per call, old
     * form in pairs against this one four at a time): 16 → 64 8.1 → 6.1 µs, 12 → 48 9.1 → 6.2, 16 → 60 8.8 →
     * 6.0, 16 → 40 5.6 → 4.9, 13 → 39 alignCorners 9.0 → 7.9.
     */
    private static void shortByParity(int[] index, float[] weight, int steps, int count, int rows, long gAddr,
                                      long gRowStride, long oAddr, long oRowStride, boolean four) {
        int evenFirst = parityStepCount(index, steps, count, 0);
        int oddFirst = parityStepCount(index, steps, count, 1);
        final int first = oddFirst < evenFirst ? 1 : 0;
        // Whole pairs of steps: the loop takes an even-numbered step, then an odd-numbered one.
        final int total = (Math.min(evenFirst, oddFirst) + 1) & ~1;
        final int[] at = PARITY_INDEX.get();
        final float[] w = PARITY_WEIGHT.get();
        Arrays.fill(at, 0, total * LANES, -1);
        for (int lane = 0; lane < count; lane++) {
            int s = 0;
            for (int k = 0; k < steps && index[k * LANES + lane] >= 0; k++, s++) {
                int position = index[k * LANES + lane];
                if (((position ^ (first + s)) & 1) != 0) {
                    s++;
                }
                at[s * LANES + lane] = position >> 1;
                w[s * LANES + lane] = weight[k * LANES + lane];
            }
        }
        parityRows(at, w, total, first, rows, gAddr, 4L * gRowStride, four ? 12L * LANES : 8L * LANES, oAddr,
                4L * oRowStride, count);
    }

    /**
     * The rows of {@link #shortByParity} and {@link #wideByParity}, from their steps ({@code at}: lane l's index in
     * step s's pair at {@code s * L + l}, -1 where the lane has no term; {@code w} the weights): each row's
     * vectors from {@code gAddr + r * gs} (the fourth at {@code fourth} bytes, the third's again for rows of three)
     * split into even and odd positions, even-numbered steps reading the pair of parity {@code first}, the sums of
     * the first {@code count} lanes stored at {@code oAddr + r * os}. Four rows at a time (each step's positions,
     * masks and weights serve four chains of sums), then one by one, each in a method of its own: with the step
     * tables' set-up in the same method, or four more masked loads in the four-row loop, C1 gave up ("out of virtual
     * registers in LIR generator"), and the method stayed at tier 2, where the Vector API runs its Java fallback,
     * about 100 times slower, without ever reaching C2 ({@code CompilationTest} catches that).
     */
    private static void parityRows(int[] at, float[] w, int total, int first, int rows, long gAddr, long gs,
                                   long fourth, long oAddr, long os, int count) {
        int r = parityFours(at, w, total, first, rows, gAddr, gs, fourth, oAddr, os, count);
        parityOnes(at, w, total, first, r, rows, gAddr, gs, fourth, oAddr, os, count);
    }

    /** {@link #parityRows}' rows four at a time; returns the first row left. */
    private static int parityFours(int[] at, float[] w, int total, int first, int rows, long gAddr, long gs,
                                   long fourth, long oAddr, long os, int count) {
        // Steps 0, 2, 4... read the pair of the first parity: lane t of a pair is position 2t (+1 if odd).
        final IntVector firstSplit = EVEN.add(first);
        final IntVector secondSplit = ODD.sub(first);
        final boolean whole = count == LANES;
        final VectorMask<Float> store = FLOATS.indexInRange(0, count);
        int r = 0;
        for (; r + 3 < rows; r += 4) {
            // Four rows at a time: each step's positions, masks and weights serve four chains of sums.
            long g = gAddr + r * gs;
            IntVector ga = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            IntVector gb = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            IntVector gc = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            IntVector gd = IntVector.fromMemorySegment(INTS, RAW, g + fourth, ORDER);
            IntVector g0 = firstSplit.selectFrom(ga, gb);
            IntVector g1 = firstSplit.selectFrom(gc, gd);
            IntVector g2 = secondSplit.selectFrom(ga, gb);
            IntVector g3 = secondSplit.selectFrom(gc, gd);
            g += gs;
            ga = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            gb = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            gc = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            gd = IntVector.fromMemorySegment(INTS, RAW, g + fourth, ORDER);
            IntVector h0 = firstSplit.selectFrom(ga, gb);
            IntVector h1 = firstSplit.selectFrom(gc, gd);
            IntVector h2 = secondSplit.selectFrom(ga, gb);
            IntVector h3 = secondSplit.selectFrom(gc, gd);
            g += gs;
            ga = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            gb = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            gc = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            gd = IntVector.fromMemorySegment(INTS, RAW, g + fourth, ORDER);
            IntVector i0 = firstSplit.selectFrom(ga, gb);
            IntVector i1 = firstSplit.selectFrom(gc, gd);
            IntVector i2 = secondSplit.selectFrom(ga, gb);
            IntVector i3 = secondSplit.selectFrom(gc, gd);
            g += gs;
            ga = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            gb = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            gc = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            gd = IntVector.fromMemorySegment(INTS, RAW, g + fourth, ORDER);
            IntVector j0 = firstSplit.selectFrom(ga, gb);
            IntVector j1 = firstSplit.selectFrom(gc, gd);
            IntVector j2 = secondSplit.selectFrom(ga, gb);
            IntVector j3 = secondSplit.selectFrom(gc, gd);
            FloatVector s1 = FloatVector.zero(FLOATS);
            FloatVector s2 = s1;
            FloatVector s3 = s1;
            FloatVector s4 = s1;
            for (int s = 0; s < total; s += 2) {
                IntVector a = IntVector.fromArray(INTS, at, s * LANES);
                VectorMask<Float> has = a.compare(VectorOperators.GE, 0).cast(FLOATS);
                FloatVector v = FloatVector.fromArray(FLOATS, w, s * LANES);
                s1 = s1.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(v), has);
                s2 = s2.add(a.selectFrom(h0, h1).reinterpretAsFloats().mul(v), has);
                s3 = s3.add(a.selectFrom(i0, i1).reinterpretAsFloats().mul(v), has);
                s4 = s4.add(a.selectFrom(j0, j1).reinterpretAsFloats().mul(v), has);
                IntVector b = IntVector.fromArray(INTS, at, (s + 1) * LANES);
                VectorMask<Float> has2 = b.compare(VectorOperators.GE, 0).cast(FLOATS);
                FloatVector u = FloatVector.fromArray(FLOATS, w, (s + 1) * LANES);
                s1 = s1.add(b.selectFrom(g2, g3).reinterpretAsFloats().mul(u), has2);
                s2 = s2.add(b.selectFrom(h2, h3).reinterpretAsFloats().mul(u), has2);
                s3 = s3.add(b.selectFrom(i2, i3).reinterpretAsFloats().mul(u), has2);
                s4 = s4.add(b.selectFrom(j2, j3).reinterpretAsFloats().mul(u), has2);
            }
            long o = oAddr + r * os;
            if (whole) {
                s1.intoMemorySegment(RAW, o, ORDER);
                s2.intoMemorySegment(RAW, o + os, ORDER);
                s3.intoMemorySegment(RAW, o + 2 * os, ORDER);
                s4.intoMemorySegment(RAW, o + 3 * os, ORDER);
            } else {
                s1.intoMemorySegment(RAW, o, ORDER, store);
                s2.intoMemorySegment(RAW, o + os, ORDER, store);
                s3.intoMemorySegment(RAW, o + 2 * os, ORDER, store);
                s4.intoMemorySegment(RAW, o + 3 * os, ORDER, store);
            }
        }
        return r;
    }

    /** {@link #parityRows}' rows from {@code r} on, one by one. */
    private static void parityOnes(int[] at, float[] w, int total, int first, int r, int rows, long gAddr, long gs,
                                   long fourth, long oAddr, long os, int count) {
        final IntVector firstSplit = EVEN.add(first);
        final IntVector secondSplit = ODD.sub(first);
        final boolean whole = count == LANES;
        final VectorMask<Float> store = FLOATS.indexInRange(0, count);
        for (; r < rows; r++) {
            long g = gAddr + r * gs;
            IntVector ga = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            IntVector gb = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            IntVector gc = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            IntVector gd = IntVector.fromMemorySegment(INTS, RAW, g + fourth, ORDER);
            IntVector g0 = firstSplit.selectFrom(ga, gb);
            IntVector g1 = firstSplit.selectFrom(gc, gd);
            IntVector g2 = secondSplit.selectFrom(ga, gb);
            IntVector g3 = secondSplit.selectFrom(gc, gd);
            long o = oAddr + r * os;
            FloatVector sum = FloatVector.zero(FLOATS);
            for (int s = 0; s < total; s += 2) {
                IntVector a = IntVector.fromArray(INTS, at, s * LANES);
                sum = sum.add(a.selectFrom(g0, g1).reinterpretAsFloats()
                                .mul(FloatVector.fromArray(FLOATS, w, s * LANES)),
                        a.compare(VectorOperators.GE, 0).cast(FLOATS));
                IntVector b = IntVector.fromArray(INTS, at, (s + 1) * LANES);
                sum = sum.add(b.selectFrom(g2, g3).reinterpretAsFloats()
                                .mul(FloatVector.fromArray(FLOATS, w, (s + 1) * LANES)),
                        b.compare(VectorOperators.GE, 0).cast(FLOATS));
            }
            if (whole) {
                sum.intoMemorySegment(RAW, o, ORDER);
            } else {
                sum.intoMemorySegment(RAW, o, ORDER, store);
            }
        }
    }

    /**
     * The steps of {@link #shortByParity}'s schedule for the step table's lanes when step 0 takes the terms at
     * positions of parity {@code first}: each lane takes a step per term, and one more before a term whose parity
     * is not its step's.
     */
    static int parityStepCount(int[] index, int steps, int count, int first) {
        int most = 0;
        for (int lane = 0; lane < count; lane++) {
            int s = 0;
            for (int k = 0; k < steps && index[k * LANES + lane] >= 0; k++, s++) {
                if (((index[k * LANES + lane] ^ (first + s)) & 1) != 0) {
                    s++;
                }
            }
            most = Math.max(most, s);
        }
        return most;
    }

    /** Groups of L inputs the windowed FLOAT form goes on without looking for similar runs after one fails. */
    static final int SIMILAR_RETRY = 8;

    /**
     * The end of the run of whole groups of L inputs from {@code i} (a whole group, that fits its windows)
     * whose bounds are group i's translated: every lane's taps at the same offsets from the group's first
     * right-tap and left-tap positions, so the same counts, indices and masks (not the same weights); each
     * further group also has its windows inside gradOut. Returns at least {@code i + L}. Measured on the
     * Zen 5 host, one process alternating with and without (op ms): up2x alignCorners 17.3–18.3 → 16.4–17.9
     * with 6 rows per call, 18.1–18.7 → 16.0–16.7 with 2; (32, 64, 16384 ← 24576) 16.9–19.6 → 14.4–16.3;
     * irregular ratios unchanged within the noise ((32, 64, 16384 ← 30000) 28.9–30.4 → 29.4–29.7).
     *
     * <p>Where i starts a group of the table's ({@code i % L == 0}, as the driver's blocks all do), the run's
     * pattern end comes from the table's {@link LinearTable#patternRunEnds}, built once per table: a search
     * over the groups in every call made 22 % of up2x alignCorners' samples in cache. Elsewhere the groups are
     * compared one by one.
     */
    private static int similarRunEnd(LinearTable t, int i, int vectorEnd, int window, long lastRow, long gEnd) {
        final int[] bounds = t.bounds;
        if (i % LANES == 0) {
            // The first group past the run of group i's pattern, the first whose group would pass vectorEnd, then
            // back to the first whose windows would pass gradOut's end (true, then false, as the bounds grow).
            int end = Math.max(i + LANES, Math.min(t.patternRunEnds(LANES)[i / LANES] * LANES,
                    i + (vectorEnd - i) / LANES * LANES));
            while (end > i + LANES
                    && lastRow + Math.max(bounds[end - LANES], bounds[end - LANES + 1]) + window > gEnd) {
                end -= LANES;
            }
            return end;
        }
        int end = i + LANES;
        while (end + LANES <= vectorEnd && lastRow + Math.max(bounds[end], bounds[end + 1]) + window <= gEnd
                && samePattern(bounds, i, end)) {
            end += LANES;
        }
        return end;
    }

    /**
     * Whether the group of L inputs from {@code b} repeats the tap pattern of the one from {@code a}:
     * {@code bounds[b + m] - bounds[b] == bounds[a + m] - bounds[a]} for m = 0 … L + 1 (its starts, left-tap
     * starts and ends).
     */
    private static boolean samePattern(int[] bounds, int a, int b) {
        return IntVector.fromArray(INTS, bounds, b).sub(bounds[b])
                .compare(VectorOperators.EQ, IntVector.fromArray(INTS, bounds, a).sub(bounds[a])).allTrue()
                && IntVector.fromArray(INTS, bounds, b + 2).sub(bounds[b])
                .compare(VectorOperators.EQ, IntVector.fromArray(INTS, bounds, a + 2).sub(bounds[a])).allTrue();
    }

    /**
     * Groups {@code i} to {@code end} of the windowed FLOAT form, a run of similar groups ({@link #similarRunEnd})
     * with at most two terms per tap: group i's indices and masks, each group's own weights, then the four
     * unrolled steps on four streams at a time, groups inner, as in {@link #periodicPairsInPlace}. A method of its
     * own, so that the periodic loop keeps its weights out of the loop (loading them per group in that loop made
     * up2x, which never takes this path, 10–25 % slower in `bin/bench-ab`); its vectors stay inside it. Four streams
     * instead of two (one pair of rows), in one process alternating the two (`SettingsComparison`, op ms): up2x
     * alignCorners 9.56 → 7.64 and 9.27 → 7.30; (6, 64, 16384 → 32768, alignCorners) 1.75 → 1.32.
     */
    private static void similarRunInPlace(LinearTable t, int i, int end, int i0, int rows, long gAddr, long gFirst,
                                          long gRowStride, int jLo, long oAddr, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        IntVector from = IntVector.fromArray(INTS, bounds, i);
        IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
        IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
        IntVector rightCount = leftFrom.sub(from);
        IntVector leftCount = to.sub(leftFrom);
        IntVector right0 = from.sub(bounds[i]);
        IntVector right1 = right0.add(1);
        IntVector left0 = leftFrom.sub(bounds[i + 1]);
        IntVector left1 = left0.add(1);
        VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        VectorMask<Float> hasRight1 = rightCount.compare(VectorOperators.GT, 1).cast(FLOATS);
        VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        VectorMask<Float> hasLeft1 = leftCount.compare(VectorOperators.GT, 1).cast(FLOATS);
        final long gRowBytes = 4 * gRowStride;
        final long oRowBytes = 4 * oRowStride;
        final long g0 = gAddr + (gFirst - jLo) * 4;
        final long o0 = oAddr + (oFirst - i0) * 4;
        // Four streams per pass, as in periodicPairsInPlace: two pairs of rows, or the run's two halves of a pair
        // (group k of the first half beside group k + kNext).
        final int groups = (end - i) / LANES;
        for (int r = 0; r < rows; ) {
            int second = Math.min(r + 1, rows - 1);
            long ga = g0 + r * gRowBytes;
            long gb = g0 + second * gRowBytes;
            long oa = o0 + r * oRowBytes;
            long ob = o0 + second * oRowBytes;
            int count;
            int kNext;
            long gNext;
            long oNext;
            if (rows - r >= 4) {
                count = groups;
                kNext = 0;
                gNext = 2 * gRowBytes;
                oNext = 2 * oRowBytes;
                r += 4;
            } else {
                count = (groups + 1) / 2;
                kNext = (groups / 2) * LANES;
                gNext = 0;
                oNext = 0;
                r += 2;
            }
            for (int k = i; k < i + count * LANES; k += LANES) {
                for (int s = 0; s < 2; s++) {
                    int kk = k + s * kNext;
                    long right = 4L * bounds[kk] + s * gNext;
                    long left = 4L * bounds[kk + 1] + s * gNext;
                    long at = 4L * kk + s * oNext;
                    FloatVector w1a = FloatVector.fromArray(FLOATS, w1, bounds[kk]);
                    FloatVector w1b = FloatVector.fromArray(FLOATS, w1, bounds[kk] + LANES);
                    FloatVector w0a = FloatVector.fromArray(FLOATS, w0, bounds[kk + 1]);
                    FloatVector w0b = FloatVector.fromArray(FLOATS, w0, bounds[kk + 1] + LANES);
                    IntVector p1a = FloatVector.fromMemorySegment(FLOATS, RAW, ga + right, ORDER).mul(w1a)
                            .reinterpretAsInts();
                    IntVector p1b = FloatVector.fromMemorySegment(FLOATS, RAW, ga + right + 4 * LANES, ORDER).mul(w1b)
                            .reinterpretAsInts();
                    IntVector p0a = FloatVector.fromMemorySegment(FLOATS, RAW, ga + left, ORDER).mul(w0a)
                            .reinterpretAsInts();
                    IntVector p0b = FloatVector.fromMemorySegment(FLOATS, RAW, ga + left + 4 * LANES, ORDER).mul(w0b)
                            .reinterpretAsInts();
                    IntVector q1a = FloatVector.fromMemorySegment(FLOATS, RAW, gb + right, ORDER).mul(w1a)
                            .reinterpretAsInts();
                    IntVector q1b = FloatVector.fromMemorySegment(FLOATS, RAW, gb + right + 4 * LANES, ORDER).mul(w1b)
                            .reinterpretAsInts();
                    IntVector q0a = FloatVector.fromMemorySegment(FLOATS, RAW, gb + left, ORDER).mul(w0a)
                            .reinterpretAsInts();
                    IntVector q0b = FloatVector.fromMemorySegment(FLOATS, RAW, gb + left + 4 * LANES, ORDER).mul(w0b)
                            .reinterpretAsInts();
                    FloatVector.zero(FLOATS)
                            .add(right0.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight0)
                            .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight1)
                            .add(left0.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft0)
                            .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft1)
                            .intoMemorySegment(RAW, oa + at, ORDER);
                    FloatVector.zero(FLOATS)
                            .add(right0.selectFrom(q1a, q1b).reinterpretAsFloats(), hasRight0)
                            .add(right1.selectFrom(q1a, q1b).reinterpretAsFloats(), hasRight1)
                            .add(left0.selectFrom(q0a, q0b).reinterpretAsFloats(), hasLeft0)
                            .add(left1.selectFrom(q0a, q0b).reinterpretAsFloats(), hasLeft1)
                            .intoMemorySegment(RAW, ob + at, ORDER);
                }
            }
        }
    }

    /**
     * Groups {@code i} to {@code end} of the windowed FLOAT form, a periodic run ({@link #regularRunEnd}) where every
     * lane has two terms per tap (2x upsampling): group i's indices and weights for every group, each row's windows
     * moving by the run's fixed shift, four rows at a time with their own address streams (no per-row multiply, no
     * table reads inside the loop), and unmasked adds (every step has a term in every lane). Measured in cache
     * ({@code InPlaceBlockBenchmark}, 2 rows × 4096 inputs of up2x): 2.71 → 1.78 µs per call; the whole up2x call,
     * {@code bin/bench-ab} against the loop of the two-step form, ratio medians of 5 rounds: 1.39 → 1.21. Four
     * streams instead of two (2026-12-01, sixth session; one process alternating the two, `SettingsComparison`, op
     * ms): up2x 6.53 → 6.45, 6.41 → 6.20, 6.54 → 6.32; the long row (two rows, so the run's two halves side by side)
     * 0.198 → 0.173, 0.209 → 0.186. One row at a time was slower (up2x 6.51 → 7.38), and a loop of four pairs was
     * not unrolled (16.8 ms).
     */
    private static void periodicPairsInPlace(LinearTable t, int i, int end, int i0, int rows, long gAddr, long gFirst,
                                             long gRowStride, int jLo, long oAddr, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int rb = bounds[i];
        final int lb = bounds[i + 1];
        IntVector right0 = IntVector.fromArray(INTS, bounds, i).sub(rb);
        IntVector right1 = right0.add(1);
        IntVector left0 = IntVector.fromArray(INTS, bounds, i + 1).sub(lb);
        IntVector left1 = left0.add(1);
        FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rb);
        FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rb + LANES);
        FloatVector w0a = FloatVector.fromArray(FLOATS, w0, lb);
        FloatVector w0b = FloatVector.fromArray(FLOATS, w0, lb + LANES);
        // Two terms per tap in every lane: the next group's window 2L positions on. A constant, so that the JIT takes
        // the loads' access checks out of the loop, as the stores' (see FLOAT_PAIR_SHIFT).
        final long shift = FLOAT_PAIR_SHIFT;
        assert 4L * (bounds[i + LANES] - rb) == shift : "not a paired run";
        final long leftOffset = 4L * (lb - rb);
        final int groups = (end - i) / LANES;
        final long gRowBytes = 4 * gRowStride;
        final long oRowBytes = 4 * oRowStride;
        final long right = gAddr + (gFirst - jLo + rb) * 4;
        final long o = oAddr + (oFirst + i - i0) * 4;
        // Four streams per pass: two pairs of rows, or where fewer than four rows are left, a pair (a row left over
        // as a pair with itself, the same sums stored twice) and the run's two halves side by side (a middle group
        // of an odd count summed by both halves, the same sums stored twice).
        for (int r = 0; r < rows; ) {
            int second = Math.min(r + 1, rows - 1);
            long a = right + r * gRowBytes;
            long b = right + second * gRowBytes;
            long oa = o + r * oRowBytes;
            long ob = o + second * oRowBytes;
            int count;
            long gNext;
            long oNext;
            if (rows - r >= 4) {
                count = groups;
                gNext = 2 * gRowBytes;
                oNext = 2 * oRowBytes;
                r += 4;
            } else {
                count = (groups + 1) / 2;
                gNext = (groups / 2) * shift;
                oNext = (groups / 2) * 4L * LANES;
                r += 2;
            }
            for (int k = 0; k < count; k++, a += FLOAT_PAIR_SHIFT, b += FLOAT_PAIR_SHIFT, oa += 4 * LANES, ob += 4 * LANES) {
                // The two pairs through one copy of the code (a loop of two, which the JIT unrolls: written out
                // twice, the method would be twice as large; a loop of four pairs, eight rows, ran 2.5x slower).
                for (int s = 0; s < 2; s++) {
                    long x = a + s * gNext;
                    long y = b + s * gNext;
                    IntVector p1a = FloatVector.fromMemorySegment(FLOATS, RAW, x, ORDER).mul(w1a).reinterpretAsInts();
                    IntVector p1b = FloatVector.fromMemorySegment(FLOATS, RAW, x + 4 * LANES, ORDER).mul(w1b)
                            .reinterpretAsInts();
                    IntVector p0a = FloatVector.fromMemorySegment(FLOATS, RAW, x + leftOffset, ORDER).mul(w0a)
                            .reinterpretAsInts();
                    IntVector p0b = FloatVector.fromMemorySegment(FLOATS, RAW, x + leftOffset + 4 * LANES, ORDER)
                            .mul(w0b).reinterpretAsInts();
                    IntVector q1a = FloatVector.fromMemorySegment(FLOATS, RAW, y, ORDER).mul(w1a).reinterpretAsInts();
                    IntVector q1b = FloatVector.fromMemorySegment(FLOATS, RAW, y + 4 * LANES, ORDER).mul(w1b)
                            .reinterpretAsInts();
                    IntVector q0a = FloatVector.fromMemorySegment(FLOATS, RAW, y + leftOffset, ORDER).mul(w0a)
                            .reinterpretAsInts();
                    IntVector q0b = FloatVector.fromMemorySegment(FLOATS, RAW, y + leftOffset + 4 * LANES, ORDER)
                            .mul(w0b).reinterpretAsInts();
                    // From +0f as the other forms (the first term's -0f becomes +0f), in the same order.
                    FloatVector.zero(FLOATS).add(right0.selectFrom(p1a, p1b).reinterpretAsFloats())
                            .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats())
                            .add(left0.selectFrom(p0a, p0b).reinterpretAsFloats())
                            .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats())
                            .intoMemorySegment(RAW, oa + s * oNext, ORDER);
                    FloatVector.zero(FLOATS).add(right0.selectFrom(q1a, q1b).reinterpretAsFloats())
                            .add(right1.selectFrom(q1a, q1b).reinterpretAsFloats())
                            .add(left0.selectFrom(q0a, q0b).reinterpretAsFloats())
                            .add(left1.selectFrom(q0a, q0b).reinterpretAsFloats())
                            .intoMemorySegment(RAW, ob + s * oNext, ORDER);
                }
            }
        }
    }

    /**
     * The end of the run of groups of L inputs from {@code i} (a whole group, that fits its windows) whose
     * set-up is group i's, on a table with a period of Q inputs and P outputs where Q divides L: group k + L
     * is group k shifted by L/Q periods (the same counts, indices and weights) when the outputs its terms
     * use, from {@code bounds[k]} to {@code bounds[k + L + 1] = start(k + L)}, and the one before, are
     * unclamped ({@code [regularFrom, regularTo)}, {@link LinearTable#unclampedTo}). Lanes past a group's terms
     * are masked off, so the weights they load do not matter. The bounds grow with the inputs: group i
     * decides the low end, the run's last group the high end; a further group must also be whole and have
     * its windows inside gradOut. Returns at least {@code i + L}.
     */
    private static int regularRunEnd(int[] bounds, int i, int vectorEnd, int regularFrom, int regularTo,
                                     int window, long lastRow, long gEnd) {
        int end = i + LANES;
        if (bounds[i] - 1 < regularFrom) {
            return end;
        }
        // The k-th further group is taken when every one before it is: both tests only turn from true to false as
        // the run grows (the bounds never decrease), so a binary search finds the last. A scan of every group, once
        // per call, cost calls of 2 rows of 16384 inputs a good part of their time: `bin/bench-ab`, ratio medians
        // of 4 rounds, up2x 1.64 -> 1.53, FP16 2.97 -> 2.74, BF16 2.64 -> 2.20, down4x 1.74 -> 1.66.
        int taken = 0;
        int most = (vectorEnd - end) / LANES;
        while (taken < most) {
            int k = (taken + most + 1) >>> 1;
            int e = end + (k - 1) * LANES;
            if (bounds[e + LANES + 1] < regularTo && lastRow + Math.max(bounds[e], bounds[e + 1]) + window <= gEnd) {
                taken = k;
            } else {
                most = k - 1;
            }
        }
        return end + taken * LANES;
    }

    /**
     * The in-place form for ratios between 2 and 4 (FLOAT): as the windowed form, one lane per input,
     * but each tap's terms of a group of L inputs lie within 4L positions, four vectors of products;
     * step k picks every lane's k-th term from the first pair or the second with two two-source
     * permutes and a blend on the index. A group of fewer than L inputs is masked; the row's last
     * input is summed in its group (or by {@link #lastInput} when its outputs reach past the group's
     * right window); groups that do not fit the windows go through {@link #bufferedInputs}. A group whose
     * terms all lie within 4L positions and that does not hold the last input (every group at ratios up
     * to about 3.75 at 512 bits: 16 inputs' terms span about 17 times the ratio) goes through
     * {@link #wideByParity} instead: one permute per term and row, rows four at a time.
     */
    private static void backwardInPlaceWide(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                            long gRowStride, MemorySegment out, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        final int window = 4 * LANES;
        final long gEnd = gradOut.byteSize() / 4;
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        final IntVector lanes = IntVector.zero(INTS).addIndex(1);
        final WideSteps steps = wideSteps(t);
        boolean lastAlone = false;
        int next;
        for (int i = i0; i < i1; i = next) {
            int fold = foldGroup(t, i, i1, lastRow, gEnd);
            if (fold > 0) {
                // Exactly 4x or 8x (a period of one input and four or eight outputs): a run of unclamped groups.
                next = regularRunEnd(bounds, i, Math.min(i1, last), t.unclampedFrom(), t.unclampedTo(),
                        foldWindow(fold), lastRow, gEnd);
                long g = gAddr + (gFirst - jLo + bounds[i]) * 4;
                long o = oAddr + (oFirst + i - i0) * 4;
                if (fold == 4) {
                    fourfoldRun(t, i, next, rows, g, 4 * gRowStride, o, 4 * oRowStride);
                } else {
                    eightfoldRun(t, i, next, rows, g, 4 * gRowStride, o, 4 * oRowStride);
                }
                continue;
            }
            int count = Math.min(LANES, i1 - i);
            if (count > LANES / 2 && (bounds[i + count] - bounds[i] > window
                    || bounds[i + count + 1] - bounds[i + 1] > window)) {
                // A tap's terms reach past four vectors (input 0's clamped outputs at 4x, ratios just below 4 at
                // narrow widths): half a group, which fits, rather than the buffered form.
                count = LANES / 2;
            }
            next = i + count;
            int rightBase = bounds[i];
            int leftBase = bounds[i + 1];
            // The last input, in the group that holds it: both taps of its left-tap outputs land on it, so each
            // of its left steps adds the right-tap product of the same output too (the reference's order). That
            // product lies in the right window when the last input's outputs end within it.
            boolean withLast = i + count - 1 == last;
            if (withLast && bounds[last + 2] - rightBase > window) {
                // They do not (narrow vectors, a ratio near 4): the last input is summed on its own.
                withLast = false;
                lastAlone = true;
                if (--count == 0) {
                    break;
                }
            }
            int spanEnd = bounds[i + count + 1];
            if (!withLast && spanEnd - rightBase <= window) {
                // Every term within four vectors (ratios up to about 3.75): the window from the first right-tap
                // position, or earlier where that would read past gradOut's end (a call's last row), but not
                // before the block's first position. It still holds the span: the last row's span ends within
                // gradOut, and every span within the weights.
                long base = Math.min(rightBase, Math.min(gEnd - lastRow, w0.length) - window);
                if (base >= jLo) {
                    WideChunk chunk = steps == null || count < LANES || i % LANES != 0 ? null
                            : steps.chunk(t, i / LANES / WIDE_CHUNK);
                    int k = i / LANES % WIDE_CHUNK;
                    if (chunk != null && chunk.base[k] == base) {
                        int end = wideRunEnd(bounds, chunk, i, i1, Math.min(gEnd - lastRow, w0.length) - window);
                        int k1 = k + (end - i) / LANES;
                        long g = gAddr + (gFirst - jLo) * 4;
                        long o = oAddr + (oFirst + i - i0) * 4;
                        int r = wideFours(chunk, k, k1, rows, g, 4 * gRowStride, o, 4 * oRowStride);
                        wideOnes(chunk, k, k1, r, rows, g, 4 * gRowStride, o, 4 * oRowStride);
                        next = end;
                        continue;
                    }
                    wideByParity(bounds, w0, w1, i, count, (int) base, rows, gAddr + (gFirst - jLo) * 4,
                            4 * gRowStride, oAddr + (oFirst + i - i0) * 4, 4 * oRowStride);
                    continue;
                }
            }
            // The windows of the rows this form takes, all or all but the last (whose windows would reach past
            // gradOut's end); the others go through the buffered form.
            int vectorRows = bounds[i + count] - rightBase > window || bounds[i + count + 1] - leftBase > window
                    || Math.max(rightBase, leftBase) + window > w0.length ? 0
                    : lastRow + Math.max(rightBase, leftBase) + window <= gEnd ? rows
                    : lastRow - gRowStride + Math.max(rightBase, leftBase) + window <= gEnd ? rows - 1 : 0;
            for (int r = vectorRows; r < rows; r++) {
                bufferedInputs(t, i, i + count, gradOut, gFirst + r * gRowStride - jLo, out,
                        oFirst + r * oRowStride + i - i0, DataType.FLOAT);
            }
            if (vectorRows == 0) {
                continue;
            }
            // A group of fewer than L inputs (a short row, a row's tail): its other lanes load no bounds, so
            // they have no terms, and are not stored.
            boolean whole = count == LANES;
            VectorMask<Integer> inputs = INTS.indexInRange(0, count);
            IntVector from = whole ? IntVector.fromArray(INTS, bounds, i) : IntVector.fromArray(INTS, bounds, i, inputs);
            IntVector leftFrom = whole ? IntVector.fromArray(INTS, bounds, i + 1)
                    : IntVector.fromArray(INTS, bounds, i + 1, inputs);
            IntVector to = whole ? IntVector.fromArray(INTS, bounds, i + 2)
                    : IntVector.fromArray(INTS, bounds, i + 2, inputs);
            VectorMask<Float> store = inputs.cast(FLOATS);
            VectorMask<Float> lastLane = lanes.compare(VectorOperators.EQ, withLast ? count - 1 : -1).cast(FLOATS);
            IntVector leftInRight = IntVector.broadcast(INTS, leftBase - rightBase);
            IntVector rightCount = leftFrom.sub(from);
            IntVector leftCount = to.sub(leftFrom);
            int rightSteps = rightCount.reduceLanes(VectorOperators.MAX);
            int leftSteps = leftCount.reduceLanes(VectorOperators.MAX);
            // The last input's extra terms: as many steps as it has left-tap outputs, not as the group has.
            int lastSteps = withLast ? bounds[last + 2] - bounds[last + 1] : 0;
            IntVector rightIndex = from.sub(rightBase);
            IntVector leftIndex = leftFrom.sub(leftBase);
            FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rightBase);
            FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rightBase + LANES);
            FloatVector w1c = FloatVector.fromArray(FLOATS, w1, rightBase + 2 * LANES);
            FloatVector w1d = FloatVector.fromArray(FLOATS, w1, rightBase + 3 * LANES);
            FloatVector w0a = FloatVector.fromArray(FLOATS, w0, leftBase);
            FloatVector w0b = FloatVector.fromArray(FLOATS, w0, leftBase + LANES);
            FloatVector w0c = FloatVector.fromArray(FLOATS, w0, leftBase + 2 * LANES);
            FloatVector w0d = FloatVector.fromArray(FLOATS, w0, leftBase + 3 * LANES);
            for (int r = 0; r < vectorRows; r++) {
                long right = gAddr + (gFirst + r * gRowStride - jLo + rightBase) * 4;
                long left = gAddr + (gFirst + r * gRowStride - jLo + leftBase) * 4;
                IntVector p1a = FloatVector.fromMemorySegment(FLOATS, RAW, right, ORDER).mul(w1a).reinterpretAsInts();
                IntVector p1b = FloatVector.fromMemorySegment(FLOATS, RAW, right + 4 * LANES, ORDER).mul(w1b)
                        .reinterpretAsInts();
                IntVector p1c = FloatVector.fromMemorySegment(FLOATS, RAW, right + 8 * LANES, ORDER).mul(w1c)
                        .reinterpretAsInts();
                IntVector p1d = FloatVector.fromMemorySegment(FLOATS, RAW, right + 12 * LANES, ORDER).mul(w1d)
                        .reinterpretAsInts();
                IntVector p0a = FloatVector.fromMemorySegment(FLOATS, RAW, left, ORDER).mul(w0a).reinterpretAsInts();
                IntVector p0b = FloatVector.fromMemorySegment(FLOATS, RAW, left + 4 * LANES, ORDER).mul(w0b)
                        .reinterpretAsInts();
                IntVector p0c = FloatVector.fromMemorySegment(FLOATS, RAW, left + 8 * LANES, ORDER).mul(w0c)
                        .reinterpretAsInts();
                IntVector p0d = FloatVector.fromMemorySegment(FLOATS, RAW, left + 12 * LANES, ORDER).mul(w0d)
                        .reinterpretAsInts();
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int k = 0; k < rightSteps; k++) {
                    IntVector index = rightIndex.add(k);
                    IntVector term = index.selectFrom(p1a, p1b).blend(index.selectFrom(p1c, p1d),
                            index.compare(VectorOperators.GE, 2 * LANES));
                    sum = sum.add(term.reinterpretAsFloats(), rightCount.compare(VectorOperators.GT, k).cast(FLOATS));
                }
                for (int k = 0; k < leftSteps; k++) {
                    IntVector index = leftIndex.add(k);
                    IntVector term = index.selectFrom(p0a, p0b).blend(index.selectFrom(p0c, p0d),
                            index.compare(VectorOperators.GE, 2 * LANES));
                    VectorMask<Float> has = leftCount.compare(VectorOperators.GT, k).cast(FLOATS);
                    sum = sum.add(term.reinterpretAsFloats(), has);
                    if (k < lastSteps) {
                        IntVector same = index.add(leftInRight);
                        IntVector both = same.selectFrom(p1a, p1b).blend(same.selectFrom(p1c, p1d),
                                same.compare(VectorOperators.GE, 2 * LANES));
                        sum = sum.add(both.reinterpretAsFloats(), has.and(lastLane));
                    }
                }
                if (whole) {
                    sum.intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + i - i0) * 4, ORDER);
                } else {
                    sum.intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + i - i0) * 4, ORDER, store);
                }
            }
        }
        if (lastAlone) {
            for (int r = 0; r < rows; r++) {
                lastInput(t, gradOut, gFirst + r * gRowStride - jLo, out, oFirst + r * oRowStride + last - i0);
            }
        }
    }

    /**
     * The fold k (4 or 8) of an exactly-4x or exactly-8x table (a period of one input and k outputs) whose group of L
     * inputs from {@code i} starts a {@link #fourfoldRun} or {@link #eightfoldRun}, else 0: the group lies before the
     * row's last input (in a call of inputs up to {@code i1}), its outputs are unclamped (with the one before them),
     * its first lane has k right-tap and k left-tap terms, and its kL + k positions lie inside gradOut for the call's
     * last row (whose first position is element {@code lastRow} of a gradOut of {@code gEnd} elements).
     */
    private static int foldGroup(LinearTable t, int i, int i1, long lastRow, long gEnd) {
        final int[] bounds = t.bounds;
        final int k = t.periodOutputs();
        return t.periodInputs() == 1 && (k == 4 || k == 8) && i + LANES <= Math.min(i1, t.lin() - 1)
                && bounds[i] - 1 >= t.unclampedFrom() && bounds[i + LANES + 1] < t.unclampedTo()
                && bounds[i + 1] - bounds[i] == k && bounds[i + 2] - bounds[i + 1] == k
                && lastRow + bounds[i] + foldWindow(k) <= gEnd ? k : 0;
    }

    /** The gradOut positions a group of {@link #fourfoldRun} (k = 4) or {@link #eightfoldRun} (8) reads. */
    private static int foldWindow(int k) {
        return k * LANES + k;
    }

    /**
     * Groups {@code [i, end)} of L inputs of an exactly-4x table (a period of one input and four outputs), whose
     * outputs are all unclamped: lane l of the group from input k has the terms at positions {@code bounds[k] + 4l}
     * to {@code bounds[k] + 4l + 7}, right-tap ones then left-tap ones, with the same eight weights in every lane
     * and group of the run. The four vectors from {@code bounds[k]} are split in two rounds of even and odd
     * positions into the four phases p0-p3 (p_m's lane l at {@code bounds[k] + 4l + m}), and the four from four
     * positions further into q0-q3: each term is one vector times one weight, added in the reference's order, with
     * 16 two-source permutes per row and group where the general wide form takes half groups (a group's terms span
     * 4L + 4 positions, more than its four vectors) with two permutes and a blend per term. Rows one at a time along
     * the run. {@code g} is the address of row 0's gradOut position {@code bounds[i]}, {@code o} of its sum of input i.
     */
    private static void fourfoldRun(LinearTable t, int i, int end, int rows, long g, long gRowBytes, long o,
                                    long oRowBytes) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b];
        final float c1 = t.w1[b + 1];
        final float c2 = t.w1[b + 2];
        final float c3 = t.w1[b + 3];
        final float c4 = t.w0[b + 4];
        final float c5 = t.w0[b + 5];
        final float c6 = t.w0[b + 6];
        final float c7 = t.w0[b + 7];
        final int groups = (end - i) / LANES;
        for (int r = 0; r < rows; r++) {
            long gr = g + r * gRowBytes;
            long or = o + r * oRowBytes;
            for (int k = 0; k < groups; k++, gr += 16L * LANES, or += 4L * LANES) {
                IntVector a0 = IntVector.fromMemorySegment(INTS, RAW, gr, ORDER);
                IntVector a1 = IntVector.fromMemorySegment(INTS, RAW, gr + 4L * LANES, ORDER);
                IntVector a2 = IntVector.fromMemorySegment(INTS, RAW, gr + 8L * LANES, ORDER);
                IntVector a3 = IntVector.fromMemorySegment(INTS, RAW, gr + 12L * LANES, ORDER);
                IntVector e01 = EVEN.selectFrom(a0, a1);
                IntVector o01 = ODD.selectFrom(a0, a1);
                IntVector e23 = EVEN.selectFrom(a2, a3);
                IntVector o23 = ODD.selectFrom(a2, a3);
                IntVector b0 = IntVector.fromMemorySegment(INTS, RAW, gr + 16, ORDER);
                IntVector b1 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 4L * LANES, ORDER);
                IntVector b2 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 8L * LANES, ORDER);
                IntVector b3 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 12L * LANES, ORDER);
                IntVector f01 = EVEN.selectFrom(b0, b1);
                IntVector g01 = ODD.selectFrom(b0, b1);
                IntVector f23 = EVEN.selectFrom(b2, b3);
                IntVector g23 = ODD.selectFrom(b2, b3);
                FloatVector sum = FloatVector.zero(FLOATS)
                        .add(EVEN.selectFrom(e01, e23).reinterpretAsFloats().mul(c0))
                        .add(EVEN.selectFrom(o01, o23).reinterpretAsFloats().mul(c1))
                        .add(ODD.selectFrom(e01, e23).reinterpretAsFloats().mul(c2))
                        .add(ODD.selectFrom(o01, o23).reinterpretAsFloats().mul(c3))
                        .add(EVEN.selectFrom(f01, f23).reinterpretAsFloats().mul(c4))
                        .add(EVEN.selectFrom(g01, g23).reinterpretAsFloats().mul(c5))
                        .add(ODD.selectFrom(f01, f23).reinterpretAsFloats().mul(c6))
                        .add(ODD.selectFrom(g01, g23).reinterpretAsFloats().mul(c7));
                sum.intoMemorySegment(RAW, or, ORDER);
            }
        }
    }

    /**
     * {@link #fourfoldRun} at exactly 8x (a period of one input and eight outputs): lane l of the group from input k
     * has the terms at {@code bounds[k] + 8l} to {@code bounds[k] + 8l + 15}; the eight vectors from
     * {@code bounds[k]}, then the eight from eight positions further, are split into their eight phases in three
     * rounds of even and odd positions (after the second, positions 0, 4, 8, ... of the window are in ee, 2, 6, ...
     * in eo, 1, 5, ... in oe, 3, 7, ... in oo), 48 two-source permutes per row and group, where the buffered tiles
     * took 16 rows at a time through two transposes. Every vector lives in this one method: with the rounds in a
     * helper taking vectors, or the two windows in a loop carrying the sum, the JIT boxed the vectors or took the
     * Vector API's Java fallback.
     */
    private static void eightfoldRun(LinearTable t, int i, int end, int rows, long g, long gRowBytes, long o,
                                     long oRowBytes) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b];
        final float c1 = t.w1[b + 1];
        final float c2 = t.w1[b + 2];
        final float c3 = t.w1[b + 3];
        final float c4 = t.w1[b + 4];
        final float c5 = t.w1[b + 5];
        final float c6 = t.w1[b + 6];
        final float c7 = t.w1[b + 7];
        final float c8 = t.w0[b + 8];
        final float c9 = t.w0[b + 9];
        final float c10 = t.w0[b + 10];
        final float c11 = t.w0[b + 11];
        final float c12 = t.w0[b + 12];
        final float c13 = t.w0[b + 13];
        final float c14 = t.w0[b + 14];
        final float c15 = t.w0[b + 15];
        final int groups = (end - i) / LANES;
        for (int r = 0; r < rows; r++) {
            long gr = g + r * gRowBytes;
            long or = o + r * oRowBytes;
            for (int k = 0; k < groups; k++, gr += 32L * LANES, or += 4L * LANES) {
                // The eight vectors from the group's first position: first round (even, odd).
                IntVector v00 = IntVector.fromMemorySegment(INTS, RAW, gr, ORDER);
                IntVector v01 = IntVector.fromMemorySegment(INTS, RAW, gr + 4L * LANES, ORDER);
                IntVector v02 = IntVector.fromMemorySegment(INTS, RAW, gr + 8L * LANES, ORDER);
                IntVector v03 = IntVector.fromMemorySegment(INTS, RAW, gr + 12L * LANES, ORDER);
                IntVector v04 = IntVector.fromMemorySegment(INTS, RAW, gr + 16L * LANES, ORDER);
                IntVector v05 = IntVector.fromMemorySegment(INTS, RAW, gr + 20L * LANES, ORDER);
                IntVector v06 = IntVector.fromMemorySegment(INTS, RAW, gr + 24L * LANES, ORDER);
                IntVector v07 = IntVector.fromMemorySegment(INTS, RAW, gr + 28L * LANES, ORDER);
                IntVector e00 = EVEN.selectFrom(v00, v01);
                IntVector o00 = ODD.selectFrom(v00, v01);
                IntVector e01 = EVEN.selectFrom(v02, v03);
                IntVector o01 = ODD.selectFrom(v02, v03);
                IntVector e02 = EVEN.selectFrom(v04, v05);
                IntVector o02 = ODD.selectFrom(v04, v05);
                IntVector e03 = EVEN.selectFrom(v06, v07);
                IntVector o03 = ODD.selectFrom(v06, v07);
                IntVector p0ee0 = EVEN.selectFrom(e00, e01);
                IntVector p0ee1 = EVEN.selectFrom(e02, e03);
                IntVector p0eo0 = ODD.selectFrom(e00, e01);
                IntVector p0eo1 = ODD.selectFrom(e02, e03);
                IntVector p0oe0 = EVEN.selectFrom(o00, o01);
                IntVector p0oe1 = EVEN.selectFrom(o02, o03);
                IntVector p0oo0 = ODD.selectFrom(o00, o01);
                IntVector p0oo1 = ODD.selectFrom(o02, o03);
                FloatVector sum = FloatVector.zero(FLOATS)
                        .add(EVEN.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c0))
                        .add(EVEN.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c1))
                        .add(EVEN.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c2))
                        .add(EVEN.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c3))
                        .add(ODD.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c4))
                        .add(ODD.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c5))
                        .add(ODD.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c6))
                        .add(ODD.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c7));
                // The eight from eight positions further: first round (even, odd).
                IntVector v10 = IntVector.fromMemorySegment(INTS, RAW, gr + 32, ORDER);
                IntVector v11 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 4L * LANES, ORDER);
                IntVector v12 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 8L * LANES, ORDER);
                IntVector v13 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 12L * LANES, ORDER);
                IntVector v14 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 16L * LANES, ORDER);
                IntVector v15 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 20L * LANES, ORDER);
                IntVector v16 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 24L * LANES, ORDER);
                IntVector v17 = IntVector.fromMemorySegment(INTS, RAW, gr + 32 + 28L * LANES, ORDER);
                IntVector e10 = EVEN.selectFrom(v10, v11);
                IntVector o10 = ODD.selectFrom(v10, v11);
                IntVector e11 = EVEN.selectFrom(v12, v13);
                IntVector o11 = ODD.selectFrom(v12, v13);
                IntVector e12 = EVEN.selectFrom(v14, v15);
                IntVector o12 = ODD.selectFrom(v14, v15);
                IntVector e13 = EVEN.selectFrom(v16, v17);
                IntVector o13 = ODD.selectFrom(v16, v17);
                IntVector p1ee0 = EVEN.selectFrom(e10, e11);
                IntVector p1ee1 = EVEN.selectFrom(e12, e13);
                IntVector p1eo0 = ODD.selectFrom(e10, e11);
                IntVector p1eo1 = ODD.selectFrom(e12, e13);
                IntVector p1oe0 = EVEN.selectFrom(o10, o11);
                IntVector p1oe1 = EVEN.selectFrom(o12, o13);
                IntVector p1oo0 = ODD.selectFrom(o10, o11);
                IntVector p1oo1 = ODD.selectFrom(o12, o13);
                sum = sum
                        .add(EVEN.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c8))
                        .add(EVEN.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c9))
                        .add(EVEN.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c10))
                        .add(EVEN.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c11))
                        .add(ODD.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c12))
                        .add(ODD.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c13))
                        .add(ODD.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c14))
                        .add(ODD.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c15));
                sum.intoMemorySegment(RAW, or, ORDER);
            }
        }
    }

    /**
     * One group of {@link #backwardInPlaceWide} (FLOAT, in place) that does not hold the row's last input and whose
     * terms all lie within four vectors of gradOut from position {@code base} (ratios up to about 3.75 at 512 bits).
     * Lane l's terms are the consecutive positions {@code bounds[i + l]} to {@code bounds[i + l + 2] - 1} (right-tap
     * ones, then left-tap ones), so their parities alternate. Each row's four vectors from base are split once into
     * their even and their odd positions (four two-source permutes), steps alternate between the two, and a lane
     * whose first position has the other parity starts a step late: a step then takes every lane's next term with
     * one permute, a multiply by the step's weights and a masked add ({@link #parityTable}, {@link #parityRows}: the
     * step table is made once per group for all the call's rows, which go four at a time). Each lane's terms come in
     * the reference's order, with the same products: the old form's sums, bit for bit, with one permute per term
     * instead of two and a blend. {@code g} is the address of row 0's gradOut position 0 (of the table), {@code o}
     * of row 0's sum of input i. (Exactly 4x, where a group's terms span 4L + 4 positions, was tried as two passes,
     * the right-tap terms, then the left-tap ones going on from sums stored in out: slower than the old form, on
     * (32, 64, 4096 → 16384) 10.7 against 6.3 ms in one process.)
     */
    private static void wideByParity(int[] bounds, float[] w0, float[] w1, int i, int count, int base, int rows,
                                     long g, long gRowBytes, long o, long oRowBytes) {
        final int[] active = PARITY_INDEX.get();
        final float[] weight = PARITY_WEIGHT.get();
        int steps = parityTable(active, weight, bounds, i, count, base, w0, w1);
        parityRows(active, weight, steps, 0, rows, g + 4L * base, gRowBytes, 12L * LANES, o, oRowBytes, count);
    }

    /** Groups of L inputs per chunk of {@link WideSteps}. */
    static final int WIDE_CHUNK = 32;
    /** Inputs of the longest axis whose {@link WideSteps} are kept across calls (about 4 MiB of steps at 3.7x). */
    static final int KEPT_STEPS_LIN = 1 << 16;
    /** The {@link WideSteps} of the last axes of at most {@link #KEPT_STEPS_LIN} inputs, most recent first. */
    private static final WideSteps[] KEPT_STEPS = new WideSteps[4];

    /**
     * The table's {@link WideSteps} (null for a window or a deferred table): made once per table, and kept across
     * calls for the last few axes, since every call has a table of its own. Made anew in every call, the steps
     * were made by the Vector API's Java fallback until C2 compiled {@link #parityTable}, which takes a few seconds
     * at a few hundred groups per call: up3.7x's calls took 8.4–8.9 ms instead of 4.6–5.5 in about half of the
     * `bin/opscv bench` processes, whose warm-up had ended by then.
     */
    private static WideSteps wideSteps(LinearTable t) {
        return t.derived(WideSteps.class, () -> {
            if (t.lin() > KEPT_STEPS_LIN) {
                return new WideSteps(t);
            }
            synchronized (KEPT_STEPS) {
                int k = 0;
                while (k < KEPT_STEPS.length - 1 && (KEPT_STEPS[k] == null || !KEPT_STEPS[k].axis.sameAxis(t))) {
                    k++;
                }
                WideSteps steps = KEPT_STEPS[k] != null && KEPT_STEPS[k].axis.sameAxis(t) ? KEPT_STEPS[k]
                        : new WideSteps(t);
                System.arraycopy(KEPT_STEPS, 0, KEPT_STEPS, 1, k);
                KEPT_STEPS[0] = steps;
                return steps;
            }
        });
    }

    /**
     * {@link #wideByParity}'s step tables for the whole groups of L inputs of a table (those from a multiple of L),
     * kept with the table ({@link LinearTable#derived}) and made a chunk of {@link #WIDE_CHUNK} groups at a time,
     * by the first thread that needs it (another may make the same chunk meanwhile: the same values). A group's
     * steps depend on the table only, not on the rows: with them made once, a call's rows need not share a group's
     * set-up, and go four at a time across each run of groups ({@link #wideFours}).
     */
    private static final class WideSteps {
        final AtomicReferenceArray<WideChunk> chunks;
        /** The table is at a ratio of at most 2 and {@link #irregularUpsampling}. */
        final boolean irregular;
        /** The axis the steps were made for ({@link LinearTable#axisKey}). */
        final LinearTable axis;

        WideSteps(LinearTable t) {
            chunks = new AtomicReferenceArray<>((t.lin() / LANES + WIDE_CHUNK - 1) / WIDE_CHUNK);
            irregular = (long) t.lout() <= 2L * t.lin() && !mostlySimilar(t);
            axis = t.axisKey();
        }

        WideChunk chunk(LinearTable t, int c) {
            WideChunk chunk = chunks.get(c);
            if (chunk == null) {
                chunk = new WideChunk(t, c);
                chunks.set(c, chunk);
            }
            return chunk;
        }
    }

    /**
     * The steps of groups {@code c * WIDE_CHUNK} to {@code (c + 1) * WIDE_CHUNK - 1} of L inputs: group k's (of the
     * chunk) in {@code at} and {@code w} from {@code start[k] * L} on, {@code start[k + 1] - start[k]} of them, read
     * from four vectors of gradOut at position {@code base[k]}; -1 there for a group the wide forms do not take
     * from kept steps (a part group, the one with the last input, terms beyond four vectors, a window that would
     * start before the table's first output), and for one past the table's last whole group.
     */
    private static final class WideChunk {
        final byte[] at;
        final float[] w;
        final int[] start = new int[WIDE_CHUNK + 1];
        final int[] base = new int[WIDE_CHUNK];

        WideChunk(LinearTable t, int c) {
            final int[] bounds = t.bounds;
            final int window = 4 * LANES;
            final int[] active = PARITY_INDEX.get();
            final float[] weight = PARITY_WEIGHT.get();
            int[] at = new int[0];
            float[] w = new float[0];
            int total = 0;
            for (int k = 0; k < WIDE_CHUNK; k++) {
                int i = (c * WIDE_CHUNK + k) * LANES;
                start[k] = total;
                base[k] = -1;
                // Whole groups without the last input (whose doubled terms the steps do not take), whose terms lie
                // within four vectors.
                if (i + LANES >= t.lin()) {
                    continue;
                }
                int rightBase = bounds[i];
                // As backwardInPlaceWide's window, but for the call's last row; none below 0 (fewer than 2L outputs).
                int b = Math.min(rightBase, t.w0.length - window);
                if (bounds[i + LANES + 1] - rightBase > window || b < 0) {
                    continue;
                }
                base[k] = b;
                int steps = parityTable(active, weight, bounds, i, LANES, b, t.w0, t.w1);
                if ((total + steps) * LANES > at.length) {
                    at = Arrays.copyOf(at, Math.max(2 * at.length, (total + steps) * LANES));
                    w = Arrays.copyOf(w, at.length);
                }
                System.arraycopy(active, 0, at, total * LANES, steps * LANES);
                System.arraycopy(weight, 0, w, total * LANES, steps * LANES);
                total += steps;
            }
            start[WIDE_CHUNK] = total;
            // Indices as bytes (-1 to 2L - 1), with room for a load of BYTES from the last step.
            this.at = new byte[total * LANES + BYTES.length()];
            for (int k = 0; k < total * LANES; k++) {
                this.at[k] = (byte) at[k];
            }
            this.w = Arrays.copyOf(w, total * LANES);
        }
    }

    /**
     * Groups {@code k0} to {@code k1 - 1} of a chunk of {@link WideSteps} ({@link #parityFours}' loop for each), of
     * rows four at a time, each quad going across a sub-run of the groups ({@link #wideSubRun}) before the next quad
     * does: four read and four write streams. {@code g} is the
     * address of row 0's gradOut position 0 (of the table), {@code o} of row 0's sum of group k0's first input.
     * Returns the first row left.
     */
    private static int wideFours(WideChunk chunk, int k0, int k1, int rows, long g, long gs, long o, long os) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        // Sub-runs of about WIDE_RUN_POSITIONS gradOut positions of a row, the quads across each in turn.
        final int sub = wideSubRun(base, k0, k1);
        for (int z0 = k0; z0 < k1; z0 += sub) {
            final int z1 = Math.min(k1, z0 + sub);
            for (int r = 0; r + 3 < rows; r += 4) {
                long out = o + r * os + (z0 - k0) * 4L * LANES;
                for (int k = z0; k < z1; k++, out += 4L * LANES) {
                    long q = g + r * gs + 4L * base[k];
                    IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                    IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                    IntVector gc = IntVector.fromMemorySegment(INTS, RAW, q + 8L * LANES, ORDER);
                    IntVector gd = IntVector.fromMemorySegment(INTS, RAW, q + 12L * LANES, ORDER);
                    IntVector g0 = EVEN.selectFrom(ga, gb);
                    IntVector g1 = EVEN.selectFrom(gc, gd);
                    IntVector g2 = ODD.selectFrom(ga, gb);
                    IntVector g3 = ODD.selectFrom(gc, gd);
                    q += gs;
                    ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                    gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                    gc = IntVector.fromMemorySegment(INTS, RAW, q + 8L * LANES, ORDER);
                    gd = IntVector.fromMemorySegment(INTS, RAW, q + 12L * LANES, ORDER);
                    IntVector h0 = EVEN.selectFrom(ga, gb);
                    IntVector h1 = EVEN.selectFrom(gc, gd);
                    IntVector h2 = ODD.selectFrom(ga, gb);
                    IntVector h3 = ODD.selectFrom(gc, gd);
                    q += gs;
                    ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                    gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                    gc = IntVector.fromMemorySegment(INTS, RAW, q + 8L * LANES, ORDER);
                    gd = IntVector.fromMemorySegment(INTS, RAW, q + 12L * LANES, ORDER);
                    IntVector i0 = EVEN.selectFrom(ga, gb);
                    IntVector i1 = EVEN.selectFrom(gc, gd);
                    IntVector i2 = ODD.selectFrom(ga, gb);
                    IntVector i3 = ODD.selectFrom(gc, gd);
                    q += gs;
                    ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                    gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                    gc = IntVector.fromMemorySegment(INTS, RAW, q + 8L * LANES, ORDER);
                    gd = IntVector.fromMemorySegment(INTS, RAW, q + 12L * LANES, ORDER);
                    IntVector j0 = EVEN.selectFrom(ga, gb);
                    IntVector j1 = EVEN.selectFrom(gc, gd);
                    IntVector j2 = ODD.selectFrom(ga, gb);
                    IntVector j3 = ODD.selectFrom(gc, gd);
                    FloatVector s1 = FloatVector.zero(FLOATS);
                    FloatVector s2 = s1;
                    FloatVector s3 = s1;
                    FloatVector s4 = s1;
                    for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                        IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                                .convertShape(VectorOperators.B2I, INTS, 0);
                        VectorMask<Float> has = a.compare(VectorOperators.GE, 0).cast(FLOATS);
                        FloatVector v = FloatVector.fromArray(FLOATS, w, s);
                        s1 = s1.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(v), has);
                        s2 = s2.add(a.selectFrom(h0, h1).reinterpretAsFloats().mul(v), has);
                        s3 = s3.add(a.selectFrom(i0, i1).reinterpretAsFloats().mul(v), has);
                        s4 = s4.add(a.selectFrom(j0, j1).reinterpretAsFloats().mul(v), has);
                        IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                                .convertShape(VectorOperators.B2I, INTS, 0);
                        VectorMask<Float> has2 = b.compare(VectorOperators.GE, 0).cast(FLOATS);
                        FloatVector u = FloatVector.fromArray(FLOATS, w, s + LANES);
                        s1 = s1.add(b.selectFrom(g2, g3).reinterpretAsFloats().mul(u), has2);
                        s2 = s2.add(b.selectFrom(h2, h3).reinterpretAsFloats().mul(u), has2);
                        s3 = s3.add(b.selectFrom(i2, i3).reinterpretAsFloats().mul(u), has2);
                        s4 = s4.add(b.selectFrom(j2, j3).reinterpretAsFloats().mul(u), has2);
                    }
                    s1.intoMemorySegment(RAW, out, ORDER);
                    s2.intoMemorySegment(RAW, out + os, ORDER);
                    s3.intoMemorySegment(RAW, out + 2 * os, ORDER);
                    s4.intoMemorySegment(RAW, out + 3 * os, ORDER);
                }
            }
        }
        return rows & ~3;
    }

    /** Groups per sub-run of {@code k0} to {@code k1 - 1} in {@link #wideFours}: about {@link #WIDE_RUN_POSITIONS}. */
    private static int wideSubRun(int[] base, int k0, int k1) {
        if (k1 - k0 < 2) {
            return 1;
        }
        int span = base[k1 - 1] - base[k0];
        return span <= 0 ? k1 - k0 : Math.max(1, (int) ((long) WIDE_RUN_POSITIONS * (k1 - 1 - k0) / span));
    }

    /** {@link #wideFours}' rows from {@code r} on, one by one. */
    private static void wideOnes(WideChunk chunk, int k0, int k1, int r, int rows, long g, long gs, long o, long os) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        for (; r < rows; r++) {
            long out = o + r * os;
            for (int k = k0; k < k1; k++, out += 4L * LANES) {
                long q = g + r * gs + 4L * base[k];
                IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector gc = IntVector.fromMemorySegment(INTS, RAW, q + 8L * LANES, ORDER);
                IntVector gd = IntVector.fromMemorySegment(INTS, RAW, q + 12L * LANES, ORDER);
                IntVector g0 = EVEN.selectFrom(ga, gb);
                IntVector g1 = EVEN.selectFrom(gc, gd);
                IntVector g2 = ODD.selectFrom(ga, gb);
                IntVector g3 = ODD.selectFrom(gc, gd);
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                    IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(FloatVector.fromArray(FLOATS, w, s)),
                            a.compare(VectorOperators.GE, 0).cast(FLOATS));
                    IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(b.selectFrom(g2, g3).reinterpretAsFloats()
                                    .mul(FloatVector.fromArray(FLOATS, w, s + LANES)),
                            b.compare(VectorOperators.GE, 0).cast(FLOATS));
                }
                sum.intoMemorySegment(RAW, out, ORDER);
            }
        }
    }

    /**
     * {@link #wideFours} for BF16: a group's 4L halfs from its base, loaded as 2L ints, hold the even positions in
     * their low halves and the odd ones in their high halves, so the split is a shift or a mask per vector (exact
     * widening), no permute; the sums are rounded to nearest even as {@link #bf16PairsInPlace} does (a NaN sum here
     * comes from a NaN in gradOut or from 0·∞ or ∞ - ∞, and has no low bits to carry into its high half).
     */
    private static int wideFoursBf16(WideChunk chunk, int k0, int k1, int rows, long g, long gs, long o, long os) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        int r = 0;
        for (; r + 3 < rows; r += 4) {
            long out = o + r * os;
            for (int k = k0; k < k1; k++, out += 2L * LANES) {
                long q = g + r * gs + 2L * base[k];
                IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector g0 = ga.lanewise(VectorOperators.LSHL, 16);
                IntVector g1 = gb.lanewise(VectorOperators.LSHL, 16);
                IntVector g2 = ga.and(0xffff0000);
                IntVector g3 = gb.and(0xffff0000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector h0 = ga.lanewise(VectorOperators.LSHL, 16);
                IntVector h1 = gb.lanewise(VectorOperators.LSHL, 16);
                IntVector h2 = ga.and(0xffff0000);
                IntVector h3 = gb.and(0xffff0000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector i0 = ga.lanewise(VectorOperators.LSHL, 16);
                IntVector i1 = gb.lanewise(VectorOperators.LSHL, 16);
                IntVector i2 = ga.and(0xffff0000);
                IntVector i3 = gb.and(0xffff0000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector j0 = ga.lanewise(VectorOperators.LSHL, 16);
                IntVector j1 = gb.lanewise(VectorOperators.LSHL, 16);
                IntVector j2 = ga.and(0xffff0000);
                IntVector j3 = gb.and(0xffff0000);
                FloatVector s1 = FloatVector.zero(FLOATS);
                FloatVector s2 = s1;
                FloatVector s3 = s1;
                FloatVector s4 = s1;
                for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                    IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    VectorMask<Float> has = a.compare(VectorOperators.GE, 0).cast(FLOATS);
                    FloatVector v = FloatVector.fromArray(FLOATS, w, s);
                    s1 = s1.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(v), has);
                    s2 = s2.add(a.selectFrom(h0, h1).reinterpretAsFloats().mul(v), has);
                    s3 = s3.add(a.selectFrom(i0, i1).reinterpretAsFloats().mul(v), has);
                    s4 = s4.add(a.selectFrom(j0, j1).reinterpretAsFloats().mul(v), has);
                    IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    VectorMask<Float> has2 = b.compare(VectorOperators.GE, 0).cast(FLOATS);
                    FloatVector u = FloatVector.fromArray(FLOATS, w, s + LANES);
                    s1 = s1.add(b.selectFrom(g2, g3).reinterpretAsFloats().mul(u), has2);
                    s2 = s2.add(b.selectFrom(h2, h3).reinterpretAsFloats().mul(u), has2);
                    s3 = s3.add(b.selectFrom(i2, i3).reinterpretAsFloats().mul(u), has2);
                    s4 = s4.add(b.selectFrom(j2, j3).reinterpretAsFloats().mul(u), has2);
                }
                IntVector b1 = s1.reinterpretAsInts();
                b1.add(0x7fff).add(b1.lanewise(VectorOperators.LSHR, 16).and(1)).lanewise(VectorOperators.LSHR, 16)
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out, ORDER);
                IntVector b2 = s2.reinterpretAsInts();
                b2.add(0x7fff).add(b2.lanewise(VectorOperators.LSHR, 16).and(1)).lanewise(VectorOperators.LSHR, 16)
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + os, ORDER);
                IntVector b3 = s3.reinterpretAsInts();
                b3.add(0x7fff).add(b3.lanewise(VectorOperators.LSHR, 16).and(1)).lanewise(VectorOperators.LSHR, 16)
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + 2 * os, ORDER);
                IntVector b4 = s4.reinterpretAsInts();
                b4.add(0x7fff).add(b4.lanewise(VectorOperators.LSHR, 16).and(1)).lanewise(VectorOperators.LSHR, 16)
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + 3 * os, ORDER);
            }
        }
        return r;
    }

    /** {@link #wideFoursBf16}' rows from {@code r} on, one by one. */
    private static void wideOnesBf16(WideChunk chunk, int k0, int k1, int r, int rows, long g, long gs, long o,
                                     long os) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        for (; r < rows; r++) {
            long out = o + r * os;
            for (int k = k0; k < k1; k++, out += 2L * LANES) {
                long q = g + r * gs + 2L * base[k];
                IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                IntVector g0 = ga.lanewise(VectorOperators.LSHL, 16);
                IntVector g1 = gb.lanewise(VectorOperators.LSHL, 16);
                IntVector g2 = ga.and(0xffff0000);
                IntVector g3 = gb.and(0xffff0000);
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                    IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(FloatVector.fromArray(FLOATS, w, s)),
                            a.compare(VectorOperators.GE, 0).cast(FLOATS));
                    IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(b.selectFrom(g2, g3).reinterpretAsFloats()
                                    .mul(FloatVector.fromArray(FLOATS, w, s + LANES)),
                            b.compare(VectorOperators.GE, 0).cast(FLOATS));
                }
                IntVector bits = sum.reinterpretAsInts();
                bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1)).lanewise(VectorOperators.LSHR, 16)
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out, ORDER);
            }
        }
    }

    /**
     * BF16 and FP16 rows in place at ratios between 2 and 4, and their irregular upsampling: the FLOAT wide form's
     * kept steps ({@link WideSteps}) on runs of whole groups from a multiple of L ({@link #wideFoursBf16},
     * {@link #wideFoursHalf}); at exactly 4x, runs of unclamped groups in registers ({@link #fourfoldRunBf16},
     * {@link #fourfoldRowHalf}); the other inputs (a call's first and last groups where they are part groups, the
     * group with the row's last input, groups whose four vectors would reach past the call's last row, groups whose
     * terms reach past four vectors at ratios from about 3.75 to 4) through FLOAT scratch and the FLOAT wide form
     * ({@link #wideThroughFloats}). FP16 rows whose halfs in a run hold an infinity or a NaN, which its widening does
     * not keep, have the run redone after it (no call inside the loops, where vectors are live): through the
     * buffered form, or at 4x through FLOAT scratch.
     */
    private static void backwardInPlaceWide16(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut,
                                              long gFirst, long gRowStride, MemorySegment out, long oFirst,
                                              long oRowStride, DataType type) {
        final int jLo = t.gatherFrom(i0);
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        final long limit = Math.min(gradOut.byteSize() / 2 - lastRow, t.w0.length) - 4L * LANES;
        final WideSteps steps = wideSteps(t);
        final long g = gradOut.address() + (gFirst - jLo) * 2;
        // redo[0] rows whose run is redone, listed from redo[1] (FP16 only).
        final int[] redo = redoRows(rows + 1);
        final int[] bounds = t.bounds;
        final int last = t.lin() - 1;
        final long gEnd = gradOut.byteSize() / 2;
        for (int i = i0; i < i1; ) {
            int fold = foldGroup(t, i, i1, lastRow, gEnd);
            if (fold > 0) {
                // Exactly 4x or 8x: a run of unclamped groups in registers, as the FLOAT form's fourfoldRun and
                // eightfoldRun.
                int end = regularRunEnd(bounds, i, Math.min(i1, last), t.unclampedFrom(), t.unclampedTo(),
                        foldWindow(fold), lastRow, gEnd);
                long gr = gradOut.address() + (gFirst - jLo + bounds[i]) * 2;
                long o = out.address() + (oFirst + i - i0) * 2;
                if (type == DataType.BF16) {
                    if (fold == 4) {
                        fourfoldRunBf16(t, i, end, rows, gr, 2 * gRowStride, o, 2 * oRowStride);
                    } else {
                        eightfoldRunBf16(t, i, end, rows, gr, 2 * gRowStride, o, 2 * oRowStride);
                    }
                } else {
                    for (int r = 0; r < rows; r++) {
                        long gRow = gr + r * 2 * gRowStride;
                        long oRow = o + r * 2 * oRowStride;
                        if (fold == 4 ? fourfoldRowHalf(t, i, end, gRow, oRow) : eightfoldRowHalf(t, i, end, gRow, oRow)) {
                            // An infinity or a NaN among the row's halfs: the row's run through FLOAT scratch.
                            wideThroughFloats(t, i, end, 1, gradOut, gFirst + r * gRowStride + t.gatherFrom(i) - jLo,
                                    gRowStride, out, oFirst + r * oRowStride + i - i0, oRowStride, type);
                        }
                    }
                }
                i = end;
                continue;
            }
            WideChunk chunk = keptChunk(t, steps, i, i1, jLo, limit);
            int k = i / LANES % WIDE_CHUNK;
            if (chunk != null) {
                int end = wideRunEnd(t.bounds, chunk, i, i1, limit);
                int k1 = k + (end - i) / LANES;
                long o = out.address() + (oFirst + i - i0) * 2;
                redo[0] = 0;
                if (type == DataType.BF16) {
                    int r = wideFoursBf16(chunk, k, k1, rows, g, 2 * gRowStride, o, 2 * oRowStride);
                    wideOnesBf16(chunk, k, k1, r, rows, g, 2 * gRowStride, o, 2 * oRowStride);
                } else {
                    int r = wideFoursHalf(chunk, k, k1, rows, g, 2 * gRowStride, o, 2 * oRowStride, redo);
                    wideOnesHalf(chunk, k, k1, r, rows, g, 2 * gRowStride, o, 2 * oRowStride, redo);
                }
                for (int q = 1; q <= redo[0]; q++) {
                    int row = redo[q];
                    bufferedInputs(t, i, end, gradOut, gFirst + row * gRowStride - jLo, out,
                            oFirst + row * oRowStride + i - i0, type);
                }
                i = end;
                continue;
            }
            // Up to the next group the kept steps take: through FLOAT scratch and the FLOAT wide form.
            int next = Math.min(i1, (i / LANES + 1) * LANES);
            while (next < i1 && keptChunk(t, steps, next, i1, jLo, limit) == null
                    && foldGroup(t, next, i1, lastRow, gEnd) == 0) {
                next = Math.min(i1, next + LANES);
            }
            wideThroughFloats(t, i, next, rows, gradOut, gFirst + t.gatherFrom(i) - jLo, gRowStride, out,
                    oFirst + i - i0, oRowStride, type);
            i = next;
        }
    }

    /**
     * {@link #fourfoldRun} for BF16 rows: a group's 4L + 4 halfs loaded as ints, two per int, whose low halves
     * shifted left 16 are the even positions and whose high halves masked are the odd ones, exactly widened (the
     * first round of the phase split for free), then the second round and the eight terms as the FLOAT form; the
     * sums rounded to nearest even as {@link #bf16PairsInPlace}. {@code g} is the address of row 0's gradOut
     * position {@code bounds[i]}, {@code o} of its out element for input i.
     */
    private static void fourfoldRunBf16(LinearTable t, int i, int end, int rows, long g, long gRowBytes, long o,
                                        long oRowBytes) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b];
        final float c1 = t.w1[b + 1];
        final float c2 = t.w1[b + 2];
        final float c3 = t.w1[b + 3];
        final float c4 = t.w0[b + 4];
        final float c5 = t.w0[b + 5];
        final float c6 = t.w0[b + 6];
        final float c7 = t.w0[b + 7];
        final int groups = (end - i) / LANES;
        for (int r = 0; r < rows; r++) {
            long gr = g + r * gRowBytes;
            long or = o + r * oRowBytes;
            for (int k = 0; k < groups; k++, gr += 8L * LANES, or += 2L * LANES) {
                IntVector x0 = IntVector.fromMemorySegment(INTS, RAW, gr, ORDER);
                IntVector x1 = IntVector.fromMemorySegment(INTS, RAW, gr + 4L * LANES, ORDER);
                IntVector y0 = IntVector.fromMemorySegment(INTS, RAW, gr + 8, ORDER);
                IntVector y1 = IntVector.fromMemorySegment(INTS, RAW, gr + 8 + 4L * LANES, ORDER);
                IntVector e01 = x0.lanewise(VectorOperators.LSHL, 16);
                IntVector o01 = x0.and(0xffff0000);
                IntVector e23 = x1.lanewise(VectorOperators.LSHL, 16);
                IntVector o23 = x1.and(0xffff0000);
                IntVector f01 = y0.lanewise(VectorOperators.LSHL, 16);
                IntVector g01 = y0.and(0xffff0000);
                IntVector f23 = y1.lanewise(VectorOperators.LSHL, 16);
                IntVector g23 = y1.and(0xffff0000);
                IntVector bits = FloatVector.zero(FLOATS)
                        .add(EVEN.selectFrom(e01, e23).reinterpretAsFloats().mul(c0))
                        .add(EVEN.selectFrom(o01, o23).reinterpretAsFloats().mul(c1))
                        .add(ODD.selectFrom(e01, e23).reinterpretAsFloats().mul(c2))
                        .add(ODD.selectFrom(o01, o23).reinterpretAsFloats().mul(c3))
                        .add(EVEN.selectFrom(f01, f23).reinterpretAsFloats().mul(c4))
                        .add(EVEN.selectFrom(g01, g23).reinterpretAsFloats().mul(c5))
                        .add(ODD.selectFrom(f01, f23).reinterpretAsFloats().mul(c6))
                        .add(ODD.selectFrom(g01, g23).reinterpretAsFloats().mul(c7)).reinterpretAsInts();
                bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                        .lanewise(VectorOperators.LSHR, 16).convertShape(VectorOperators.I2S, HALFS, 0)
                        .reinterpretAsShorts().intoMemorySegment(RAW, or, ORDER);
            }
        }
    }

    /**
     * {@link #fourfoldRunBf16} for one FP16 row: each half moved into float position as 2^-112 times its value
     * (an arithmetic shift right by 3 of its int, the low one after a shift left by 16, masked: exact for finite
     * halfs, subnormals included) and the weights taken 2^112 times theirs, as {@link #halfRowsInPlace}; the sums
     * rounded as there. Returns whether the row's halfs hold an infinity or a NaN (exponent 31, which this widening
     * does not keep): the caller then sums the row's run again another way (out never overlaps gradOut).
     */
    private static boolean fourfoldRowHalf(LinearTable t, int i, int end, long g, long o) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b] * 0x1p112f;
        final float c1 = t.w1[b + 1] * 0x1p112f;
        final float c2 = t.w1[b + 2] * 0x1p112f;
        final float c3 = t.w1[b + 3] * 0x1p112f;
        final float c4 = t.w0[b + 4] * 0x1p112f;
        final float c5 = t.w0[b + 5] * 0x1p112f;
        final float c6 = t.w0[b + 6] * 0x1p112f;
        final float c7 = t.w0[b + 7] * 0x1p112f;
        final int groups = (end - i) / LANES;
        IntVector special = IntVector.zero(INTS);
        for (int k = 0; k < groups; k++, g += 8L * LANES, o += 2L * LANES) {
            IntVector x0 = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            IntVector x1 = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            IntVector y0 = IntVector.fromMemorySegment(INTS, RAW, g + 8, ORDER);
            IntVector y1 = IntVector.fromMemorySegment(INTS, RAW, g + 8 + 4L * LANES, ORDER);
            // Exponent 31 carries into a sign bit here. The y loads hold every half of the run but its first four,
            // tested after the loop.
            special = y0.and(0x7c007c00).add(0x04000400).or(special);
            special = y1.and(0x7c007c00).add(0x04000400).or(special);
            IntVector e01 = x0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o01 = x0.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e23 = x1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o23 = x1.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector f01 = y0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector g01 = y0.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector f23 = y1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector g23 = y1.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            FloatVector sum = FloatVector.zero(FLOATS)
                    .add(EVEN.selectFrom(e01, e23).reinterpretAsFloats().mul(c0))
                    .add(EVEN.selectFrom(o01, o23).reinterpretAsFloats().mul(c1))
                    .add(ODD.selectFrom(e01, e23).reinterpretAsFloats().mul(c2))
                    .add(ODD.selectFrom(o01, o23).reinterpretAsFloats().mul(c3))
                    .add(EVEN.selectFrom(f01, f23).reinterpretAsFloats().mul(c4))
                    .add(EVEN.selectFrom(g01, g23).reinterpretAsFloats().mul(c5))
                    .add(ODD.selectFrom(f01, f23).reinterpretAsFloats().mul(c6))
                    .add(ODD.selectFrom(g01, g23).reinterpretAsFloats().mul(c7));
            IntVector bits = sum.reinterpretAsInts();
            IntVector magnitude = bits.and(0x7fffffff);
            FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
            magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                    .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                    .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                    .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                    .intoMemorySegment(RAW, o, ORDER);
        }
        long first = g - 8L * LANES * groups;
        for (int q = 0; q < 2; q++) {
            int head = RAW.get(ValueLayout.JAVA_INT_UNALIGNED, first + 4L * q);
            special = IntVector.broadcast(INTS, (head & 0x7c007c00) + 0x04000400).or(special);
        }
        return IntVector.broadcast(INTS, 0x80008000).and(special).compare(VectorOperators.NE, 0).anyTrue();
    }

    /**
     * {@link #eightfoldRun} for BF16 rows, widened as {@link #fourfoldRunBf16}: the first round of the phase split is
     * the widening of the halfs loaded as ints, two per int.
     */
    private static void eightfoldRunBf16(LinearTable t, int i, int end, int rows, long g, long gRowBytes, long o,
                                         long oRowBytes) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b];
        final float c1 = t.w1[b + 1];
        final float c2 = t.w1[b + 2];
        final float c3 = t.w1[b + 3];
        final float c4 = t.w1[b + 4];
        final float c5 = t.w1[b + 5];
        final float c6 = t.w1[b + 6];
        final float c7 = t.w1[b + 7];
        final float c8 = t.w0[b + 8];
        final float c9 = t.w0[b + 9];
        final float c10 = t.w0[b + 10];
        final float c11 = t.w0[b + 11];
        final float c12 = t.w0[b + 12];
        final float c13 = t.w0[b + 13];
        final float c14 = t.w0[b + 14];
        final float c15 = t.w0[b + 15];
        final int groups = (end - i) / LANES;
        for (int r = 0; r < rows; r++) {
            long gr = g + r * gRowBytes;
            long or = o + r * oRowBytes;
            for (int k = 0; k < groups; k++, gr += 16L * LANES, or += 2L * LANES) {
                // The group's first 8L halfs, two per int: the first round is the widening.
                IntVector x00 = IntVector.fromMemorySegment(INTS, RAW, gr, ORDER);
                IntVector x01 = IntVector.fromMemorySegment(INTS, RAW, gr + 4L * LANES, ORDER);
                IntVector x02 = IntVector.fromMemorySegment(INTS, RAW, gr + 8L * LANES, ORDER);
                IntVector x03 = IntVector.fromMemorySegment(INTS, RAW, gr + 12L * LANES, ORDER);
                IntVector e00 = x00.lanewise(VectorOperators.LSHL, 16);
                IntVector o00 = x00.and(0xffff0000);
                IntVector e01 = x01.lanewise(VectorOperators.LSHL, 16);
                IntVector o01 = x01.and(0xffff0000);
                IntVector e02 = x02.lanewise(VectorOperators.LSHL, 16);
                IntVector o02 = x02.and(0xffff0000);
                IntVector e03 = x03.lanewise(VectorOperators.LSHL, 16);
                IntVector o03 = x03.and(0xffff0000);
                IntVector p0ee0 = EVEN.selectFrom(e00, e01);
                IntVector p0ee1 = EVEN.selectFrom(e02, e03);
                IntVector p0eo0 = ODD.selectFrom(e00, e01);
                IntVector p0eo1 = ODD.selectFrom(e02, e03);
                IntVector p0oe0 = EVEN.selectFrom(o00, o01);
                IntVector p0oe1 = EVEN.selectFrom(o02, o03);
                IntVector p0oo0 = ODD.selectFrom(o00, o01);
                IntVector p0oo1 = ODD.selectFrom(o02, o03);
                FloatVector sum = FloatVector.zero(FLOATS)
                        .add(EVEN.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c0))
                        .add(EVEN.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c1))
                        .add(EVEN.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c2))
                        .add(EVEN.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c3))
                        .add(ODD.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c4))
                        .add(ODD.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c5))
                        .add(ODD.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c6))
                        .add(ODD.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c7));
                // The 8L from eight positions further, two per int: the first round is the widening.
                IntVector x10 = IntVector.fromMemorySegment(INTS, RAW, gr + 16, ORDER);
                IntVector x11 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 4L * LANES, ORDER);
                IntVector x12 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 8L * LANES, ORDER);
                IntVector x13 = IntVector.fromMemorySegment(INTS, RAW, gr + 16 + 12L * LANES, ORDER);
                IntVector e10 = x10.lanewise(VectorOperators.LSHL, 16);
                IntVector o10 = x10.and(0xffff0000);
                IntVector e11 = x11.lanewise(VectorOperators.LSHL, 16);
                IntVector o11 = x11.and(0xffff0000);
                IntVector e12 = x12.lanewise(VectorOperators.LSHL, 16);
                IntVector o12 = x12.and(0xffff0000);
                IntVector e13 = x13.lanewise(VectorOperators.LSHL, 16);
                IntVector o13 = x13.and(0xffff0000);
                IntVector p1ee0 = EVEN.selectFrom(e10, e11);
                IntVector p1ee1 = EVEN.selectFrom(e12, e13);
                IntVector p1eo0 = ODD.selectFrom(e10, e11);
                IntVector p1eo1 = ODD.selectFrom(e12, e13);
                IntVector p1oe0 = EVEN.selectFrom(o10, o11);
                IntVector p1oe1 = EVEN.selectFrom(o12, o13);
                IntVector p1oo0 = ODD.selectFrom(o10, o11);
                IntVector p1oo1 = ODD.selectFrom(o12, o13);
                sum = sum
                        .add(EVEN.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c8))
                        .add(EVEN.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c9))
                        .add(EVEN.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c10))
                        .add(EVEN.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c11))
                        .add(ODD.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c12))
                        .add(ODD.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c13))
                        .add(ODD.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c14))
                        .add(ODD.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c15));
                IntVector bits = sum.reinterpretAsInts();
                bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                        .lanewise(VectorOperators.LSHR, 16).convertShape(VectorOperators.I2S, HALFS, 0)
                        .reinterpretAsShorts().intoMemorySegment(RAW, or, ORDER);
            }
        }
    }

    /**
     * {@link #eightfoldRunBf16} for one FP16 row, widened and rounded as {@link #fourfoldRowHalf}. Returns whether the
     * row's halfs hold an infinity or a NaN, as there.
     */
    private static boolean eightfoldRowHalf(LinearTable t, int i, int end, long g, long o) {
        final int b = t.bounds[i];
        final float c0 = t.w1[b] * 0x1p112f;
        final float c1 = t.w1[b + 1] * 0x1p112f;
        final float c2 = t.w1[b + 2] * 0x1p112f;
        final float c3 = t.w1[b + 3] * 0x1p112f;
        final float c4 = t.w1[b + 4] * 0x1p112f;
        final float c5 = t.w1[b + 5] * 0x1p112f;
        final float c6 = t.w1[b + 6] * 0x1p112f;
        final float c7 = t.w1[b + 7] * 0x1p112f;
        final float c8 = t.w0[b + 8] * 0x1p112f;
        final float c9 = t.w0[b + 9] * 0x1p112f;
        final float c10 = t.w0[b + 10] * 0x1p112f;
        final float c11 = t.w0[b + 11] * 0x1p112f;
        final float c12 = t.w0[b + 12] * 0x1p112f;
        final float c13 = t.w0[b + 13] * 0x1p112f;
        final float c14 = t.w0[b + 14] * 0x1p112f;
        final float c15 = t.w0[b + 15] * 0x1p112f;
        final int groups = (end - i) / LANES;
        IntVector special = IntVector.zero(INTS);
        for (int k = 0; k < groups; k++, g += 16L * LANES, o += 2L * LANES) {
            // The group's first 8L halfs, two per int, widened into the first round's vectors.
            IntVector x00 = IntVector.fromMemorySegment(INTS, RAW, g, ORDER);
            IntVector x01 = IntVector.fromMemorySegment(INTS, RAW, g + 4L * LANES, ORDER);
            IntVector x02 = IntVector.fromMemorySegment(INTS, RAW, g + 8L * LANES, ORDER);
            IntVector x03 = IntVector.fromMemorySegment(INTS, RAW, g + 12L * LANES, ORDER);
            // Exponent 31 carries into a sign bit here. The first windows hold every half of the run but the last
            // group's second window's last eight, tested after the loop.
            special = x00.and(0x7c007c00).add(0x04000400).or(special);
            special = x01.and(0x7c007c00).add(0x04000400).or(special);
            special = x02.and(0x7c007c00).add(0x04000400).or(special);
            special = x03.and(0x7c007c00).add(0x04000400).or(special);
            IntVector e00 = x00.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o00 = x00.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e01 = x01.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o01 = x01.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e02 = x02.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o02 = x02.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e03 = x03.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o03 = x03.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector p0ee0 = EVEN.selectFrom(e00, e01);
            IntVector p0ee1 = EVEN.selectFrom(e02, e03);
            IntVector p0eo0 = ODD.selectFrom(e00, e01);
            IntVector p0eo1 = ODD.selectFrom(e02, e03);
            IntVector p0oe0 = EVEN.selectFrom(o00, o01);
            IntVector p0oe1 = EVEN.selectFrom(o02, o03);
            IntVector p0oo0 = ODD.selectFrom(o00, o01);
            IntVector p0oo1 = ODD.selectFrom(o02, o03);
            FloatVector sum = FloatVector.zero(FLOATS)
                    .add(EVEN.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c0))
                    .add(EVEN.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c1))
                    .add(EVEN.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c2))
                    .add(EVEN.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c3))
                    .add(ODD.selectFrom(p0ee0, p0ee1).reinterpretAsFloats().mul(c4))
                    .add(ODD.selectFrom(p0oe0, p0oe1).reinterpretAsFloats().mul(c5))
                    .add(ODD.selectFrom(p0eo0, p0eo1).reinterpretAsFloats().mul(c6))
                    .add(ODD.selectFrom(p0oo0, p0oo1).reinterpretAsFloats().mul(c7));
            // The 8L from eight positions further, two per int, widened into the first round's vectors.
            IntVector x10 = IntVector.fromMemorySegment(INTS, RAW, g + 16, ORDER);
            IntVector x11 = IntVector.fromMemorySegment(INTS, RAW, g + 16 + 4L * LANES, ORDER);
            IntVector x12 = IntVector.fromMemorySegment(INTS, RAW, g + 16 + 8L * LANES, ORDER);
            IntVector x13 = IntVector.fromMemorySegment(INTS, RAW, g + 16 + 12L * LANES, ORDER);
            IntVector e10 = x10.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o10 = x10.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e11 = x11.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o11 = x11.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e12 = x12.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o12 = x12.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector e13 = x13.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector o13 = x13.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector p1ee0 = EVEN.selectFrom(e10, e11);
            IntVector p1ee1 = EVEN.selectFrom(e12, e13);
            IntVector p1eo0 = ODD.selectFrom(e10, e11);
            IntVector p1eo1 = ODD.selectFrom(e12, e13);
            IntVector p1oe0 = EVEN.selectFrom(o10, o11);
            IntVector p1oe1 = EVEN.selectFrom(o12, o13);
            IntVector p1oo0 = ODD.selectFrom(o10, o11);
            IntVector p1oo1 = ODD.selectFrom(o12, o13);
            sum = sum
                    .add(EVEN.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c8))
                    .add(EVEN.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c9))
                    .add(EVEN.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c10))
                    .add(EVEN.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c11))
                    .add(ODD.selectFrom(p1ee0, p1ee1).reinterpretAsFloats().mul(c12))
                    .add(ODD.selectFrom(p1oe0, p1oe1).reinterpretAsFloats().mul(c13))
                    .add(ODD.selectFrom(p1eo0, p1eo1).reinterpretAsFloats().mul(c14))
                    .add(ODD.selectFrom(p1oo0, p1oo1).reinterpretAsFloats().mul(c15));
            IntVector bits = sum.reinterpretAsInts();
            IntVector magnitude = bits.and(0x7fffffff);
            FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
            magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                    .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                    .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                    .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                    .intoMemorySegment(RAW, o, ORDER);
        }
        for (int q = 0; q < 4; q++) {
            int tail = RAW.get(ValueLayout.JAVA_INT_UNALIGNED, g + 4L * q);
            special = IntVector.broadcast(INTS, (tail & 0x7c007c00) + 0x04000400).or(special);
        }
        return IntVector.broadcast(INTS, 0x80008000).and(special).compare(VectorOperators.NE, 0).anyTrue();
    }

    /**
     * The chunk of kept steps that takes the group of L inputs from {@code i} in a 16-bit wide call of inputs up to
     * {@code i1} whose first position is {@code jLo}, else null ({@link #backwardInPlaceWide16}).
     */
    private static WideChunk keptChunk(LinearTable t, WideSteps steps, int i, int i1, int jLo, long limit) {
        WideChunk chunk = steps == null || i % LANES != 0 || i + LANES > i1 ? null
                : steps.chunk(t, i / LANES / WIDE_CHUNK);
        int k = i / LANES % WIDE_CHUNK;
        return chunk != null && chunk.base[k] >= jLo && chunk.base[k] == Math.min(t.bounds[i], limit) ? chunk : null;
    }

    /** Inputs per block of {@link #wideThroughFloats}: its scratch holds a few rows of one block's span. */
    static final int SCRATCH_BLOCK = 512;
    /** Floats of gradOut per pass of {@link #wideThroughFloats} (128 KiB, in the L2 with its sums). */
    private static final int SCRATCH_FLOATS = 1 << 15;
    /** Per thread: {@link #wideThroughFloats}' native FLOAT scratch, [0] gradOut's spans and [1] the sums. */
    private static final ThreadLocal<MemorySegment[]> WIDE_SCRATCH = ThreadLocal.withInitial(() -> new MemorySegment[] {
        Arena.ofAuto().allocate(4L * (SCRATCH_FLOATS + 4 * LANES), 64),
        Arena.ofAuto().allocate(4L * SCRATCH_FLOATS, 64)});

    /**
     * Inputs {@code [a, b)} of BF16 or FP16 rows that neither the 16-bit wide form's kept steps nor its 4x and 8x
     * forms take (ratios from about 3.75 to 4 at 512 bits, where a group's terms reach past four vectors; a row's
     * clamped groups at 4x and 8x; groups whose window would start before the call's first position; an FP16 row's
     * 4x or 8x run that holds an infinity or a NaN): blocks of up to {@link #SCRATCH_BLOCK} inputs of a few rows at a time
     * widened exactly into native FLOAT scratch ({@link #widen16}), summed there by the FLOAT wide form
     * ({@link #backwardInPlaceWide}: half groups where a group's terms do not fit, the row's last input in its group),
     * and rounded back once ({@link #narrow16}): the buffered form's bits, in the reference's order, instead of the
     * buffered form itself, which takes such groups row by row through the scalar reference (FP16 at 4x: 56 times the
     * copy of the same bytes). {@code gFirst} is row 0's element of gradOut position {@code t.gatherFrom(a)},
     * {@code oFirst} its element of out for input a.
     */
    private static void wideThroughFloats(LinearTable t, int a, int b, int rows, MemorySegment gradOut, long gFirst,
                                          long gRowStride, MemorySegment out, long oFirst, long oRowStride,
                                          DataType type) {
        final MemorySegment[] scratch = WIDE_SCRATCH.get();
        final MemorySegment g = scratch[0];
        final MemorySegment o = scratch[1];
        final int jA = t.gatherFrom(a);
        for (int s = a; s < b; ) {
            // Blocks end at multiples of SCRATCH_BLOCK (so that the next starts where the kept steps' groups do).
            int e = Math.min(b, (s / SCRATCH_BLOCK + 1) * SCRATCH_BLOCK);
            int jS = t.gatherFrom(s);
            int span = t.gatherTo(e) - jS;
            while (span > SCRATCH_FLOATS && e > s + 1) {
                // More positions than the scratch holds (not at the wide forms' ratios, at most 8): fewer inputs.
                e = s + (e - s) / 2;
                span = t.gatherTo(e) - jS;
            }
            int count = e - s;
            int n = Math.max(1, Math.min(rows, SCRATCH_FLOATS / Math.max(span, count)));
            for (int r0 = 0; r0 < rows; r0 += n) {
                int m = Math.min(n, rows - r0);
                for (int r = 0; r < m; r++) {
                    widen16(gradOut, type, gFirst + (r0 + r) * gRowStride + (jS - jA), span, g, 4L * r * span);
                }
                backwardInPlaceWide(t, s, e, m, g, 0, span, o, 0, count);
                for (int r = 0; r < m; r++) {
                    narrow16(o, 4L * r * count, count, out, type, oFirst + (r0 + r) * oRowStride + (s - a));
                }
            }
            s = e;
        }
    }

    /** Per thread: a heap stage for FP16's conversions in {@link #widen16} and {@link #narrow16}. */
    private static final ThreadLocal<float[]> SCRATCH_STAGE = ThreadLocal.withInitial(() -> new float[SCRATCH_FLOATS]);

    /**
     * {@code count} (at most {@link #SCRATCH_FLOATS}) BF16 or FP16 elements of {@code seg} from element {@code first}
     * widened exactly into FLOATs at byte {@code to} of {@code dst}, through a heap stage: {@link #decode16} (BF16
     * in registers; FP16 by the codec's own loop, which the JIT compiles to {@code vcvtph2ps}: 0.05 ns an element in
     * cache, against 0.26-0.35 for the same in Vector API bit operations), then copied.
     */
    static void widen16(MemorySegment seg, DataType type, long first, int count, MemorySegment dst, long to) {
        float[] stage = SCRATCH_STAGE.get();
        decode16(seg, type, first, count, stage, 0);
        MemorySegment.copy(stage, 0, dst, ValueLayout.JAVA_FLOAT, to, count);
    }

    /**
     * {@code count} (at most {@link #SCRATCH_FLOATS}) FLOATs of {@code src} from byte {@code from} rounded once, to
     * nearest even, into BF16 or FP16 elements of {@code seg} from element {@code first}: copied into a heap stage,
     * then {@link #encode16} (BF16 in registers, FP16 by the codec's loop, {@code vcvtps2ph}).
     */
    static void narrow16(MemorySegment src, long from, int count, MemorySegment seg, DataType type, long first) {
        float[] stage = SCRATCH_STAGE.get();
        MemorySegment.copy(src, ValueLayout.JAVA_FLOAT, from, stage, 0, count);
        encode16(stage, 0, count, seg, type, first);
    }

    /**
     * The end of the run of groups of L inputs from {@code i} (a whole group whose kept steps the call can take, in
     * {@code chunk}): the chunk's next groups while they are whole, inside the call's inputs (up to {@code i1}) and
     * read from the positions their steps were made for ({@code limit}, the highest window base the call's last row
     * allows; the bases grow with the groups, so they stay at or after the call's first position).
     */
    private static int wideRunEnd(int[] bounds, WideChunk chunk, int i, int i1, long limit) {
        int k1 = i / LANES % WIDE_CHUNK + 1;
        int end = i + LANES;
        while (k1 < WIDE_CHUNK && end + LANES <= i1 && chunk.base[k1] == Math.min(bounds[end], limit)) {
            k1++;
            end += LANES;
        }
        return end;
    }

    /**
     * {@link #wideFoursBf16} for FP16: each half widened to a float 2^-112 times its value (exact, subnormals
     * included) and the weights taken 2^112 times theirs, so that the products are the halfs' times the weights;
     * a quad of rows whose halfs hold an infinity or a NaN (exponent 31, which this widening does not keep) is
     * listed in {@code redo} (count in redo[0]) for the caller. The sums are rounded as {@link #halfRowsInPlace}.
     */
    private static int wideFoursHalf(WideChunk chunk, int k0, int k1, int rows, long g, long gs, long o, long os,
                                     int[] redo) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        int r = 0;
        for (; r + 3 < rows; r += 4) {
            long out = o + r * os;
            IntVector special = IntVector.zero(INTS);
            for (int k = k0; k < k1; k++, out += 2L * LANES) {
                long q = g + r * gs + 2L * base[k];
                IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                special = ga.and(0x7c007c00).add(0x04000400).or(gb.and(0x7c007c00).add(0x04000400)).or(special);
                IntVector g0 = ga.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g1 = gb.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g2 = ga.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g3 = gb.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                special = ga.and(0x7c007c00).add(0x04000400).or(gb.and(0x7c007c00).add(0x04000400)).or(special);
                IntVector h0 = ga.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector h1 = gb.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector h2 = ga.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector h3 = gb.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                special = ga.and(0x7c007c00).add(0x04000400).or(gb.and(0x7c007c00).add(0x04000400)).or(special);
                IntVector i0 = ga.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector i1 = gb.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector i2 = ga.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector i3 = gb.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                q += gs;
                ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                special = ga.and(0x7c007c00).add(0x04000400).or(gb.and(0x7c007c00).add(0x04000400)).or(special);
                IntVector j0 = ga.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector j1 = gb.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector j2 = ga.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector j3 = gb.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                FloatVector s1 = FloatVector.zero(FLOATS);
                FloatVector s2 = s1;
                FloatVector s3 = s1;
                FloatVector s4 = s1;
                for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                    IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    VectorMask<Float> has = a.compare(VectorOperators.GE, 0).cast(FLOATS);
                    FloatVector v = FloatVector.fromArray(FLOATS, w, s).mul(0x1p112f);
                    s1 = s1.add(a.selectFrom(g0, g1).reinterpretAsFloats().mul(v), has);
                    s2 = s2.add(a.selectFrom(h0, h1).reinterpretAsFloats().mul(v), has);
                    s3 = s3.add(a.selectFrom(i0, i1).reinterpretAsFloats().mul(v), has);
                    s4 = s4.add(a.selectFrom(j0, j1).reinterpretAsFloats().mul(v), has);
                    IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    VectorMask<Float> has2 = b.compare(VectorOperators.GE, 0).cast(FLOATS);
                    FloatVector u = FloatVector.fromArray(FLOATS, w, s + LANES).mul(0x1p112f);
                    s1 = s1.add(b.selectFrom(g2, g3).reinterpretAsFloats().mul(u), has2);
                    s2 = s2.add(b.selectFrom(h2, h3).reinterpretAsFloats().mul(u), has2);
                    s3 = s3.add(b.selectFrom(i2, i3).reinterpretAsFloats().mul(u), has2);
                    s4 = s4.add(b.selectFrom(j2, j3).reinterpretAsFloats().mul(u), has2);
                }
                IntVector s1Bits = s1.reinterpretAsInts();
                IntVector s1Magnitude = s1Bits.and(0x7fffffff);
                FloatVector s1Magic = s1Magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                s1Magnitude.min(0x47800000).reinterpretAsFloats().add(s1Magic).sub(s1Magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(s1Bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out, ORDER);
                IntVector s2Bits = s2.reinterpretAsInts();
                IntVector s2Magnitude = s2Bits.and(0x7fffffff);
                FloatVector s2Magic = s2Magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                s2Magnitude.min(0x47800000).reinterpretAsFloats().add(s2Magic).sub(s2Magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(s2Bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + os, ORDER);
                IntVector s3Bits = s3.reinterpretAsInts();
                IntVector s3Magnitude = s3Bits.and(0x7fffffff);
                FloatVector s3Magic = s3Magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                s3Magnitude.min(0x47800000).reinterpretAsFloats().add(s3Magic).sub(s3Magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(s3Bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + 2 * os, ORDER);
                IntVector s4Bits = s4.reinterpretAsInts();
                IntVector s4Magnitude = s4Bits.and(0x7fffffff);
                FloatVector s4Magic = s4Magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                s4Magnitude.min(0x47800000).reinterpretAsFloats().add(s4Magic).sub(s4Magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(s4Bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out + 3 * os, ORDER);
            }
            if (special.and(0x80008000).compare(VectorOperators.NE, 0).anyTrue()) {
                for (int row = r; row < r + 4; row++) {
                    redo[++redo[0]] = row;
                }
            }
        }
        return r;
    }

    /** {@link #wideFoursHalf}' rows from {@code r} on, one by one. */
    private static void wideOnesHalf(WideChunk chunk, int k0, int k1, int r, int rows, long g, long gs, long o,
                                     long os, int[] redo) {
        final byte[] at = chunk.at;
        final float[] w = chunk.w;
        final int[] start = chunk.start;
        final int[] base = chunk.base;
        for (; r < rows; r++) {
            long out = o + r * os;
            IntVector special = IntVector.zero(INTS);
            for (int k = k0; k < k1; k++, out += 2L * LANES) {
                long q = g + r * gs + 2L * base[k];
                IntVector ga = IntVector.fromMemorySegment(INTS, RAW, q, ORDER);
                IntVector gb = IntVector.fromMemorySegment(INTS, RAW, q + 4L * LANES, ORDER);
                special = ga.and(0x7c007c00).add(0x04000400).or(gb.and(0x7c007c00).add(0x04000400)).or(special);
                IntVector g0 = ga.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g1 = gb.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g2 = ga.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector g3 = gb.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int s = start[k] * LANES, end = start[k + 1] * LANES; s < end; s += 2 * LANES) {
                    IntVector a = (IntVector) ByteVector.fromArray(BYTES, at, s)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(a.selectFrom(g0, g1).reinterpretAsFloats()
                                    .mul(FloatVector.fromArray(FLOATS, w, s).mul(0x1p112f)),
                            a.compare(VectorOperators.GE, 0).cast(FLOATS));
                    IntVector b = (IntVector) ByteVector.fromArray(BYTES, at, s + LANES)
                            .convertShape(VectorOperators.B2I, INTS, 0);
                    sum = sum.add(b.selectFrom(g2, g3).reinterpretAsFloats()
                                    .mul(FloatVector.fromArray(FLOATS, w, s + LANES).mul(0x1p112f)),
                            b.compare(VectorOperators.GE, 0).cast(FLOATS));
                }
                IntVector sumBits = sum.reinterpretAsInts();
                IntVector sumMagnitude = sumBits.and(0x7fffffff);
                FloatVector sumMagic = sumMagnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                sumMagnitude.min(0x47800000).reinterpretAsFloats().add(sumMagic).sub(sumMagic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(sumBits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, out, ORDER);
            }
            if (special.and(0x80008000).compare(VectorOperators.NE, 0).anyTrue()) {
                redo[++redo[0]] = r;
            }
        }
    }

    /**
     * {@link #wideByParity}'s steps for lane l's terms at the positions {@code bounds[i + l]} to {@code bounds[i + l
     * + 2] - 1} (right-tap ones weighted by w1, below {@code bounds[i + l + 1]}, left-tap ones by w0), read from four
     * vectors at {@code base}: in {@code active}, step s's index of lane l in the step's pair of split vectors at
     * {@code s * L + l} (-1 where the lane has no term), in {@code weight} its weight. Returns the number of steps,
     * even (the rows' loop takes them in pairs: even positions, then odd).
     */
    private static int parityTable(int[] active, float[] weight, int[] bounds, int i, int count, int base, float[] w0,
                                   float[] w1) {
        final boolean whole = count == LANES;
        final VectorMask<Integer> inputs = INTS.indexInRange(0, count);
        IntVector from = whole ? IntVector.fromArray(INTS, bounds, i) : IntVector.fromArray(INTS, bounds, i, inputs);
        IntVector leftFrom = whole ? IntVector.fromArray(INTS, bounds, i + 1)
                : IntVector.fromArray(INTS, bounds, i + 1, inputs);
        IntVector to = whole ? IntVector.fromArray(INTS, bounds, i + 2)
                : IntVector.fromArray(INTS, bounds, i + 2, inputs);
        // Lanes past count load no bounds: no terms (their end is their start).
        IntVector relative = from.sub(base);
        IntVector start = relative.and(1);
        IntVector pair = relative.lanewise(VectorOperators.ASHR, 1);
        IntVector rightEnd = start.add(leftFrom.sub(from));
        IntVector end = start.add(to.sub(from));
        final int steps = (end.reduceLanes(VectorOperators.MAX) + 1) & ~1;
        IntVector w1a = FloatVector.fromArray(FLOATS, w1, base).reinterpretAsInts();
        IntVector w1b = FloatVector.fromArray(FLOATS, w1, base + LANES).reinterpretAsInts();
        IntVector w1c = FloatVector.fromArray(FLOATS, w1, base + 2 * LANES).reinterpretAsInts();
        IntVector w1d = FloatVector.fromArray(FLOATS, w1, base + 3 * LANES).reinterpretAsInts();
        IntVector w0a = FloatVector.fromArray(FLOATS, w0, base).reinterpretAsInts();
        IntVector w0b = FloatVector.fromArray(FLOATS, w0, base + LANES).reinterpretAsInts();
        IntVector w0c = FloatVector.fromArray(FLOATS, w0, base + 2 * LANES).reinterpretAsInts();
        IntVector w0d = FloatVector.fromArray(FLOATS, w0, base + 3 * LANES).reinterpretAsInts();
        // The split weights: lane t of a pair is position 2t (EVEN) or 2t + 1 (ODD) from base.
        IntVector w1Even0 = EVEN.selectFrom(w1a, w1b);
        IntVector w1Even1 = EVEN.selectFrom(w1c, w1d);
        IntVector w1Odd0 = ODD.selectFrom(w1a, w1b);
        IntVector w1Odd1 = ODD.selectFrom(w1c, w1d);
        IntVector w0Even0 = EVEN.selectFrom(w0a, w0b);
        IntVector w0Even1 = EVEN.selectFrom(w0c, w0d);
        IntVector w0Odd0 = ODD.selectFrom(w0a, w0b);
        IntVector w0Odd1 = ODD.selectFrom(w0c, w0d);
        IntVector at = pair;
        for (int s = 0; s < steps; s += 2, at = at.add(1)) {
            // Step s takes even positions, step s + 1 odd ones, both at index `at` of their pair.
            at.selectFrom(w0Even0, w0Even1).blend(at.selectFrom(w1Even0, w1Even1),
                    rightEnd.compare(VectorOperators.GT, s)).reinterpretAsFloats().intoArray(weight, s * LANES);
            at.blend(-1, start.compare(VectorOperators.GT, s).or(end.compare(VectorOperators.LE, s)))
                    .intoArray(active, s * LANES);
            at.selectFrom(w0Odd0, w0Odd1).blend(at.selectFrom(w1Odd0, w1Odd1),
                    rightEnd.compare(VectorOperators.GT, s + 1)).reinterpretAsFloats()
                    .intoArray(weight, (s + 1) * LANES);
            at.blend(-1, start.compare(VectorOperators.GT, s + 1).or(end.compare(VectorOperators.LE, s + 1)))
                    .intoArray(active, (s + 1) * LANES);
        }
        return steps;
    }

    /**
     * Input lin - 1 of a FLOAT row in place, as the reference: its right-tap terms, then for each
     * output whose taps both land on it, the left-tap term and the right-tap term. gradOut position j is
     * element {@code gBase + j}; the sum goes to element {@code oAt} of out.
     */
    private static void lastInput(LinearTable t, MemorySegment gradOut, long gBase, MemorySegment out, long oAt) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        float sum = 0f;
        for (int j = bounds[last], end = bounds[last + 1]; j < end; j++) {
            sum += w1[j] * gradOut.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, gBase + j);
        }
        for (int j = bounds[last + 1], end = bounds[last + 2]; j < end; j++) {
            float v = gradOut.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, gBase + j);
            sum += w0[j] * v;
            sum += w1[j] * v;
        }
        out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, oAt, sum);
    }

    /**
     * A periodic run of the BF16 paired form (2x upsampling), two rows at a time on address streams as in
     * {@link #periodicPairsInPlace} (a row left over goes as a pair with itself: the same sums stored twice). No NaN
     * test: a widened BF16 value has a zero low half, and a NaN that products and sums of such values make carries
     * one of their payloads or the default NaN, quiet, low half zero too; rounding then keeps its high half, which
     * is the reference's {@code (bits >>> 16) | 0x0040}. (With the paired loop's redo of NaN groups kept here,
     * removing it failed no test, NaN and infinity inputs at every position included.) In cache
     * ({@code InPlaceBlockBenchmark}, 2 rows × 4096 inputs): 2.20 → 1.26 µs per call; {@code bin/bench-ab}, ratio
     * medians of 5 rounds: 2.11 → 1.65.
     */
    private static void bf16PairsInPlace(LinearTable t, int i, int end, int i0, int rows, MemorySegment gradOut,
                                         long gFirst, long gRowStride, int jLo, MemorySegment out, long oFirst,
                                         long oRowStride) {
        final int[] bounds = t.bounds;
        final int rb = bounds[i];
        final int lb = bounds[i + 1];
        IntVector w1a = FloatVector.fromArray(FLOATS, t.w1, rb).reinterpretAsInts();
        IntVector w1b = FloatVector.fromArray(FLOATS, t.w1, rb + LANES).reinterpretAsInts();
        IntVector w0a = FloatVector.fromArray(FLOATS, t.w0, lb).reinterpretAsInts();
        IntVector w0b = FloatVector.fromArray(FLOATS, t.w0, lb + LANES).reinterpretAsInts();
        FloatVector r0w = EVEN.selectFrom(w1a, w1b).reinterpretAsFloats();
        FloatVector r1w = ODD.selectFrom(w1a, w1b).reinterpretAsFloats();
        FloatVector l0w = EVEN.selectFrom(w0a, w0b).reinterpretAsFloats();
        FloatVector l1w = ODD.selectFrom(w0a, w0b).reinterpretAsFloats();
        final long leftOffset = 2L * (lb - rb);
        assert 2L * (bounds[i + LANES] - rb) == HALF_PAIR_SHIFT : "not a paired run";
        final int groups = (end - i) / LANES;
        final long gRowBytes = 2 * gRowStride;
        final long oRowBytes = 2 * oRowStride;
        final long right = gradOut.address() + (gFirst - jLo + rb) * 2;
        final long o = out.address() + (oFirst + i - i0) * 2;
        for (int r = 0; r < rows; r += 2) {
            int second = Math.min(r + 1, rows - 1);
            long a = right + r * gRowBytes;
            long b = right + second * gRowBytes;
            long oa = o + r * oRowBytes;
            long ob = o + second * oRowBytes;
            for (int k = 0; k < groups; k++, a += HALF_PAIR_SHIFT, b += HALF_PAIR_SHIFT, oa += 2 * LANES, ob += 2 * LANES) {
                IntVector x = IntVector.fromMemorySegment(INTS, RAW, a, ORDER);
                IntVector y = IntVector.fromMemorySegment(INTS, RAW, a + leftOffset, ORDER);
                IntVector u = IntVector.fromMemorySegment(INTS, RAW, b, ORDER);
                IntVector v = IntVector.fromMemorySegment(INTS, RAW, b + leftOffset, ORDER);
                IntVector bitsA = FloatVector.zero(FLOATS)
                        .add(x.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(r0w))
                        .add(x.and(0xffff0000).reinterpretAsFloats().mul(r1w))
                        .add(y.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(l0w))
                        .add(y.and(0xffff0000).reinterpretAsFloats().mul(l1w)).reinterpretAsInts();
                IntVector bitsB = FloatVector.zero(FLOATS)
                        .add(u.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(r0w))
                        .add(u.and(0xffff0000).reinterpretAsFloats().mul(r1w))
                        .add(v.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(l0w))
                        .add(v.and(0xffff0000).reinterpretAsFloats().mul(l1w)).reinterpretAsInts();
                // Rounded to nearest even as ElementCodec.floatToBf16.
                bitsA.add(0x7fff).add(bitsA.lanewise(VectorOperators.LSHR, 16).and(1))
                        .lanewise(VectorOperators.LSHR, 16).convertShape(VectorOperators.I2S, HALFS, 0)
                        .reinterpretAsShorts().intoMemorySegment(RAW, oa, ORDER);
                bitsB.add(0x7fff).add(bitsB.lanewise(VectorOperators.LSHR, 16).and(1))
                        .lanewise(VectorOperators.LSHR, 16).convertShape(VectorOperators.I2S, HALFS, 0)
                        .reinterpretAsShorts().intoMemorySegment(RAW, ob, ORDER);
            }
        }
    }

    /**
     * The windowed form in place for BF16 rows: gradOut widened exactly in registers (zero-extended, shifted left 16),
     * the sums rounded once to nearest even in registers as {@link #encodeRun} (a row whose sums hold a
     * NaN is redone by the buffered form after the row loop). Kept apart from the FLOAT method, with every
     * vector value inside it: with
     * both dtypes behind shared load and store helpers, the JIT compiled the FLOAT path 2.6× slower,
     * and a store helper taking the sum vector made this one slower than the buffered form (measured).
     * On periodic tables a group's set-up serves its run of translated groups ({@link #regularRunEnd}), and
     * groups whose every tap has two terms (2x up) load their halfs in pairs, as ints ({@link #PAIRED}).
     */
    private static void backwardInPlaceBf16(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                            long gRowStride, MemorySegment out, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        // Rows whose sums hold a NaN, redone by the buffered form after the row loop (see backwardInPlaceHalf).
        final int[] redo = redoRows(rows);
        // Many rows per call: the group with the last input, and groups whose windows do not fit, through FLOAT
        // scratch and the short form's step table (edgeGroup16) instead of the buffered form row by row; a partial
        // last group as the whole group that ends where it does (as in the FLOAT form).
        final boolean steps = rows >= SHORT_MIN_ROWS;
        final boolean lastDone = steps && lastGroup(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst,
                oRowStride, DataType.BF16);
        final int vectorEnd = lastDone ? i1 - LANES : Math.min(i1, last);
        final int window = 2 * LANES;
        final long gEnd = gradOut.byteSize() / 2;
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        // Runs of groups sharing one set-up on periodic tables, as in the FLOAT form (regularRunEnd).
        final boolean periodic = t.periodInputs() > 0 && LANES % t.periodInputs() == 0;
        final int regularFrom = t.unclampedFrom();
        final int regularTo = t.unclampedTo();
        for (int i = i0; i < vectorEnd; ) {
            int count = Math.min(LANES, vectorEnd - i);
            if (count < LANES && vectorEnd - LANES >= i0) {
                // The last group, partial: the whole group that ends where it does (its first lanes' sums, made
                // again, have the same bits).
                i = vectorEnd - LANES;
                count = LANES;
            }
            int rightBase = bounds[i];
            int leftBase = bounds[i + 1];
            if (count < LANES || bounds[i + count] - rightBase > window || bounds[i + count + 1] - leftBase > window
                    || lastRow + Math.max(rightBase, leftBase) + window > gEnd) {
                if (steps && stepGroup(t, i0, i, i + count, rows, gradOut, gFirst, gRowStride, out, oFirst,
                        oRowStride, DataType.BF16)) {
                    i += count;
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    bufferedInputs(t, i, i + count, gradOut, gFirst + r * gRowStride - jLo, out,
                            oFirst + r * oRowStride + i - i0, DataType.BF16);
                }
                i += count;
                continue;
            }
            int runEnd = periodic ? regularRunEnd(bounds, i, vectorEnd, regularFrom, regularTo, window, lastRow, gEnd)
                    : i + LANES;
            IntVector from = IntVector.fromArray(INTS, bounds, i);
            IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
            IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
            IntVector rightCount = leftFrom.sub(from);
            IntVector leftCount = to.sub(leftFrom);
            if (bounds[i + count + 1] - rightBase <= LANES
                    && !rightCount.compare(VectorOperators.GT, 1).or(leftCount.compare(VectorOperators.GT, 1)).anyTrue()) {
                // Downsampling by 2x or more: one vector of gradOut per row (a method of its own: in this one, C1 ran
                // out of registers and the method stayed in the interpreter's tiers).
                bf16OneVectorInPlace(t, i, runEnd, i0, rows, gradOut, gFirst, gRowStride, jLo, out, oFirst, oRowStride);
                i = runEnd;
                continue;
            }
            int rightSteps = rightCount.reduceLanes(VectorOperators.MAX);
            int leftSteps = leftCount.reduceLanes(VectorOperators.MAX);
            IntVector rightIndex = from.sub(rightBase);
            IntVector leftIndex = leftFrom.sub(leftBase);
            FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rightBase);
            FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rightBase + LANES);
            FloatVector w0a = FloatVector.fromArray(FLOATS, w0, leftBase);
            FloatVector w0b = FloatVector.fromArray(FLOATS, w0, leftBase + LANES);
            if (PAIRED && !rightCount.compare(VectorOperators.NE, 2).or(leftCount.compare(VectorOperators.NE, 2))
                    .anyTrue()) {
                // Two terms per tap in every lane (2x upsampling): the terms of input i + k are the halfs at
                // rb + 2k, rb + 2k + 1, lb + 2k, lb + 2k + 1, so the group's 2L halfs from a base, loaded as L ints,
                // hold them in their low and high halves: widened with a shift and a mask, no permute. The weights
                // are split into even and odd positions once for the run.
                FloatVector r0w = EVEN.selectFrom(w1a.reinterpretAsInts(), w1b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector r1w = ODD.selectFrom(w1a.reinterpretAsInts(), w1b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector l0w = EVEN.selectFrom(w0a.reinterpretAsInts(), w0b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector l1w = ODD.selectFrom(w0a.reinterpretAsInts(), w0b.reinterpretAsInts())
                        .reinterpretAsFloats();
                if (runEnd > i + LANES) {
                    bf16PairsInPlace(t, i, runEnd, i0, rows, gradOut, gFirst, gRowStride, jLo, out, oFirst,
                            oRowStride);
                    i = runEnd;
                    continue;
                }
                for (int g = i; g < runEnd; g += LANES) {
                    int rb = bounds[g];
                    int lb = bounds[g + 1];
                    int redone = 0;
                    for (int r = 0; r < rows; r++) {
                        IntVector x = IntVector.fromMemorySegment(INTS, RAW,
                                gAddr + (gFirst + r * gRowStride - jLo + rb) * 2, ORDER);
                        IntVector y = IntVector.fromMemorySegment(INTS, RAW,
                                gAddr + (gFirst + r * gRowStride - jLo + lb) * 2, ORDER);
                        FloatVector sum = FloatVector.zero(FLOATS)
                                .add(x.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(r0w))
                                .add(x.and(0xffff0000).reinterpretAsFloats().mul(r1w))
                                .add(y.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().mul(l0w))
                                .add(y.and(0xffff0000).reinterpretAsFloats().mul(l1w));
                        IntVector bits = sum.reinterpretAsInts();
                        if (bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                            redo[redone++] = r;
                        } else {
                            bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                                    .lanewise(VectorOperators.LSHR, 16)
                                    .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                                    .intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + g - i0) * 2, ORDER);
                        }
                    }
                    for (int q = 0; q < redone; q++) {
                        int r = redo[q];
                        bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                                oFirst + r * oRowStride + g - i0, DataType.BF16);
                    }
                }
                i = runEnd;
                continue;
            }
            // At most two terms per tap (every ratio up to 2x but the odd alignCorners group): the four steps
            // unrolled, their indices and masks set up once for all rows, as in the FLOAT form.
            boolean unrolled = rightSteps <= 2 && leftSteps <= 2;
            IntVector right1 = rightIndex.add(1);
            IntVector left1 = leftIndex.add(1);
            VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
            VectorMask<Float> hasRight1 = rightCount.compare(VectorOperators.GT, 1).cast(FLOATS);
            VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
            VectorMask<Float> hasLeft1 = leftCount.compare(VectorOperators.GT, 1).cast(FLOATS);
            for (int g = i; g < runEnd; g += LANES) {
                int rb = bounds[g];
                int lb = bounds[g + 1];
                int redone = 0;
                for (int r = 0; r < rows; r++) {
                    long right = gAddr + (gFirst + r * gRowStride - jLo + rb) * 2;
                    long left = gAddr + (gFirst + r * gRowStride - jLo + lb) * 2;
                    // gradOut's BF16 lanes widened exactly (bits << 16), written out at each load rather than
                    // through a helper returning the vector: at 36 bytes of bytecode such a helper is one over the
                    // size C2 inlines at call sites it has not seen often, and a vector returned from a call is
                    // allocated.
                    IntVector p1a = ((IntVector) ShortVector.fromMemorySegment(HALFS, RAW, right, ORDER)
                            .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0)).lanewise(VectorOperators.LSHL, 16)
                            .reinterpretAsFloats().mul(w1a).reinterpretAsInts();
                    IntVector p1b = ((IntVector) ShortVector.fromMemorySegment(HALFS, RAW, right + 2 * LANES, ORDER)
                            .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0)).lanewise(VectorOperators.LSHL, 16)
                            .reinterpretAsFloats().mul(w1b).reinterpretAsInts();
                    IntVector p0a = ((IntVector) ShortVector.fromMemorySegment(HALFS, RAW, left, ORDER)
                            .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0)).lanewise(VectorOperators.LSHL, 16)
                            .reinterpretAsFloats().mul(w0a).reinterpretAsInts();
                    IntVector p0b = ((IntVector) ShortVector.fromMemorySegment(HALFS, RAW, left + 2 * LANES, ORDER)
                            .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0)).lanewise(VectorOperators.LSHL, 16)
                            .reinterpretAsFloats().mul(w0b).reinterpretAsInts();
                    FloatVector sum = FloatVector.zero(FLOATS);
                    if (unrolled) {
                        sum = sum.add(rightIndex.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight0)
                                .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight1)
                                .add(leftIndex.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft0)
                                .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft1);
                    } else {
                        for (int k = 0; k < rightSteps; k++) {
                            FloatVector term = rightIndex.add(k).selectFrom(p1a, p1b).reinterpretAsFloats();
                            sum = sum.add(term, rightCount.compare(VectorOperators.GT, k).cast(FLOATS));
                        }
                        for (int k = 0; k < leftSteps; k++) {
                            FloatVector term = leftIndex.add(k).selectFrom(p0a, p0b).reinterpretAsFloats();
                            sum = sum.add(term, leftCount.compare(VectorOperators.GT, k).cast(FLOATS));
                        }
                    }
                    long at = (oFirst + r * oRowStride + g - i0) * 2;
                    IntVector bits = sum.reinterpretAsInts();
                    if (bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                        redo[redone++] = r;
                    } else {
                        bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                                .lanewise(VectorOperators.LSHR, 16)
                                .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                                .intoMemorySegment(RAW, oAddr + at, ORDER);
                    }
                }
                for (int q = 0; q < redone; q++) {
                    int r = redo[q];
                    bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                            oFirst + r * oRowStride + g - i0, DataType.BF16);
                }
            }
            i = runEnd;
        }
        if (!lastDone && last >= i0 && last < i1) {
            for (int r = 0; r < rows; r++) {
                bufferedInputs(t, last, last + 1, gradOut, gFirst + r * gRowStride - jLo, out,
                        oFirst + r * oRowStride + last - i0, DataType.BF16);
            }
        }
    }

    /** Lane l holds l + 1: with selectFrom(v, w), v's lanes from 1 and then w's lane 0 (a window one lane on). */
    private static final IntVector NEXT_LANE = IntVector.zero(INTS).addIndex(1).add(1);

    /**
     * Groups {@code i} to {@code end} of a periodic run of the FP16 paired form (2x upsampling; the caller leaves the
     * run's last group out, because each group here reads the first int of the next one), one row at a time. A
     * group's left window is its right window one int on (two halfs), so each group's ints are loaded and widened
     * once: the left window's halfs are the widened vectors of this group and the next (carried to the next group)
     * one lane on, a two-source permute each, instead of a second load and five more shifts and masks. The halfs
     * are widened, weighted, summed and rounded as in {@link #backwardInPlaceHalf}; infinities and NaNs are found
     * per row over all the ints read (the next group's first int included), and a row with one has its groups that
     * hold one redone through the buffered form. In one process against the form before (two rows at a time, each
     * group's two windows loaded and widened), op ms: FP16 up2x 5.70 → 4.52, 5.56 → 4.71; (8, 64, 4096 → 8192) 0.331
     * → 0.289. A masked load of the next ints at the run's end, instead of leaving that group out, made the whole
     * form 2.7× slower.
     */
    private static void halfRowsInPlace(LinearTable t, int i, int end, int i0, int rows, MemorySegment gradOut,
                                        long gFirst, long gRowStride, int jLo, MemorySegment out, long oFirst,
                                        long oRowStride) {
        final int[] bounds = t.bounds;
        final int rb = bounds[i];
        final int lb = bounds[i + 1];
        // The weights times 2^112, split into even and odd positions, as in backwardInPlaceHalf.
        IntVector w1a = FloatVector.fromArray(FLOATS, t.w1, rb).mul(0x1p112f).reinterpretAsInts();
        IntVector w1b = FloatVector.fromArray(FLOATS, t.w1, rb + LANES).mul(0x1p112f).reinterpretAsInts();
        IntVector w0a = FloatVector.fromArray(FLOATS, t.w0, lb).mul(0x1p112f).reinterpretAsInts();
        IntVector w0b = FloatVector.fromArray(FLOATS, t.w0, lb + LANES).mul(0x1p112f).reinterpretAsInts();
        FloatVector r0w = EVEN.selectFrom(w1a, w1b).reinterpretAsFloats();
        FloatVector r1w = ODD.selectFrom(w1a, w1b).reinterpretAsFloats();
        FloatVector l0w = EVEN.selectFrom(w0a, w0b).reinterpretAsFloats();
        FloatVector l1w = ODD.selectFrom(w0a, w0b).reinterpretAsFloats();
        // Two terms per tap in every lane: the left window one int on, the next group's one vector on (a constant: see
        // FLOAT_PAIR_SHIFT).
        final long shift = HALF_PAIR_SHIFT;
        final long leftOffset = 2L * (lb - rb);
        assert leftOffset == 4 && 2L * (bounds[i + LANES] - rb) == shift : "not a paired run";
        final int groups = (end - i) / LANES;
        final long gRowBytes = 2 * gRowStride;
        final long oRowBytes = 2 * oRowStride;
        final long right = gradOut.address() + (gFirst - jLo + rb) * 2;
        final long o = out.address() + (oFirst + i - i0) * 2;
        for (int r = 0; r < rows; r++) {
            long a = right + r * gRowBytes;
            long oa = o + r * oRowBytes;
            IntVector x = IntVector.fromMemorySegment(INTS, RAW, a, ORDER);
            IntVector special = x.and(0x7c007c00).add(0x04000400);
            IntVector lo = x.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            IntVector hi = x.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
            for (int k = 0; k < groups; k++, a += HALF_PAIR_SHIFT, oa += 2 * LANES) {
                IntVector nx = IntVector.fromMemorySegment(INTS, RAW, a + HALF_PAIR_SHIFT, ORDER);
                // The accumulator as the argument of or(), never its receiver (see backwardInPlaceHalf). The sums
                // are rounded as there.
                special = nx.and(0x7c007c00).add(0x04000400).or(special);
                IntVector nlo = nx.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3)
                        .and(0x8fffe000);
                IntVector nhi = nx.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000);
                IntVector bits = FloatVector.zero(FLOATS)
                        .add(lo.reinterpretAsFloats().mul(r0w))
                        .add(hi.reinterpretAsFloats().mul(r1w))
                        .add(NEXT_LANE.selectFrom(lo, nlo).reinterpretAsFloats().mul(l0w))
                        .add(NEXT_LANE.selectFrom(hi, nhi).reinterpretAsFloats().mul(l1w))
                        .reinterpretAsInts();
                IntVector magnitude = bits.and(0x7fffffff);
                FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, oa, ORDER);
                lo = nlo;
                hi = nhi;
            }
            if (IntVector.broadcast(INTS, 0x80008000).and(special).compare(VectorOperators.NE, 0).anyTrue()) {
                for (int k = 0; k < groups; k++) {
                    int g = i + k * LANES;
                    long at = right + r * gRowBytes + k * shift;
                    IntVector x0 = IntVector.fromMemorySegment(INTS, RAW, at, ORDER);
                    IntVector y0 = IntVector.fromMemorySegment(INTS, RAW, at + leftOffset, ORDER);
                    if (x0.and(0x7c007c00).add(0x04000400).or(y0.and(0x7c007c00).add(0x04000400))
                            .and(0x80008000).compare(VectorOperators.NE, 0).anyTrue()) {
                        bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                                oFirst + r * oRowStride + g - i0, DataType.FLOAT16);
                    }
                }
            }
        }
    }

    /**
     * The windowed form in place for FP16 rows, as {@link #backwardInPlaceBf16}: gradOut widened exactly in
     * registers (a row whose windows hold an infinity or NaN takes the buffered form), the sums rounded
     * once to nearest even in registers, bit for bit as {@link Float#floatToFloat16}. A method of its own,
     * every vector value inside it (see the BF16 one).
     */
    private static void backwardInPlaceHalf(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut, long gFirst,
                                            long gRowStride, MemorySegment out, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        // Rows whose group the vector form leaves to the buffered one, redone after the row loop: no call inside it,
        // where the group's vectors are live (a vector live across a call the JIT does not inline is boxed).
        final int[] redo = redoRows(rows);
        // Many rows per call: the group with the last input, and groups whose windows do not fit, through FLOAT
        // scratch and the short form's step table (edgeGroup16) instead of the buffered form row by row; a partial
        // last group as the whole group that ends where it does (as in the FLOAT form).
        final boolean steps = rows >= SHORT_MIN_ROWS;
        final boolean lastDone = steps && lastGroup(t, i0, i1, rows, gradOut, gFirst, gRowStride, out, oFirst,
                oRowStride, DataType.FLOAT16);
        final int vectorEnd = lastDone ? i1 - LANES : Math.min(i1, last);
        final int window = 2 * LANES;
        final long gEnd = gradOut.byteSize() / 2;
        final long lastRow = gFirst + (rows - 1) * gRowStride - jLo;
        // Runs of groups sharing one set-up on periodic tables, as in the FLOAT form (regularRunEnd).
        final boolean periodic = t.periodInputs() > 0 && LANES % t.periodInputs() == 0;
        final int regularFrom = t.unclampedFrom();
        final int regularTo = t.unclampedTo();
        for (int i = i0; i < vectorEnd; ) {
            int count = Math.min(LANES, vectorEnd - i);
            if (count < LANES && vectorEnd - LANES >= i0) {
                // The last group, partial: the whole group that ends where it does (its first lanes' sums, made
                // again, have the same bits).
                i = vectorEnd - LANES;
                count = LANES;
            }
            int rightBase = bounds[i];
            int leftBase = bounds[i + 1];
            if (count < LANES || bounds[i + count] - rightBase > window || bounds[i + count + 1] - leftBase > window
                    || lastRow + Math.max(rightBase, leftBase) + window > gEnd) {
                if (steps && stepGroup(t, i0, i, i + count, rows, gradOut, gFirst, gRowStride, out, oFirst,
                        oRowStride, DataType.FLOAT16)) {
                    i += count;
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    bufferedInputs(t, i, i + count, gradOut, gFirst + r * gRowStride - jLo, out,
                            oFirst + r * oRowStride + i - i0, DataType.FLOAT16);
                }
                i += count;
                continue;
            }
            int runEnd = periodic ? regularRunEnd(bounds, i, vectorEnd, regularFrom, regularTo, window, lastRow, gEnd)
                    : i + LANES;
            IntVector from = IntVector.fromArray(INTS, bounds, i);
            IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
            IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
            IntVector rightCount = leftFrom.sub(from);
            IntVector leftCount = to.sub(leftFrom);
            if (bounds[i + count + 1] - rightBase <= LANES
                    && !rightCount.compare(VectorOperators.GT, 1).or(leftCount.compare(VectorOperators.GT, 1)).anyTrue()) {
                // Downsampling by 2x or more: one vector of gradOut per row (a method of its own: in this one, C1 ran
                // out of registers and the method stayed in the interpreter's tiers).
                halfOneVectorInPlace(t, i, runEnd, i0, rows, gradOut, gFirst, gRowStride, jLo, out, oFirst, oRowStride);
                i = runEnd;
                continue;
            }
            int rightSteps = rightCount.reduceLanes(VectorOperators.MAX);
            int leftSteps = leftCount.reduceLanes(VectorOperators.MAX);
            IntVector rightIndex = from.sub(rightBase);
            IntVector leftIndex = leftFrom.sub(leftBase);
            // The weights times 2^112 (exact: powers of two), so that each product of a half's shifted bits (its value
            // times 2^-112) is the product of its value and the weight, rounded once as the reference's.
            FloatVector w1a = FloatVector.fromArray(FLOATS, w1, rightBase).mul(0x1p112f);
            FloatVector w1b = FloatVector.fromArray(FLOATS, w1, rightBase + LANES).mul(0x1p112f);
            FloatVector w0a = FloatVector.fromArray(FLOATS, w0, leftBase).mul(0x1p112f);
            FloatVector w0b = FloatVector.fromArray(FLOATS, w0, leftBase + LANES).mul(0x1p112f);
            if (PAIRED && !rightCount.compare(VectorOperators.NE, 2).or(leftCount.compare(VectorOperators.NE, 2))
                    .anyTrue()) {
                // Two terms per tap in every lane (2x upsampling): paired loads as in the BF16 form. A half moves
                // into float position with an arithmetic shift right by 3 of its int (sign copied down, value times
                // 2^-112 once masked), the low one after a shift left by 16.
                FloatVector r0w = EVEN.selectFrom(w1a.reinterpretAsInts(), w1b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector r1w = ODD.selectFrom(w1a.reinterpretAsInts(), w1b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector l0w = EVEN.selectFrom(w0a.reinterpretAsInts(), w0b.reinterpretAsInts())
                        .reinterpretAsFloats();
                FloatVector l1w = ODD.selectFrom(w0a.reinterpretAsInts(), w0b.reinterpretAsInts())
                        .reinterpretAsFloats();
                if (runEnd > i + LANES) {
                    // All but the run's last group, each of which reads the next one's first int; the last group
                    // goes round the loop again, on its own (a run of one).
                    halfRowsInPlace(t, i, runEnd - LANES, i0, rows, gradOut, gFirst, gRowStride, jLo, out, oFirst,
                            oRowStride);
                    i = runEnd - LANES;
                    continue;
                }
                // Infinities and NaNs (exponent 31) are found for the whole run at once: adding 1 to a half's exponent
                // carries into its sign bit, and the sums collect these bits. The right windows tile the run's gradOut
                // (each group's starts 2L halfs after the one before), and each left window lies 2 halfs after its
                // right one, so only the last group's left window reaches past them, by one int: it is tested after
                // the loop. A row group with such a value gets a wrong but finite sum here, which the redo below
                // replaces (out never overlaps gradOut). The accumulator is always the argument of or(), never its
                // receiver: as a loop phi its class is not exact in every compilation, and a call on it then went
                // through the Vector API's Java fallback (FP16 took 35-59 ms instead of 9 in about one run in seven
                // after BF16 had run in the same JVM; a JFR profile showed IntVector.or and VectorSupport.binaryOp).
                IntVector special = IntVector.zero(INTS);
                for (int g = i; g < runEnd; g += LANES) {
                    int rb = bounds[g];
                    int lb = bounds[g + 1];
                    for (int r = 0; r < rows; r++) {
                        IntVector x = IntVector.fromMemorySegment(INTS, RAW,
                                gAddr + (gFirst + r * gRowStride - jLo + rb) * 2, ORDER);
                        IntVector y = IntVector.fromMemorySegment(INTS, RAW,
                                gAddr + (gFirst + r * gRowStride - jLo + lb) * 2, ORDER);
                        special = x.and(0x7c007c00).add(0x04000400).or(special);
                        FloatVector sum = FloatVector.zero(FLOATS)
                                .add(x.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3)
                                        .and(0x8fffe000).reinterpretAsFloats().mul(r0w))
                                .add(x.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000).reinterpretAsFloats()
                                        .mul(r1w))
                                .add(y.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 3)
                                        .and(0x8fffe000).reinterpretAsFloats().mul(l0w))
                                .add(y.lanewise(VectorOperators.ASHR, 3).and(0x8fffe000).reinterpretAsFloats()
                                        .mul(l1w));
                        // Rounded as in the general form below.
                        IntVector bits = sum.reinterpretAsInts();
                        IntVector magnitude = bits.and(0x7fffffff);
                        FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23)
                                .reinterpretAsFloats();
                        magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                                .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                                .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                                .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                                .intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + g - i0) * 2, ORDER);
                    }
                }
                int lastLeft = bounds[runEnd - LANES + 1] + 2 * LANES - 2;
                for (int r = 0; r < rows; r++) {
                    int tail = RAW.get(ValueLayout.JAVA_INT_UNALIGNED,
                            gAddr + (gFirst + r * gRowStride - jLo + lastLeft) * 2);
                    special = IntVector.broadcast(INTS, (tail & 0x7c007c00) + 0x04000400).or(special);
                }
                if (IntVector.broadcast(INTS, 0x80008000).and(special).compare(VectorOperators.NE, 0).anyTrue()) {
                    // Redo the row groups that hold one, through the buffered form.
                    for (int g = i; g < runEnd; g += LANES) {
                        int rb = bounds[g];
                        int lb = bounds[g + 1];
                        for (int r = 0; r < rows; r++) {
                            IntVector x = IntVector.fromMemorySegment(INTS, RAW,
                                    gAddr + (gFirst + r * gRowStride - jLo + rb) * 2, ORDER);
                            IntVector y = IntVector.fromMemorySegment(INTS, RAW,
                                    gAddr + (gFirst + r * gRowStride - jLo + lb) * 2, ORDER);
                            if (x.and(0x7c007c00).add(0x04000400).or(y.and(0x7c007c00).add(0x04000400))
                                    .and(0x80008000).compare(VectorOperators.NE, 0).anyTrue()) {
                                bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                                        oFirst + r * oRowStride + g - i0, DataType.FLOAT16);
                            }
                        }
                    }
                }
                i = runEnd;
                continue;
            }
            // At most two terms per tap (every ratio up to 2x but the odd alignCorners group): the four steps
            // unrolled, their indices and masks set up once for all rows, as in the FLOAT form.
            boolean unrolled = rightSteps <= 2 && leftSteps <= 2;
            IntVector right1 = rightIndex.add(1);
            IntVector left1 = leftIndex.add(1);
            VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
            VectorMask<Float> hasRight1 = rightCount.compare(VectorOperators.GT, 1).cast(FLOATS);
            VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
            VectorMask<Float> hasLeft1 = leftCount.compare(VectorOperators.GT, 1).cast(FLOATS);
            for (int g = i; g < runEnd; g += LANES) {
                int rb = bounds[g];
                int lb = bounds[g + 1];
                int redone = 0;
                for (int r = 0; r < rows; r++) {
                    long right = gAddr + (gFirst + r * gRowStride - jLo + rb) * 2;
                    long left = gAddr + (gFirst + r * gRowStride - jLo + lb) * 2;
                    // gradOut's FP16 lanes as sign-extended ints, widened below once they are known to be finite.
                    IntVector h1a = (IntVector) ShortVector.fromMemorySegment(HALFS, RAW, right, ORDER)
                            .convertShape(VectorOperators.S2I, INTS, 0);
                    IntVector h1b = (IntVector) ShortVector.fromMemorySegment(HALFS, RAW, right + 2 * LANES, ORDER)
                            .convertShape(VectorOperators.S2I, INTS, 0);
                    IntVector h0a = (IntVector) ShortVector.fromMemorySegment(HALFS, RAW, left, ORDER)
                            .convertShape(VectorOperators.S2I, INTS, 0);
                    IntVector h0b = (IntVector) ShortVector.fromMemorySegment(HALFS, RAW, left + 2 * LANES, ORDER)
                            .convertShape(VectorOperators.S2I, INTS, 0);
                    // Infinities and NaNs (exponent 31) are rare: such a row's group goes through the buffered form.
                    IntVector most = h1a.and(0x7fff).max(h1b.and(0x7fff)).max(h0a.and(0x7fff).max(h0b.and(0x7fff)));
                    if (most.compare(VectorOperators.GE, 0x7c00).anyTrue()) {
                        redo[redone++] = r;
                        continue;
                    }
                    // Finite halfs shifted into float position (sign to bit 31, its copies cleared): the value
                    // times 2^-112, exactly, normals and subnormals alike; the weights carry the 2^112.
                    IntVector p1a = h1a.lanewise(VectorOperators.LSHL, 13).and(0x8fffe000).reinterpretAsFloats()
                            .mul(w1a).reinterpretAsInts();
                    IntVector p1b = h1b.lanewise(VectorOperators.LSHL, 13).and(0x8fffe000).reinterpretAsFloats()
                            .mul(w1b).reinterpretAsInts();
                    IntVector p0a = h0a.lanewise(VectorOperators.LSHL, 13).and(0x8fffe000).reinterpretAsFloats()
                            .mul(w0a).reinterpretAsInts();
                    IntVector p0b = h0b.lanewise(VectorOperators.LSHL, 13).and(0x8fffe000).reinterpretAsFloats()
                            .mul(w0b).reinterpretAsInts();
                    FloatVector sum = FloatVector.zero(FLOATS);
                    if (unrolled) {
                        sum = sum.add(rightIndex.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight0)
                                .add(right1.selectFrom(p1a, p1b).reinterpretAsFloats(), hasRight1)
                                .add(leftIndex.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft0)
                                .add(left1.selectFrom(p0a, p0b).reinterpretAsFloats(), hasLeft1);
                    } else {
                        for (int k = 0; k < rightSteps; k++) {
                            FloatVector term = rightIndex.add(k).selectFrom(p1a, p1b).reinterpretAsFloats();
                            sum = sum.add(term, rightCount.compare(VectorOperators.GT, k).cast(FLOATS));
                        }
                        for (int k = 0; k < leftSteps; k++) {
                            FloatVector term = leftIndex.add(k).selectFrom(p0a, p0b).reinterpretAsFloats();
                            sum = sum.add(term, leftCount.compare(VectorOperators.GT, k).cast(FLOATS));
                        }
                    }
                    long at = (oFirst + r * oRowStride + g - i0) * 2;
                    // Rounded to nearest even in registers (the sums of finite halfs are finite floats). Let e be the
                    // larger of the magnitude's exponent and -14 (the smallest normal half's): the last place of the
                    // float 2^(e + 13) is 2^(e - 10), a half's last place at exponent e, so adding 2^(e + 13) and
                    // taking it away again rounds the magnitude to a half, subnormals included, to nearest even (the
                    // hardware's rounding). Times 2^-112 (exact), that float's bits shifted right by 13 are the half's.
                    // The magnitude is first capped at 65536: from 65520 on it rounds to 65536, which comes out as
                    // 0x7c00, infinity.
                    IntVector bits = sum.reinterpretAsInts();
                    IntVector magnitude = bits.and(0x7fffffff);
                    FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23).reinterpretAsFloats();
                    magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                            .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                            .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                            .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                            .intoMemorySegment(RAW, oAddr + at, ORDER);
                }
                for (int q = 0; q < redone; q++) {
                    int r = redo[q];
                    bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                            oFirst + r * oRowStride + g - i0, DataType.FLOAT16);
                }
            }
            i = runEnd;
        }
        if (!lastDone && last >= i0 && last < i1) {
            for (int r = 0; r < rows; r++) {
                bufferedInputs(t, last, last + 1, gradOut, gFirst + r * gRowStride - jLo, out,
                        oFirst + r * oRowStride + last - i0, DataType.FLOAT16);
            }
        }
    }

    /**
     * Groups {@code [i, runEnd)} of L inputs of BF16 rows (one group, or a periodic run of translated ones) with at
     * most one term per tap, all within L positions (downsampling by 2x or more), as the FLOAT form's one-vector
     * branch: one vector of gradOut per row and group, its halfs widened (zero-extended, shifted left 16), both
     * products, one step per tap; a row group whose sums hold a NaN redone by the buffered form. Arguments as
     * {@link #halfRowsInPlace}'s.
     */
    private static void bf16OneVectorInPlace(LinearTable t, int i, int runEnd, int i0, int rows, MemorySegment gradOut,
                                             long gFirst, long gRowStride, int jLo, MemorySegment out, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        final int[] redo = redoRows(rows);
        final int rightBase = bounds[i];
        IntVector from = IntVector.fromArray(INTS, bounds, i);
        IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
        IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
        IntVector rightCount = leftFrom.sub(from);
        IntVector leftCount = to.sub(leftFrom);
        IntVector right0 = from.sub(rightBase);
        IntVector left0 = leftFrom.sub(rightBase);
        VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        FloatVector w1r = FloatVector.fromArray(FLOATS, w1, rightBase);
        FloatVector w0r = FloatVector.fromArray(FLOATS, w0, rightBase);
        for (int g = i; g < runEnd; g += LANES) {
            int base = bounds[g];
            int redone = 0;
            for (int r = 0; r < rows; r++) {
                FloatVector v = ((IntVector) ShortVector.fromMemorySegment(HALFS, RAW,
                        gAddr + (gFirst + r * gRowStride - jLo + base) * 2, ORDER)
                        .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0))
                        .lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                IntVector p1 = v.mul(w1r).reinterpretAsInts();
                IntVector p0 = v.mul(w0r).reinterpretAsInts();
                IntVector bits = FloatVector.zero(FLOATS)
                        .add(right0.selectFrom(p1, p1).reinterpretAsFloats(), hasRight0)
                        .add(left0.selectFrom(p0, p0).reinterpretAsFloats(), hasLeft0).reinterpretAsInts();
                if (bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                    redo[redone++] = r;
                } else {
                    bits.add(0x7fff).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                            .lanewise(VectorOperators.LSHR, 16)
                            .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                            .intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + g - i0) * 2, ORDER);
                }
            }
            for (int q = 0; q < redone; q++) {
                int r = redo[q];
                bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                        oFirst + r * oRowStride + g - i0, DataType.BF16);
            }
        }
    }

    /**
     * {@link #bf16OneVectorInPlace} for FP16 rows: the halfs widened as {@link #backwardInPlaceHalf}'s (a row group
     * holding an infinity or a NaN redone by the buffered form), the sums rounded as there.
     */
    private static void halfOneVectorInPlace(LinearTable t, int i, int runEnd, int i0, int rows, MemorySegment gradOut,
                                             long gFirst, long gRowStride, int jLo, MemorySegment out, long oFirst, long oRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final long gAddr = gradOut.address();
        final long oAddr = out.address();
        final int[] redo = redoRows(rows);
        final int rightBase = bounds[i];
        IntVector from = IntVector.fromArray(INTS, bounds, i);
        IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1);
        IntVector to = IntVector.fromArray(INTS, bounds, i + 2);
        IntVector rightCount = leftFrom.sub(from);
        IntVector leftCount = to.sub(leftFrom);
        IntVector right0 = from.sub(rightBase);
        IntVector left0 = leftFrom.sub(rightBase);
        VectorMask<Float> hasRight0 = rightCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        VectorMask<Float> hasLeft0 = leftCount.compare(VectorOperators.GT, 0).cast(FLOATS);
        FloatVector w1r = FloatVector.fromArray(FLOATS, w1, rightBase).mul(0x1p112f);
        FloatVector w0r = FloatVector.fromArray(FLOATS, w0, rightBase).mul(0x1p112f);
        for (int g = i; g < runEnd; g += LANES) {
            int base = bounds[g];
            int redone = 0;
            for (int r = 0; r < rows; r++) {
                IntVector h = (IntVector) ShortVector.fromMemorySegment(HALFS, RAW,
                        gAddr + (gFirst + r * gRowStride - jLo + base) * 2, ORDER)
                        .convertShape(VectorOperators.S2I, INTS, 0);
                if (h.and(0x7fff).compare(VectorOperators.GE, 0x7c00).anyTrue()) {
                    redo[redone++] = r;
                    continue;
                }
                FloatVector v = h.lanewise(VectorOperators.LSHL, 13).and(0x8fffe000).reinterpretAsFloats();
                IntVector p1 = v.mul(w1r).reinterpretAsInts();
                IntVector p0 = v.mul(w0r).reinterpretAsInts();
                IntVector bits = FloatVector.zero(FLOATS)
                        .add(right0.selectFrom(p1, p1).reinterpretAsFloats(), hasRight0)
                        .add(left0.selectFrom(p0, p0).reinterpretAsFloats(), hasLeft0).reinterpretAsInts();
                IntVector magnitude = bits.and(0x7fffffff);
                FloatVector magic = magnitude.and(0x7f800000).max(0x38800000).add(13 << 23)
                        .reinterpretAsFloats();
                magnitude.min(0x47800000).reinterpretAsFloats().add(magic).sub(magic).mul(0x1p-112f)
                        .reinterpretAsInts().lanewise(VectorOperators.LSHR, 13)
                        .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                        .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                        .intoMemorySegment(RAW, oAddr + (oFirst + r * oRowStride + g - i0) * 2, ORDER);
            }
            for (int q = 0; q < redone; q++) {
                int r = redo[q];
                bufferedInputs(t, g, g + LANES, gradOut, gFirst + r * gRowStride - jLo, out,
                        oFirst + r * oRowStride + g - i0, DataType.FLOAT16);
            }
        }
    }

    private static final ThreadLocal<int[]> REDO_ROWS = ThreadLocal.withInitial(() -> new int[64]);

    /** A per-thread array of at least {@code rows} row numbers (grown on demand, never per call). */
    private static int[] redoRows(int rows) {
        int[] redo = REDO_ROWS.get();
        if (redo.length < rows) {
            redo = new int[Math.max(rows, 2 * redo.length)];
            REDO_ROWS.set(redo);
        }
        return redo;
    }

    /** Per-thread buffers of {@link #bufferedInputs}: [0] the gradOut span, [1] the sums; grown on demand, never per row. */
    private static final ThreadLocal<float[][]> SMALL_BUFFERS =
            ThreadLocal.withInitial(() -> new float[][] {new float[4 * TILE], new float[TILE]});

    /**
     * Inputs {@code [iA, iB)} of one row through small buffers, by the buffered windowed form (which
     * masks a group of fewer than L inputs, and leaves the groups that do not fit it, and the last
     * input, to the scalar reference); gradOut position j is element {@code gBase + j}.
     */
    private static void bufferedInputs(LinearTable t, int iA, int iB, MemorySegment gradOut, long gBase, MemorySegment out,
                                     long oAt, DataType type) {
        int from = t.gatherFrom(iA);
        int span = t.gatherTo(iB) - from;
        float[][] buffers = SMALL_BUFFERS.get();
        // Two vectors of room after the span: the windowed form loads whole windows.
        if (buffers[0].length < span + 2 * LANES) {
            buffers[0] = new float[Math.max(span + 2 * LANES, 2 * buffers[0].length)];
        }
        if (buffers[1].length < iB - iA) {
            buffers[1] = new float[Math.max(iB - iA, 2 * buffers[1].length)];
        }
        float[] g = buffers[0];
        float[] acc = buffers[1];
        ElementCodec.decode(gradOut, type, gBase + from, 1, span, g, 0);
        backwardWindowed(t, iA, iB, 1, g, 0, span, acc, 0, iB - iA);
        ElementCodec.encode(acc, 0, iB - iA, out, type, oAt, 1);
    }

    /**
     * The gather form, row by row: the products P1 and P0 of the block's span, then for each
     * group of inputs, step k gathers every lane's k-th term (P1 for right taps, P0 for left taps;
     * a lane with fewer terms gathers the +0f slot after P0). The gather indices of a group are
     * computed once and reused for every row.
     */
    private static void backwardGather(LinearTable t, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                                       float[] acc, int accOffset, int accRowStride, float[] work) {
        final int jLo = t.gatherFrom(i0);
        final int span = t.gatherTo(i1) - jLo;
        final int rowBlock = 2 * span + 1;
        final int zero = 2 * span;
        formProducts(t, jLo, span, rows, g, gOffset, gRowStride, work, rowBlock);

        final int[] bounds = t.bounds;
        final int last = t.lin() - 1;
        final int vectorEnd = Math.min(i1, last);
        int[] gatherIndex = GATHER_INDEX.get();
        int need = Math.multiplyExact(Math.max(t.maxTerms(), 1), LANES);
        if (gatherIndex.length < need) {
            gatherIndex = new int[need];
            GATHER_INDEX.set(gatherIndex);
        }
        for (int i = i0; i < vectorEnd; i += LANES) {
            VectorMask<Integer> inputs = INTS.indexInRange(i, vectorEnd);
            IntVector from = IntVector.fromArray(INTS, bounds, i, inputs).sub(jLo);
            IntVector leftFrom = IntVector.fromArray(INTS, bounds, i + 1, inputs).sub(jLo);
            IntVector to = IntVector.fromArray(INTS, bounds, i + 2, inputs).sub(jLo);
            IntVector count = to.sub(from, inputs);
            int terms = count.reduceLanes(VectorOperators.MAX, inputs);
            for (int k = 0; k < terms; k++) {
                IntVector j = from.add(k);
                IntVector slot = j.add(span, j.compare(VectorOperators.GE, leftFrom));
                slot.blend(zero, count.compare(VectorOperators.LE, k).or(inputs.not()))
                        .intoArray(gatherIndex, k * LANES);
            }
            int a = accOffset + i - i0;
            VectorMask<Float> store = inputs.cast(FLOATS);
            for (int r = 0, w = 0; r < rows; r++, w += rowBlock, a += accRowStride) {
                FloatVector sum = FloatVector.zero(FLOATS);
                for (int k = 0; k < terms; k++) {
                    sum = sum.add(FloatVector.fromArray(FLOATS, work, w, gatherIndex, k * LANES));
                }
                sum.intoArray(acc, a, store);
            }
        }
        if (last >= i0 && last < i1) {
            sumLastInput(bounds, last, jLo, span, rows, work, rowBlock, acc, accOffset + last - i0, accRowStride);
        }
    }

    /** Per-thread gather indices of {@link #backwardGather} (terms × lanes), grown on demand, not allocated per call. */
    private static final ThreadLocal<int[]> GATHER_INDEX = ThreadLocal.withInitial(() -> new int[8 * LANES]);

    /** {@code work[r·rowBlock + jj] = w1·g}, {@code work[r·rowBlock + span + jj] = w0·g}, then +0f. */
    private static void formProducts(LinearTable t, int jLo, int span, int rows, float[] g, int gOffset, int gRowStride,
                                     float[] work, int rowBlock) {
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int bound = FLOATS.loopBound(span);
        for (int r = 0; r < rows; r++) {
            final int src = gOffset + r * gRowStride;
            final int p1 = r * rowBlock;
            final int p0 = p1 + span;
            int jj = 0;
            for (; jj < bound; jj += LANES) {
                FloatVector v = FloatVector.fromArray(FLOATS, g, src + jj);
                v.mul(FloatVector.fromArray(FLOATS, w1, jLo + jj)).intoArray(work, p1 + jj);
                v.mul(FloatVector.fromArray(FLOATS, w0, jLo + jj)).intoArray(work, p0 + jj);
            }
            for (; jj < span; jj++) {
                float v = g[src + jj];
                work[p1 + jj] = w1[jLo + jj] * v;
                work[p0 + jj] = w0[jLo + jj] * v;
            }
            work[p0 + span] = 0f;
        }
    }

    /** Input lin - 1: right-tap terms, then per rightmost output its left-tap and right-tap terms. */
    private static void sumLastInput(int[] bounds, int last, int jLo, int span, int rows, float[] work, int rowBlock,
                                     float[] acc, int a, int accRowStride) {
        int from = bounds[last] - jLo;
        int leftFrom = bounds[last + 1] - jLo;
        int to = bounds[last + 2] - jLo;
        for (int r = 0, w = 0; r < rows; r++, w += rowBlock, a += accRowStride) {
            float sum = 0f;
            for (int jj = from; jj < leftFrom; jj++) {
                sum += work[w + jj];
            }
            for (int jj = leftFrom; jj < to; jj++) {
                sum += work[w + span + jj];
                sum += work[w + jj];
            }
            acc[a] = sum;
        }
    }

    /**
     * BF16 widened in registers (zero-extend, shift left 16). FLOAT is a plain copy, and FP16 uses
     * the reference loop: the JIT compiles {@link Float#float16ToFloat} in a loop to vector
     * conversions ({@code vcvtph2ps}), faster than any bit manipulation here.
     */
    @Override
    public void decodeRun(MemorySegment seg, DataType type, long first, int count, float[] dst, int dstOff) {
        decode16(seg, type, first, count, dst, dstOff);
    }

    /** {@link #decodeRun}, for {@link #widen16} too. */
    private static void decode16(MemorySegment seg, DataType type, long first, int count, float[] dst, int dstOff) {
        if (type != DataType.BF16) {
            ElementCodec.decode(seg, type, first, 1, count, dst, dstOff);
            return;
        }
        int k = 0;
        long bytes = first * 2;
        for (int bound = count - LANES; k <= bound; k += LANES, bytes += 2L * LANES) {
            IntVector x = (IntVector) ShortVector.fromMemorySegment(HALFS, seg, bytes, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0);
            x.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().intoArray(dst, dstOff + k);
        }
        ElementCodec.decode(seg, type, first + k, 1, count - k, dst, dstOff + k);
    }

    /**
     * BF16 rounded to nearest even in registers, as {@link ElementCodec#floatToBf16}: add 0x7fff
     * plus the lowest kept bit, keep the top half; a vector holding a NaN goes through the
     * reference. FLOAT and FP16 as in {@link #decodeRun} ({@code vcvtps2ph} for FP16).
     */
    @Override
    public void encodeRun(float[] src, int srcOff, int count, MemorySegment seg, DataType type, long first) {
        encode16(src, srcOff, count, seg, type, first);
    }

    /** {@link #encodeRun}, for {@link #narrow16} too. */
    private static void encode16(float[] src, int srcOff, int count, MemorySegment seg, DataType type, long first) {
        if (type != DataType.BF16) {
            ElementCodec.encode(src, srcOff, count, seg, type, first, 1);
            return;
        }
        int k = 0;
        for (int bound = count - LANES; k <= bound; k += LANES) {
            IntVector bits = FloatVector.fromArray(FLOATS, src, srcOff + k).reinterpretAsInts();
            if (bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                ElementCodec.encode(src, srcOff + k, LANES, seg, type, first + k, 1);
                continue;
            }
            IntVector odd = bits.lanewise(VectorOperators.LSHR, 16).and(1);
            bits.add(0x7fff).add(odd).lanewise(VectorOperators.LSHR, 16)
                    .convertShape(VectorOperators.I2S, HALFS, 0).reinterpretAsShorts()
                    .intoMemorySegment(seg, (first + k) * 2, ORDER);
        }
        ElementCodec.encode(src, srcOff + k, count - k, seg, type, first + k, 1);
    }

    /** FLOAT rows whose count is a multiple of 16: whole vectors per position. */
    @Override
    public void decodeSideBySide(MemorySegment seg, DataType type, long first, long stride, int rows, int count,
                                 float[] dst) {
        if (type != DataType.FLOAT || rows % LANES != 0) {
            KernelProvider.super.decodeSideBySide(seg, type, first, stride, rows, count, dst);
            return;
        }
        for (int k = 0; k < count; k++) {
            long from = (first + k * stride) * 4;
            for (int r = 0; r < rows; r += LANES) {
                FloatVector.fromMemorySegment(FLOATS, seg, from + 4L * r, ORDER).intoArray(dst, k * rows + r);
            }
        }
    }

    /**
     * The reference's double-precision steps lane by lane: the same adds, multiplies, max and min (the
     * lanewise operations are Java's, max and min as blends), the floor of a non-negative src exactly
     * (by 2^52); then the conversions to int and float, one rounding each, in plain Java loops over a
     * per-thread scratch. No Vector API conversion or reinterpret here: with them, the JIT sometimes
     * compiled the 16-bit in-place kernels, which use the same conversion code, into their Java
     * fallbacks (3-40x slower; see docs/PERFORMANCE.md).
     */
    @Override
    public void fillTaps(int[] x0, float[] w0, float[] w1, int at, int first, int count, int lin, double scale,
                         double half, int tapBase) {
        int m = 0;
        if (count >= DOUBLE_LANES) {
            double[][] scratch = TAP_SCRATCH.get();
            double[] lefts = scratch[0];
            double[] lambdas = scratch[1];
            DoubleVector last = DoubleVector.broadcast(DOUBLES, lin - 1);
            DoubleVector step = DoubleVector.broadcast(DOUBLES, DOUBLE_LANES);
            // Output numbers as doubles: exact, as every int is.
            DoubleVector j = DoubleVector.zero(DOUBLES).addIndex(1).add(first);
            while (count - m >= DOUBLE_LANES) {
                int chunk = Math.min(TAP_CHUNK, (count - m) / DOUBLE_LANES * DOUBLE_LANES);
                for (int k = 0; k < chunk; k += DOUBLE_LANES, j = j.add(step)) {
                    // max(x, 0) and min(x, 1) as blends: the same values here (never NaN, never -0), and the JIT
                    // compiles double MAX/MIN to a slow fallback on this hardware.
                    DoubleVector raw = j.add(half).mul(scale).sub(half);
                    DoubleVector src = raw.blend(0.0, raw.compare(VectorOperators.LT, 0.0));
                    // min(floor(src), last), exactly: rounded by adding and removing 2^52 (from 2^52 on every double
                    // is an integer, and the tap is lin - 1 anyway), one less where that rounded up.
                    DoubleVector rounded = src.add(0x1p52).sub(0x1p52);
                    DoubleVector floor = rounded.sub(1.0, rounded.compare(VectorOperators.GT, src));
                    DoubleVector left = floor.blend(last, floor.compare(VectorOperators.GT, last));
                    DoubleVector diff = src.sub(left);
                    left.intoArray(lefts, k);
                    diff.blend(1.0, diff.compare(VectorOperators.GT, 1.0)).intoArray(lambdas, k);
                }
                // The conversions to int and float in plain loops, which the JIT vectorizes by itself: through the
                // Vector API (convertShape, or reinterprets and bit operations), they shared its conversion code with
                // the 16-bit in-place kernels, which the JIT then sometimes compiled into their Java fallbacks
                // (see docs/PERFORMANCE.md).
                for (int k = 0; k < chunk; k++) {
                    x0[at + m + k] = (int) lefts[k] - tapBase;
                }
                for (int k = 0; k < chunk; k++) {
                    double lambda1 = lambdas[k];
                    w1[at + m + k] = (float) lambda1;
                    w0[at + m + k] = (float) (1.0 - lambda1);
                }
                m += chunk;
            }
        }
        LinearTable.fillTaps(x0, w0, w1, at + m, first + m, count - m, lin, scale, half, tapBase);
    }

    /**
     * Where the taps step up by one (upsampling), the m at each step are the bounds of consecutive k:
     * a vector of 16 taps compresses the m of its steps into one store at the first of its k (the lanes
     * past the steps are overwritten by the next store, or by the fill of the k past the last tap). A
     * vector with a larger step (downsampling) goes through the reference's loop for its lanes.
     */
    @Override
    public void firstReaching(int[] taps, int count, int[] starts, int length) {
        if (count < LANES + 1 || taps[count - 1] + 1 + LANES >= length) {
            LinearTable.firstReaching(taps, count, starts, length);
            return;
        }
        // k <= taps[0] + 1 is first reached at m = 0.
        int filled = taps[0] + 1;
        Arrays.fill(starts, 0, filled + 1, 0);
        final IntVector iota = IntVector.zero(INTS).addIndex(1);
        int m = 1;
        for (int bound = count - LANES; m <= bound; m += LANES) {
            IntVector cur = IntVector.fromArray(INTS, taps, m);
            IntVector step = cur.sub(IntVector.fromArray(INTS, taps, m - 1));
            if (step.compare(VectorOperators.GT, 1).anyTrue()) {
                for (int l = 0; l < LANES; l++) {
                    int reach = taps[m + l] + 1;
                    while (filled < reach) {
                        starts[++filled] = m + l;
                    }
                }
                continue;
            }
            VectorMask<Integer> steps = step.compare(VectorOperators.GT, 0);
            iota.add(m).compress(steps).intoArray(starts, filled + 1);
            filled += steps.trueCount();
        }
        for (; m < count; m++) {
            int reach = taps[m] + 1;
            while (filled < reach) {
                starts[++filled] = m;
            }
        }
        Arrays.fill(starts, filled + 1, length, count);
    }

    @Override
    public int rowsPerVector() {
        return TILED ? TILE : 1;
    }

    /**
     * Sixteen rows at once: the gradOut block is transposed so that one vector holds one position
     * of all sixteen rows; each term is then that vector times the position's weight (broadcast),
     * added in the canonical order (per lane, exactly the scalar loop's operations), and the sums
     * are transposed back.
     */
    private static void backwardTile(LinearTable t, int i0, int i1, float[] g, int gOffset, int gRowStride, float[] acc,
                                     int accOffset, int accRowStride, float[] work) {
        final int span = t.gatherTo(i1) - t.gatherFrom(i0);
        final int sums = roundUp(span) * TILE;
        int p = 0;
        for (; p + TILE <= span; p += TILE) {
            transpose16(g, gOffset + p, gRowStride, work, p * TILE, TILE);
        }
        for (; p < span; p++) {
            for (int r = 0; r < TILE; r++) {
                work[p * TILE + r] = g[gOffset + r * gRowStride + p];
            }
        }
        tileSums(t, i0, i1, work, 0, TILE, work, sums);
        tileOut(work, sums, i1 - i0, acc, accOffset, accRowStride);
    }

    /**
     * The sums of 16 rows held position-major: position j of the 16 rows is the vector at
     * {@code g[gOffset + (j - jLo)·gStride]}; the sums of input i go to the vector at
     * {@code sums[sumsOffset + (i - i0)·16]}. Each term is one vector times a broadcast weight.
     */
    private static void tileSums(LinearTable t, int i0, int i1, float[] g, int gOffset, int gStride, float[] sums,
                                 int sumsOffset) {
        final int jLo = t.gatherFrom(i0);
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int end = Math.min(i1, last);
        for (int i = i0; i < end; i++) {
            FloatVector sum = FloatVector.zero(FLOATS);
            int j = bounds[i];
            int leftFrom = bounds[i + 1];
            int to = bounds[i + 2];
            for (int at = gOffset + (j - jLo) * gStride; j < leftFrom; j++, at += gStride) {
                sum = sum.add(FloatVector.fromArray(FLOATS, g, at).mul(w1[j]));
            }
            for (int at = gOffset + (j - jLo) * gStride; j < to; j++, at += gStride) {
                sum = sum.add(FloatVector.fromArray(FLOATS, g, at).mul(w0[j]));
            }
            sum.intoArray(sums, sumsOffset + (i - i0) * TILE);
        }
        if (last >= i0 && last < i1) {
            FloatVector sum = FloatVector.zero(FLOATS);
            int j = bounds[last];
            for (int leftFrom = bounds[last + 1]; j < leftFrom; j++) {
                sum = sum.add(FloatVector.fromArray(FLOATS, g, gOffset + (j - jLo) * gStride).mul(w1[j]));
            }
            for (int to = bounds[last + 2]; j < to; j++) {
                FloatVector v = FloatVector.fromArray(FLOATS, g, gOffset + (j - jLo) * gStride);
                sum = sum.add(v.mul(w0[j]));
                sum = sum.add(v.mul(w1[j]));
            }
            sum.intoArray(sums, sumsOffset + (last - i0) * TILE);
        }
    }

    /** Transposes {@code count} position-major sums of 16 rows into the rows of {@code acc}. */
    private static void tileOut(float[] sums, int sumsOffset, int count, float[] acc, int accOffset, int accRowStride) {
        int q = 0;
        for (; q + TILE <= count; q += TILE) {
            transpose16(sums, sumsOffset + q * TILE, TILE, acc, accOffset + q, accRowStride);
        }
        for (; q < count; q++) {
            for (int r = 0; r < TILE; r++) {
                acc[accOffset + r * accRowStride + q] = sums[sumsOffset + q * TILE + r];
            }
        }
    }

    /**
     * Rows side by side: each 16-row tile is summed straight from the position-major buffer (no
     * transpose on the way in), and its sums transposed into the rows of {@code acc}; rows left
     * over (fewer than 16) by the reference.
     */
    @Override
    public void linearBackwardSideBySide(LinearTable t, int i0, int i1, int rows, float[] g, float[] acc, int accOffset,
                                         int accRowStride, float[] work) {
        int r = 0;
        if (TILED) {
            for (; r + TILE <= rows; r += TILE) {
                tileSums(t, i0, i1, g, r, rows, work, 0);
                tileOut(work, 0, i1 - i0, acc, accOffset + r * accRowStride, accRowStride);
            }
        }
        if (r < rows) {
            ScalarKernelProvider.sideBySide(t, i0, i1, rows, r, g, acc, accOffset, accRowStride);
        }
    }

    /**
     * Inputs per pass of the in-place side-by-side form: four tiles' sums of them (128 KiB) stay in L2,
     * and each out row is written in runs of 2 KiB. On the transposed up2x case with blocks of 2048
     * inputs, passes of 512 took 15.5–15.8 ms, of 256 16.1–16.5 and of 128 17.3–17.6 (docs/PERFORMANCE.md).
     */
    static final int SIDE_BY_SIDE_INPUTS = 512;

    @Override
    public boolean sideBySideInPlace() {
        return TILED;
    }

    @Override
    public int sideBySideWorkFloats(int inputs) {
        return 4 * TILE * Math.min(inputs, SIDE_BY_SIDE_INPUTS);
    }

    /**
     * Rows side by side, in place: for every {@link #SIDE_BY_SIDE_INPUTS} inputs, four 16-row tiles
     * at a time are summed straight from gradOut (each position's 64 rows are 4 neighbouring
     * vectors: one pass over its cache lines) and each tile's sums are transposed straight into
     * out's rows; then single tiles, then rows left over (fewer than 16) one at a time. Each lane
     * does the scalar loop's operations in its order, so the sums are the buffered form's.
     */
    @Override
    public void linearBackwardSideBySideInPlace(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut,
                                                long gFirst, long gStride, MemorySegment out, long oFirst,
                                                long oRowStride, float[] work) {
        checkSideBySideAccess(t, i0, i1, rows, gradOut, gFirst, gStride, out, oFirst, oRowStride);
        final long gAt = gradOut.address() + 4 * gFirst;
        final long oAt = out.address() + 4 * oFirst;
        final long gStep = 4 * gStride;
        final long oStep = 4 * oRowStride;
        final int jLo = t.gatherFrom(i0);
        for (int a = i0; a < i1; a += SIDE_BY_SIDE_INPUTS) {
            int b = Math.min(i1, a + SIDE_BY_SIDE_INPUTS);
            int count = b - a;
            long g = gAt + gStep * (t.gatherFrom(a) - jLo);
            long o = oAt + 4L * (a - i0);
            int r = 0;
            if (TILED) {
                for (; r + 4 * TILE <= rows; r += 4 * TILE) {
                    fourTileSumsInPlace(t, a, b, g + 4L * r, gStep, work, TILE * count);
                    for (int q = 0; q < 4; q++) {
                        tileOutInPlace(work, q * TILE * count, count, o + (r + q * TILE) * oStep, oStep);
                    }
                }
                for (; r + TILE <= rows; r += TILE) {
                    tileSumsInPlace(t, a, b, g + 4L * r, gStep, work);
                    tileOutInPlace(work, 0, count, o + r * oStep, oStep);
                }
            }
            for (; r < rows; r++) {
                rowInPlace(t, a, b, g + 4L * r, gStep, o + r * oStep);
            }
        }
    }

    /** What the segments' checks would ensure at every access of the side-by-side form, once per call. */
    private static void checkSideBySideAccess(LinearTable t, int i0, int i1, int rows, MemorySegment gradOut,
                                              long gFirst, long gStride, MemorySegment out, long oFirst,
                                              long oRowStride) {
        if (!PinnedScopes.isHeld(gradOut) || !PinnedScopes.isHeld(out)) {
            throw new IllegalStateException("The in-place backward needs native memory held for the call (PinnedScopes)");
        }
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("out is read-only");
        }
        if (rows < 1 || i0 < 0 || i1 <= i0 || i1 > t.lin() || gStride < 0 || oRowStride < 0) {
            throw new IllegalArgumentException("rows " + rows + ", inputs [" + i0 + ", " + i1 + "), strides "
                    + gStride + " and " + oRowStride);
        }
        Objects.checkFromIndexSize(oFirst, Math.addExact(Math.multiplyExact(rows - 1L, oRowStride), i1 - i0),
                out.byteSize() / 4);
        int span = t.gatherTo(i1) - t.gatherFrom(i0);
        if (span > 0) {
            Objects.checkFromIndexSize(gFirst, Math.addExact(Math.multiplyExact(span - 1L, gStride), rows),
                    gradOut.byteSize() / 4);
        }
    }

    /**
     * {@link #tileSums} for four tiles of 16 rows, read in place: position j of row r is the float at
     * {@code address + (j - jLo)·stride + 4r} (bytes); tile q's sums of input i go to
     * {@code sums[q·quarter + (i - i0)·16]}.
     */
    private static void fourTileSumsInPlace(LinearTable t, int i0, int i1, long address, long stride, float[] sums,
                                            int quarter) {
        final int jLo = t.gatherFrom(i0);
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int end = Math.min(i1, last);
        for (int i = i0; i < end; i++) {
            FloatVector s0 = FloatVector.zero(FLOATS);
            FloatVector s1 = s0;
            FloatVector s2 = s0;
            FloatVector s3 = s0;
            int j = bounds[i];
            int leftFrom = bounds[i + 1];
            int to = bounds[i + 2];
            for (long at = address + (j - jLo) * stride; j < leftFrom; j++, at += stride) {
                float w = w1[j];
                s0 = s0.add(FloatVector.fromMemorySegment(FLOATS, RAW, at, ORDER).mul(w));
                s1 = s1.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 64, ORDER).mul(w));
                s2 = s2.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 128, ORDER).mul(w));
                s3 = s3.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 192, ORDER).mul(w));
            }
            for (long at = address + (j - jLo) * stride; j < to; j++, at += stride) {
                float w = w0[j];
                s0 = s0.add(FloatVector.fromMemorySegment(FLOATS, RAW, at, ORDER).mul(w));
                s1 = s1.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 64, ORDER).mul(w));
                s2 = s2.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 128, ORDER).mul(w));
                s3 = s3.add(FloatVector.fromMemorySegment(FLOATS, RAW, at + 192, ORDER).mul(w));
            }
            int at = (i - i0) * TILE;
            s0.intoArray(sums, at);
            s1.intoArray(sums, at + quarter);
            s2.intoArray(sums, at + 2 * quarter);
            s3.intoArray(sums, at + 3 * quarter);
        }
        if (last >= i0 && last < i1) {
            for (int q = 0; q < 4; q++) {
                lastInputInPlace(t, jLo, address + 64L * q, stride, sums, q * quarter + (last - i0) * TILE);
            }
        }
    }

    /** {@link #tileSums} for one tile of 16 rows, read in place as in {@link #fourTileSumsInPlace}. */
    private static void tileSumsInPlace(LinearTable t, int i0, int i1, long address, long stride, float[] sums) {
        final int jLo = t.gatherFrom(i0);
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int end = Math.min(i1, last);
        for (int i = i0; i < end; i++) {
            FloatVector sum = FloatVector.zero(FLOATS);
            int j = bounds[i];
            int leftFrom = bounds[i + 1];
            int to = bounds[i + 2];
            for (long at = address + (j - jLo) * stride; j < leftFrom; j++, at += stride) {
                sum = sum.add(FloatVector.fromMemorySegment(FLOATS, RAW, at, ORDER).mul(w1[j]));
            }
            for (long at = address + (j - jLo) * stride; j < to; j++, at += stride) {
                sum = sum.add(FloatVector.fromMemorySegment(FLOATS, RAW, at, ORDER).mul(w0[j]));
            }
            sum.intoArray(sums, (i - i0) * TILE);
        }
        if (last >= i0 && last < i1) {
            lastInputInPlace(t, jLo, address, stride, sums, (last - i0) * TILE);
        }
    }

    /** The row's last input for 16 rows: its right-tap terms, then per position its left and right terms. */
    private static void lastInputInPlace(LinearTable t, int jLo, long address, long stride, float[] sums, int at) {
        final int last = t.lin() - 1;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        FloatVector sum = FloatVector.zero(FLOATS);
        int j = t.bounds[last];
        for (int leftFrom = t.bounds[last + 1]; j < leftFrom; j++) {
            sum = sum.add(FloatVector.fromMemorySegment(FLOATS, RAW, address + (j - jLo) * stride, ORDER).mul(w1[j]));
        }
        for (int to = t.bounds[last + 2]; j < to; j++) {
            FloatVector v = FloatVector.fromMemorySegment(FLOATS, RAW, address + (j - jLo) * stride, ORDER);
            sum = sum.add(v.mul(w0[j]));
            sum = sum.add(v.mul(w1[j]));
        }
        sum.intoArray(sums, at);
    }

    /** {@link #tileOut} into 16 rows of out in place: row r's input q at {@code address + r·stride + 4q} (bytes). */
    private static void tileOutInPlace(float[] sums, int sumsOffset, int count, long address, long stride) {
        float[] half = TRANSPOSE_BUFFER.get();
        int q = 0;
        for (; q + TILE <= count; q += TILE) {
            firstRounds(sums, sumsOffset + q * TILE, TILE, half);
            lastRoundsInPlace(half, address + 4L * q, stride);
        }
        for (; q < count; q++) {
            for (int r = 0; r < TILE; r++) {
                RAW.set(ValueLayout.JAVA_FLOAT_UNALIGNED, address + r * stride + 4L * q, sums[sumsOffset + q * TILE + r]);
            }
        }
    }

    /** One row side by side, in place, with the scalar loop ({@link ScalarKernelProvider#sideBySide}). */
    private static void rowInPlace(LinearTable t, int i0, int i1, long address, long stride, long outAddress) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        for (int i = i0; i < i1; i++) {
            float sum = 0f;
            for (int j = bounds[i], end = bounds[i + 1]; j < end; j++) {
                sum += w1[j] * RAW.get(ValueLayout.JAVA_FLOAT_UNALIGNED, address + (j - jLo) * stride);
            }
            for (int j = bounds[i + 1], end = bounds[i + 2]; j < end; j++) {
                float v = RAW.get(ValueLayout.JAVA_FLOAT_UNALIGNED, address + (j - jLo) * stride);
                sum += w0[j] * v;
                if (i == last) {
                    sum += w1[j] * v;
                }
            }
            RAW.set(ValueLayout.JAVA_FLOAT_UNALIGNED, outAddress + 4L * (i - i0), sum);
        }
    }

    private static int roundUp(int n) {
        return (n + TILE - 1) / TILE * TILE;
    }

    /**
     * Transposes a 16 × 16 block: row r is {@code src[srcOff + r·srcStride ..]} (16 floats), and
     * column q is stored at {@code dst[dstOff + q·dstStride ..]}. Four rounds of two-source permutes
     * on the float bits as ints (one {@code vpermt2d} each on AVX-512, with no index conversion);
     * round s (8, 4, 2, 1) swaps the off-diagonal s × s blocks of each row pair (r, r + s), the
     * recursive block transpose done for all blocks at once. The rounds are split over two methods
     * of two rounds each, through a 256-float buffer: one method with all four rounds was too large
     * for the JIT's first tier, which left it running unoptimised for seconds (measured: 60× slower).
     */
    private static void transpose16(float[] src, int srcOff, int srcStride, float[] dst, int dstOff, int dstStride) {
        float[] half = TRANSPOSE_BUFFER.get();
        firstRounds(src, srcOff, srcStride, half);
        lastRounds(half, dst, dstOff, dstStride);
    }

    /** Rounds 8 and 4 of the transpose, rows from an array, into {@code half} (row r at {@code 16·r}). */
    private static void firstRounds(float[] src, int srcOff, int srcStride, float[] half) {
        IntVector a0 = FloatVector.fromArray(FLOATS, src, srcOff + 0 * srcStride).reinterpretAsInts();
        IntVector a1 = FloatVector.fromArray(FLOATS, src, srcOff + 1 * srcStride).reinterpretAsInts();
        IntVector a2 = FloatVector.fromArray(FLOATS, src, srcOff + 2 * srcStride).reinterpretAsInts();
        IntVector a3 = FloatVector.fromArray(FLOATS, src, srcOff + 3 * srcStride).reinterpretAsInts();
        IntVector a4 = FloatVector.fromArray(FLOATS, src, srcOff + 4 * srcStride).reinterpretAsInts();
        IntVector a5 = FloatVector.fromArray(FLOATS, src, srcOff + 5 * srcStride).reinterpretAsInts();
        IntVector a6 = FloatVector.fromArray(FLOATS, src, srcOff + 6 * srcStride).reinterpretAsInts();
        IntVector a7 = FloatVector.fromArray(FLOATS, src, srcOff + 7 * srcStride).reinterpretAsInts();
        IntVector a8 = FloatVector.fromArray(FLOATS, src, srcOff + 8 * srcStride).reinterpretAsInts();
        IntVector a9 = FloatVector.fromArray(FLOATS, src, srcOff + 9 * srcStride).reinterpretAsInts();
        IntVector a10 = FloatVector.fromArray(FLOATS, src, srcOff + 10 * srcStride).reinterpretAsInts();
        IntVector a11 = FloatVector.fromArray(FLOATS, src, srcOff + 11 * srcStride).reinterpretAsInts();
        IntVector a12 = FloatVector.fromArray(FLOATS, src, srcOff + 12 * srcStride).reinterpretAsInts();
        IntVector a13 = FloatVector.fromArray(FLOATS, src, srcOff + 13 * srcStride).reinterpretAsInts();
        IntVector a14 = FloatVector.fromArray(FLOATS, src, srcOff + 14 * srcStride).reinterpretAsInts();
        IntVector a15 = FloatVector.fromArray(FLOATS, src, srcOff + 15 * srcStride).reinterpretAsInts();
        IntVector b0 = SWAP_LOW_8.selectFrom(a0, a8);
        IntVector b8 = SWAP_HIGH_8.selectFrom(a0, a8);
        IntVector b1 = SWAP_LOW_8.selectFrom(a1, a9);
        IntVector b9 = SWAP_HIGH_8.selectFrom(a1, a9);
        IntVector b2 = SWAP_LOW_8.selectFrom(a2, a10);
        IntVector b10 = SWAP_HIGH_8.selectFrom(a2, a10);
        IntVector b3 = SWAP_LOW_8.selectFrom(a3, a11);
        IntVector b11 = SWAP_HIGH_8.selectFrom(a3, a11);
        IntVector b4 = SWAP_LOW_8.selectFrom(a4, a12);
        IntVector b12 = SWAP_HIGH_8.selectFrom(a4, a12);
        IntVector b5 = SWAP_LOW_8.selectFrom(a5, a13);
        IntVector b13 = SWAP_HIGH_8.selectFrom(a5, a13);
        IntVector b6 = SWAP_LOW_8.selectFrom(a6, a14);
        IntVector b14 = SWAP_HIGH_8.selectFrom(a6, a14);
        IntVector b7 = SWAP_LOW_8.selectFrom(a7, a15);
        IntVector b15 = SWAP_HIGH_8.selectFrom(a7, a15);
        IntVector c0 = SWAP_LOW_4.selectFrom(b0, b4);
        IntVector c4 = SWAP_HIGH_4.selectFrom(b0, b4);
        IntVector c1 = SWAP_LOW_4.selectFrom(b1, b5);
        IntVector c5 = SWAP_HIGH_4.selectFrom(b1, b5);
        IntVector c2 = SWAP_LOW_4.selectFrom(b2, b6);
        IntVector c6 = SWAP_HIGH_4.selectFrom(b2, b6);
        IntVector c3 = SWAP_LOW_4.selectFrom(b3, b7);
        IntVector c7 = SWAP_HIGH_4.selectFrom(b3, b7);
        IntVector c8 = SWAP_LOW_4.selectFrom(b8, b12);
        IntVector c12 = SWAP_HIGH_4.selectFrom(b8, b12);
        IntVector c9 = SWAP_LOW_4.selectFrom(b9, b13);
        IntVector c13 = SWAP_HIGH_4.selectFrom(b9, b13);
        IntVector c10 = SWAP_LOW_4.selectFrom(b10, b14);
        IntVector c14 = SWAP_HIGH_4.selectFrom(b10, b14);
        IntVector c11 = SWAP_LOW_4.selectFrom(b11, b15);
        IntVector c15 = SWAP_HIGH_4.selectFrom(b11, b15);
        c0.reinterpretAsFloats().intoArray(half, 0);
        c1.reinterpretAsFloats().intoArray(half, 16);
        c2.reinterpretAsFloats().intoArray(half, 32);
        c3.reinterpretAsFloats().intoArray(half, 48);
        c4.reinterpretAsFloats().intoArray(half, 64);
        c5.reinterpretAsFloats().intoArray(half, 80);
        c6.reinterpretAsFloats().intoArray(half, 96);
        c7.reinterpretAsFloats().intoArray(half, 112);
        c8.reinterpretAsFloats().intoArray(half, 128);
        c9.reinterpretAsFloats().intoArray(half, 144);
        c10.reinterpretAsFloats().intoArray(half, 160);
        c11.reinterpretAsFloats().intoArray(half, 176);
        c12.reinterpretAsFloats().intoArray(half, 192);
        c13.reinterpretAsFloats().intoArray(half, 208);
        c14.reinterpretAsFloats().intoArray(half, 224);
        c15.reinterpretAsFloats().intoArray(half, 240);
    }

    /** Rounds 2 and 1 of the transpose, from {@code half} into the columns of {@code dst}. */
    private static void lastRounds(float[] half, float[] dst, int dstOff, int dstStride) {
        IntVector a0 = FloatVector.fromArray(FLOATS, half, 0).reinterpretAsInts();
        IntVector a1 = FloatVector.fromArray(FLOATS, half, 16).reinterpretAsInts();
        IntVector a2 = FloatVector.fromArray(FLOATS, half, 32).reinterpretAsInts();
        IntVector a3 = FloatVector.fromArray(FLOATS, half, 48).reinterpretAsInts();
        IntVector a4 = FloatVector.fromArray(FLOATS, half, 64).reinterpretAsInts();
        IntVector a5 = FloatVector.fromArray(FLOATS, half, 80).reinterpretAsInts();
        IntVector a6 = FloatVector.fromArray(FLOATS, half, 96).reinterpretAsInts();
        IntVector a7 = FloatVector.fromArray(FLOATS, half, 112).reinterpretAsInts();
        IntVector a8 = FloatVector.fromArray(FLOATS, half, 128).reinterpretAsInts();
        IntVector a9 = FloatVector.fromArray(FLOATS, half, 144).reinterpretAsInts();
        IntVector a10 = FloatVector.fromArray(FLOATS, half, 160).reinterpretAsInts();
        IntVector a11 = FloatVector.fromArray(FLOATS, half, 176).reinterpretAsInts();
        IntVector a12 = FloatVector.fromArray(FLOATS, half, 192).reinterpretAsInts();
        IntVector a13 = FloatVector.fromArray(FLOATS, half, 208).reinterpretAsInts();
        IntVector a14 = FloatVector.fromArray(FLOATS, half, 224).reinterpretAsInts();
        IntVector a15 = FloatVector.fromArray(FLOATS, half, 240).reinterpretAsInts();
        IntVector b0 = SWAP_LOW_2.selectFrom(a0, a2);
        IntVector b2 = SWAP_HIGH_2.selectFrom(a0, a2);
        IntVector b1 = SWAP_LOW_2.selectFrom(a1, a3);
        IntVector b3 = SWAP_HIGH_2.selectFrom(a1, a3);
        IntVector b4 = SWAP_LOW_2.selectFrom(a4, a6);
        IntVector b6 = SWAP_HIGH_2.selectFrom(a4, a6);
        IntVector b5 = SWAP_LOW_2.selectFrom(a5, a7);
        IntVector b7 = SWAP_HIGH_2.selectFrom(a5, a7);
        IntVector b8 = SWAP_LOW_2.selectFrom(a8, a10);
        IntVector b10 = SWAP_HIGH_2.selectFrom(a8, a10);
        IntVector b9 = SWAP_LOW_2.selectFrom(a9, a11);
        IntVector b11 = SWAP_HIGH_2.selectFrom(a9, a11);
        IntVector b12 = SWAP_LOW_2.selectFrom(a12, a14);
        IntVector b14 = SWAP_HIGH_2.selectFrom(a12, a14);
        IntVector b13 = SWAP_LOW_2.selectFrom(a13, a15);
        IntVector b15 = SWAP_HIGH_2.selectFrom(a13, a15);
        IntVector c0 = SWAP_LOW_1.selectFrom(b0, b1);
        IntVector c1 = SWAP_HIGH_1.selectFrom(b0, b1);
        IntVector c2 = SWAP_LOW_1.selectFrom(b2, b3);
        IntVector c3 = SWAP_HIGH_1.selectFrom(b2, b3);
        IntVector c4 = SWAP_LOW_1.selectFrom(b4, b5);
        IntVector c5 = SWAP_HIGH_1.selectFrom(b4, b5);
        IntVector c6 = SWAP_LOW_1.selectFrom(b6, b7);
        IntVector c7 = SWAP_HIGH_1.selectFrom(b6, b7);
        IntVector c8 = SWAP_LOW_1.selectFrom(b8, b9);
        IntVector c9 = SWAP_HIGH_1.selectFrom(b8, b9);
        IntVector c10 = SWAP_LOW_1.selectFrom(b10, b11);
        IntVector c11 = SWAP_HIGH_1.selectFrom(b10, b11);
        IntVector c12 = SWAP_LOW_1.selectFrom(b12, b13);
        IntVector c13 = SWAP_HIGH_1.selectFrom(b12, b13);
        IntVector c14 = SWAP_LOW_1.selectFrom(b14, b15);
        IntVector c15 = SWAP_HIGH_1.selectFrom(b14, b15);
        c0.reinterpretAsFloats().intoArray(dst, dstOff + 0 * dstStride);
        c1.reinterpretAsFloats().intoArray(dst, dstOff + 1 * dstStride);
        c2.reinterpretAsFloats().intoArray(dst, dstOff + 2 * dstStride);
        c3.reinterpretAsFloats().intoArray(dst, dstOff + 3 * dstStride);
        c4.reinterpretAsFloats().intoArray(dst, dstOff + 4 * dstStride);
        c5.reinterpretAsFloats().intoArray(dst, dstOff + 5 * dstStride);
        c6.reinterpretAsFloats().intoArray(dst, dstOff + 6 * dstStride);
        c7.reinterpretAsFloats().intoArray(dst, dstOff + 7 * dstStride);
        c8.reinterpretAsFloats().intoArray(dst, dstOff + 8 * dstStride);
        c9.reinterpretAsFloats().intoArray(dst, dstOff + 9 * dstStride);
        c10.reinterpretAsFloats().intoArray(dst, dstOff + 10 * dstStride);
        c11.reinterpretAsFloats().intoArray(dst, dstOff + 11 * dstStride);
        c12.reinterpretAsFloats().intoArray(dst, dstOff + 12 * dstStride);
        c13.reinterpretAsFloats().intoArray(dst, dstOff + 13 * dstStride);
        c14.reinterpretAsFloats().intoArray(dst, dstOff + 14 * dstStride);
        c15.reinterpretAsFloats().intoArray(dst, dstOff + 15 * dstStride);
    }

    /**
     * {@link #lastRounds} with the columns stored at raw addresses, column q at {@code address + q·stride}
     * (bytes): the same permutes (a helper returning the sixteen vectors would box them).
     */
    private static void lastRoundsInPlace(float[] half, long address, long stride) {
        IntVector a0 = FloatVector.fromArray(FLOATS, half, 0).reinterpretAsInts();
        IntVector a1 = FloatVector.fromArray(FLOATS, half, 16).reinterpretAsInts();
        IntVector a2 = FloatVector.fromArray(FLOATS, half, 32).reinterpretAsInts();
        IntVector a3 = FloatVector.fromArray(FLOATS, half, 48).reinterpretAsInts();
        IntVector a4 = FloatVector.fromArray(FLOATS, half, 64).reinterpretAsInts();
        IntVector a5 = FloatVector.fromArray(FLOATS, half, 80).reinterpretAsInts();
        IntVector a6 = FloatVector.fromArray(FLOATS, half, 96).reinterpretAsInts();
        IntVector a7 = FloatVector.fromArray(FLOATS, half, 112).reinterpretAsInts();
        IntVector a8 = FloatVector.fromArray(FLOATS, half, 128).reinterpretAsInts();
        IntVector a9 = FloatVector.fromArray(FLOATS, half, 144).reinterpretAsInts();
        IntVector a10 = FloatVector.fromArray(FLOATS, half, 160).reinterpretAsInts();
        IntVector a11 = FloatVector.fromArray(FLOATS, half, 176).reinterpretAsInts();
        IntVector a12 = FloatVector.fromArray(FLOATS, half, 192).reinterpretAsInts();
        IntVector a13 = FloatVector.fromArray(FLOATS, half, 208).reinterpretAsInts();
        IntVector a14 = FloatVector.fromArray(FLOATS, half, 224).reinterpretAsInts();
        IntVector a15 = FloatVector.fromArray(FLOATS, half, 240).reinterpretAsInts();
        IntVector b0 = SWAP_LOW_2.selectFrom(a0, a2);
        IntVector b2 = SWAP_HIGH_2.selectFrom(a0, a2);
        IntVector b1 = SWAP_LOW_2.selectFrom(a1, a3);
        IntVector b3 = SWAP_HIGH_2.selectFrom(a1, a3);
        IntVector b4 = SWAP_LOW_2.selectFrom(a4, a6);
        IntVector b6 = SWAP_HIGH_2.selectFrom(a4, a6);
        IntVector b5 = SWAP_LOW_2.selectFrom(a5, a7);
        IntVector b7 = SWAP_HIGH_2.selectFrom(a5, a7);
        IntVector b8 = SWAP_LOW_2.selectFrom(a8, a10);
        IntVector b10 = SWAP_HIGH_2.selectFrom(a8, a10);
        IntVector b9 = SWAP_LOW_2.selectFrom(a9, a11);
        IntVector b11 = SWAP_HIGH_2.selectFrom(a9, a11);
        IntVector b12 = SWAP_LOW_2.selectFrom(a12, a14);
        IntVector b14 = SWAP_HIGH_2.selectFrom(a12, a14);
        IntVector b13 = SWAP_LOW_2.selectFrom(a13, a15);
        IntVector b15 = SWAP_HIGH_2.selectFrom(a13, a15);
        IntVector c0 = SWAP_LOW_1.selectFrom(b0, b1);
        IntVector c1 = SWAP_HIGH_1.selectFrom(b0, b1);
        IntVector c2 = SWAP_LOW_1.selectFrom(b2, b3);
        IntVector c3 = SWAP_HIGH_1.selectFrom(b2, b3);
        IntVector c4 = SWAP_LOW_1.selectFrom(b4, b5);
        IntVector c5 = SWAP_HIGH_1.selectFrom(b4, b5);
        IntVector c6 = SWAP_LOW_1.selectFrom(b6, b7);
        IntVector c7 = SWAP_HIGH_1.selectFrom(b6, b7);
        IntVector c8 = SWAP_LOW_1.selectFrom(b8, b9);
        IntVector c9 = SWAP_HIGH_1.selectFrom(b8, b9);
        IntVector c10 = SWAP_LOW_1.selectFrom(b10, b11);
        IntVector c11 = SWAP_HIGH_1.selectFrom(b10, b11);
        IntVector c12 = SWAP_LOW_1.selectFrom(b12, b13);
        IntVector c13 = SWAP_HIGH_1.selectFrom(b12, b13);
        IntVector c14 = SWAP_LOW_1.selectFrom(b14, b15);
        IntVector c15 = SWAP_HIGH_1.selectFrom(b14, b15);
        c0.reinterpretAsFloats().intoMemorySegment(RAW, address + 0 * stride, ORDER);
        c1.reinterpretAsFloats().intoMemorySegment(RAW, address + 1 * stride, ORDER);
        c2.reinterpretAsFloats().intoMemorySegment(RAW, address + 2 * stride, ORDER);
        c3.reinterpretAsFloats().intoMemorySegment(RAW, address + 3 * stride, ORDER);
        c4.reinterpretAsFloats().intoMemorySegment(RAW, address + 4 * stride, ORDER);
        c5.reinterpretAsFloats().intoMemorySegment(RAW, address + 5 * stride, ORDER);
        c6.reinterpretAsFloats().intoMemorySegment(RAW, address + 6 * stride, ORDER);
        c7.reinterpretAsFloats().intoMemorySegment(RAW, address + 7 * stride, ORDER);
        c8.reinterpretAsFloats().intoMemorySegment(RAW, address + 8 * stride, ORDER);
        c9.reinterpretAsFloats().intoMemorySegment(RAW, address + 9 * stride, ORDER);
        c10.reinterpretAsFloats().intoMemorySegment(RAW, address + 10 * stride, ORDER);
        c11.reinterpretAsFloats().intoMemorySegment(RAW, address + 11 * stride, ORDER);
        c12.reinterpretAsFloats().intoMemorySegment(RAW, address + 12 * stride, ORDER);
        c13.reinterpretAsFloats().intoMemorySegment(RAW, address + 13 * stride, ORDER);
        c14.reinterpretAsFloats().intoMemorySegment(RAW, address + 14 * stride, ORDER);
        c15.reinterpretAsFloats().intoMemorySegment(RAW, address + 15 * stride, ORDER);
    }

    @Override
    public void linearForward(LinearTable t, float[] x, int xBase, float[] y, int j0, int j1) {
        SCALAR.linearForward(t, x, xBase, y, j0, j1);
    }
}
