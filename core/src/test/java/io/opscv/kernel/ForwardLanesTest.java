package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The forward kernel (rows in lanes) with both providers, every dtype and layout, against a plain
 * reference written here: for each row and output j, {@code w0[j]·x[x0] + w1[j]·x[x1]} in float, rounded once.
 */
class ForwardLanesTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();

    static Stream<KernelCase> cases() {
        DataType f = DataType.FLOAT;
        KernelCase.Layout cont = KernelCase.Layout.CONTIGUOUS;
        // KernelCase's lin/lout are read the other way round here: gradOut(arena) is self (n, c, lin), out(arena)
        // is out (n, c, lout) when the case is built as (n, c, lout, lin).
        List<KernelCase> shapes = List.of(
                new KernelCase("up2x", 2, 19, 600, 300, false, 0, f, cont, false),
                new KernelCase("up3.7x_ac", 1, 17, 259, 70, true, 0, f, cont, true),
                new KernelCase("down4x", 2, 9, 250, 1000, false, 0, f, cont, false),
                new KernelCase("down500x", 1, 18, 3, 1500, false, 0, f, cont, true),
                // Downsampling by 32 or more reads only the taps (SparseForward): a run of outputs per row, and
                // outputs of one position across many rows, split over tasks.
                new KernelCase("down64x_row_runs", 2, 3, 100, 6400, false, 0, f, cont, false),
                new KernelCase("down40x_across_rows", 3, 3000, 1, 40, true, 0, f, cont, false),
                new KernelCase("down33x_ac", 2, 5, 7, 233, true, 0, f, cont, true),
                // Rows of one output, and of a few from 16 or more channels side by side (transposed layout).
                new KernelCase("tiny_out_one", 30, 40, 1, 9, false, 0, f, cont, false),
                new KernelCase("tiny_out_c20", 5, 20, 3, 7, true, 0, f, cont, true),
                new KernelCase("down3x_c64", 2, 64, 50, 150, false, 0, f, cont, false),
                new KernelCase("down7x_few_rows", 1, 5, 143, 1000, true, 0, f, cont, true),
                // Rows of 64 outputs or more read tap by tap, a loop per dtype (SparseForwardRows): by 32 or more
                // from contiguous rows, by 7 from a channels-last self of few rows; unequal weights (alignCorners).
                new KernelCase("sparse_rows_down33x_ac", 1, 3, 70, 2300, true, 0, f, cont, false),
                new KernelCase("sparse_rows_c2_down7x_ac", 4, 2, 143, 1000, true, 0, f,
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                // Downsampling by 3 to 31 of rows of 512 inputs or more, four rows at a time (GatherForward): 21
                // rows (a partial last set), blocks of inputs cut across the row with outputs' right taps in the
                // next block, the clamped last output (alignCorners), a given scale that puts four outputs on
                // each input (more outputs than a block has inputs), and an output whose taps are both the
                // last input with weights 0.33 and 0.67.
                new KernelCase("gather_down7x_rows", 3, 7, 1286, 9000, false, 0, f, cont, true),
                new KernelCase("gather_down3x_ac", 2, 3, 1367, 4100, true, 0, f, cont, false),
                new KernelCase("gather_dense_scales", 1, 2, 10000, 30000, false, 4.0, f, cont, false),
                new KernelCase("gather_both_taps_last", 2, 3, 1000, 3000, false, 0.30015, f, cont, true),
                // The last output's right tap is the last input, at weight 0.48.
                new KernelCase("gather_right_tap_last", 2, 3, 1000, 3000, false, 0.33328, f, cont, false),
                // Long rows at ratios below 4 go along the row, a vector of outputs at a time (GatherForward,
                // linearForward): upsampling blocks of fewer inputs, small and large ratios, a downsampling
                // near 2 whose vectors of outputs alternately fit two vectors of inputs and do not, downsampling
                // by 2 and 3 (four vectors of inputs), and a given scale that clamps the last outputs' taps.
                new KernelCase("along_up1.1x_blocks", 1, 5, 9900, 9000, false, 0, f, cont, true),
                new KernelCase("along_up16x_ac", 2, 3, 9600, 600, true, 0, f, cont, false),
                new KernelCase("along_down1.9x", 1, 6, 3700, 7000, false, 0, f, cont, true),
                new KernelCase("along_down1.5x_scales", 1, 3, 4000, 6000, false, 0.7, f, cont, false),
                new KernelCase("along_down2x_ac", 1, 5, 4500, 9000, true, 0, f, cont, false),
                new KernelCase("along_down3x", 2, 3, 3000, 9000, false, 0, f, cont, true),
                new KernelCase("up500x", 1, 3, 1500, 3, false, 0, f, cont, false),
                new KernelCase("lin1", 2, 9, 7, 1, false, 0, f, cont, false),
                new KernelCase("lout1", 2, 9, 1, 9, true, 0, f, cont, false),
                new KernelCase("identity", 2, 17, 20, 20, false, 0, f, cont, true),
                new KernelCase("tiny_rows", 40, 30, 16, 5, false, 0, f, cont, false),
                // Short rows end to end as one row of taps (FlatRows): chunks of whole rows with a partial last
                // chunk and chunks across batches, vectors of outputs across row ends in two vectors of inputs
                // (up 3.75x, 1 -> 11, down 8 -> 7) and in four (down 2x, 2.5x), rows of one chunk each (205).
                new KernelCase("flat_up3.75x", 7, 93, 15, 4, true, 0, f, cont, false),
                new KernelCase("flat_one_to_eleven", 3, 101, 11, 1, true, 0, f, cont, true),
                new KernelCase("flat_down8to7_ac", 5, 61, 7, 8, true, 0, f, cont, false),
                new KernelCase("flat_down2x", 4, 333, 3, 6, true, 0, f, cont, false),
                new KernelCase("flat_down2.5x_long", 3, 17, 82, 205, false, 0, f, cont, true),
                new KernelCase("flat_up_scales", 2, 150, 9, 5, false, 1.6, f, cont, false),
                // Rows of a long period (16 rows of 69 or 103): chunks of eight periods and a partial last chunk.
                new KernelCase("flat_long_period_chunks", 3, 301, 69, 103, true, 0, f, cont, true),
                new KernelCase("flat_long_period_chunks_down", 2, 333, 103, 69, false, 0, f, cont, false),
                // Rows upsampled by 4 or more to at most 256 outputs: end to end below 16 lanes, in lanes above.
                new KernelCase("flat_up12x_long", 9, 31, 48, 4, false, 0, f, cont, true),
                new KernelCase("flat_up25x_ac", 4, 7, 200, 8, true, 0, f, cont, false),
                // A channels-last self of few channels, downsampled: chunks of whole batches read as one run,
                // with a partial last chunk.
                new KernelCase("flat_c8_down8to6_ac", 400, 8, 6, 8, true, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, true),
                new KernelCase("flat_c3_down2x", 700, 3, 9, 18, false, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                // A channels-last self of one input a row is rows end to end (its L stride says nothing): flat.
                new KernelCase("flat_c64_one_to_sixteen_ac", 40, 64, 16, 1, true, 0, f,
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, true),
                // Downsampled short rows whose vectors of outputs reach past four vectors of inputs: gathered.
                new KernelCase("flat_c2_down6x_gathered", 300, 2, 3, 18, false, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, true),
                new KernelCase("flat_down6x_gathered", 5, 30, 40, 240, true, 0, f, cont, false),
                // A channels-last self of 2, 4, 8 channels upsampled, in lanes: groups of whole batches gathered
                // or loaded by runs per position.
                new KernelCase("lanes_c2_up", 50, 2, 40, 13, false, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, true),
                new KernelCase("lanes_c4_up_ac", 30, 4, 37, 17, true, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                new KernelCase("lanes_c8_up", 12, 8, 50, 21, false, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                // Both channels-last, pixels of two vectors or more, rows of 4096 elements or more: the 2-D rows
                // form one row high (Bilinear2dRows.runOneRowHigh); pixels of whole and partial vectors.
                new KernelCase("pixel_rows_c24_up3x", 3, 24, 600, 200, false, 0, f, KernelCase.Layout.CHANNELS_LAST, true),
                new KernelCase("pixel_rows_c40_down_ac", 2, 40, 130, 300, true, 0, f, KernelCase.Layout.CHANNELS_LAST,
                        false),
                new KernelCase("pixel_rows_c16_down10x", 4, 16, 30, 300, false, 0, f, KernelCase.Layout.CHANNELS_LAST,
                        false));
        List<KernelCase> all = new ArrayList<>();
        for (KernelCase base : shapes) {
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
                all.add(base.with(type));
            }
            for (KernelCase.Layout layout : KernelCase.Layout.values()) {
                all.add(base.with(layout));
            }
            // Padded out rows are written a row at a time from one rounded chunk: every dtype.
            for (DataType type : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
                all.add(base.with(type).with(KernelCase.Layout.PADDED_OUT));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void bothProvidersMatchThePlainReference(KernelCase kc) {
        int lin = kc.lout();
        int lout = kc.lin();
        LinearTable table = LinearTable.of(lin, lout, kc.alignCorners(), kc.scales());
        try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
            StridedTensor self = kc.gradOut(arena);
            int[] expected = reference(self, table, arena);
            for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                StridedTensor out = kc.out(arena);
                Linear1dForwardKernel.run(self, out, table, provider, pool);
                assertArrayEquals(expected, KernelCase.bits(out), provider.name() + " on " + kc);
                assertEquals(-1, KernelCase.firstWriteOutside(out), provider.name() + ": a byte outside out's view changed");
            }
        }
    }

    /**
     * The long rows' form ({@link GatherForward}) in blocks small enough that the cases' rows cross them (its own
     * blocks hold most rows whole): outputs whose right tap is the next block's first input, a partial last block,
     * an upsampling's blocks of fewer inputs, against the plain reference.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {1024, 4096})
    void longRowsInSmallBlocksMatchThePlainReference(int block) {
        List<KernelCase> gathered = cases().filter(kc -> kc.name().startsWith("gather_") || kc.name().startsWith("along_"))
                .toList();
        int taken = 0;
        try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
            for (KernelCase kc : gathered) {
                LinearTable table = LinearTable.of(kc.lout(), kc.lin(), kc.alignCorners(), kc.scales());
                StridedTensor self = kc.gradOut(arena);
                int[] expected = reference(self, table, arena);
                for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                    StridedTensor out = kc.out(arena);
                    if (!GatherForward.applies(table.full(), self)) {
                        continue;
                    }
                    taken++;
                    GatherForward.run(self, out, table.full(), provider, pool, block);
                    assertArrayEquals(expected, KernelCase.bits(out), provider.name() + " on " + kc);
                    assertEquals(-1, KernelCase.firstWriteOutside(out), provider.name() + ": wrote outside out on " + kc);
                }
            }
        }
        // 88 of the 132 cases (the rest have a strided self), with each provider.
        assertEquals(176, taken);
    }

    private static int[] reference(StridedTensor self, LinearTable t, Arena arena) {
        long n = self.shape()[0];
        long c = self.shape()[1];
        int lin = t.lin();
        int lout = t.lout();
        DataType type = self.dataType();
        MemorySegment seg = arena.allocate(n * c * lout * type.byteSize(), 8);
        float[] x = new float[lin];
        float[] y = new float[lout];
        for (long r = 0; r < n * c; r++) {
            long first = self.offset() + (r / c) * self.strides()[0] + (r % c) * self.strides()[1];
            ElementCodec.decode(self.segment(), type, first, self.strides()[2], lin, x, 0);
            for (int j = 0; j < lout; j++) {
                y[j] = t.identity() ? x[j] : t.w0(j) * x[t.x0(j)] + t.w1(j) * x[t.x1(j)];
            }
            ElementCodec.encode(y, 0, lout, seg, type, r * lout, 1);
        }
        return KernelCase.bits(new StridedTensor(seg, 0, new long[] {n, c, lout}, new long[] {c * lout, lout, 1}, type));
    }

    /**
     * Contiguous rows upsampled by 4 or more to more than 32 outputs go end to end (FlatRows) below 16 lanes up to 256
     * outputs, and in lanes with 16 lanes or beyond 256 outputs.
     */
    @Test
    void upsampledRowsGoEndToEndBelowSixteenLanes() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            for (int[] s : new int[][] {{4, 48, 1}, {8, 200, 1}, {40, 256, 1}, {16, 300, 0}, {40, 257, 0}}) {
                KernelCase kc = new KernelCase("up", 3, 5, s[1], s[0], false, 0, DataType.FLOAT,
                        KernelCase.Layout.CONTIGUOUS, false);
                LinearTable t = LinearTable.of(s[0], s[1], false, 0).full();
                RowTaps taps = FlatRows.forwardTaps(t, kc.gradOut(arena), kc.out(arena), VECTOR);
                assertEquals(s[2] == 1 && lanes < 16, taps != null, s[0] + " -> " + s[1] + " at " + lanes + " lanes");
            }
        }
    }

    /**
     * The row form (the long rows' forward, {@code GatherForward}): gathered taps of one to four rows, each
     * vector's table entries shared, against the scalar loop, on random axes (up to 700 inputs and 2000
     * outputs, either way), blocks, bases and pitches, the last row with and without slack after its taps.
     */
    @Test
    void rowFormMatchesTheScalarLoop() {
        java.util.Random random = new java.util.Random(11);
        for (int trial = 0; trial < 600; trial++) {
            int lin = 1 + random.nextInt(trial % 3 == 0 ? 700 : 40);
            int lout = 1 + random.nextInt(trial % 4 == 0 ? 2000 : 90);
            LinearTable t = LinearTable.of(lin, lout, random.nextBoolean(), 0);
            int j0 = random.nextInt(lout);
            int j1 = j0 + 1 + random.nextInt(lout - j0);
            int rows = 1 + random.nextInt(4);
            int xBase = t.x0(j0) - random.nextInt(3);
            int span = t.x1(j1 - 1) - xBase + 1;
            int xPitch = span + random.nextInt(3);
            int yPitch = j1 - j0 + random.nextInt(3);
            float[] x = inputs(random, (rows - 1) * xPitch + span + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[rows * yPitch];
            float[] actual = new float[rows * yPitch];
            SCALAR.linearForward(t, x, xBase, xPitch, expected, j0, yPitch, rows, j0, j1);
            VECTOR.linearForward(t, x, xBase, xPitch, actual, j0, yPitch, rows, j0, j1);
            assertSameFloats(expected, actual, "trial " + trial + " (" + lin + " -> " + lout + ", [" + j0 + ", " + j1
                    + "), " + rows + " rows, base " + xBase + ", pitches " + xPitch + ", " + yPitch + ")");
        }
    }

    /**
     * {@link KernelProvider#interpolateRow} (the 2-D rows' W pass) against the scalar loop, on random axes
     * from downsampling by 8 to upsampling by 8, pixels of 1, 3 and 16 elements (the permute windows of two
     * and four vectors, runs of channels, gathers), random blocks and bases, with and without
     * slack after the taps.
     */
    @Test
    void pixelRowFormMatchesTheScalarLoop() {
        java.util.Random random = new java.util.Random(12);
        for (int trial = 0; trial < 600; trial++) {
            int lin = 1 + random.nextInt(trial % 3 == 0 ? 700 : 40);
            int lout = Math.max(1, (int) (lin * Math.exp((random.nextDouble() - 0.5) * 4.2)));
            int pix = new int[] {1, 1, 3, 16}[trial % 4];
            RowTaps taps = RowTaps.of(LinearTable.of(lin, lout, random.nextBoolean(), 0), pix);
            int e0 = random.nextInt(taps.length());
            int e1 = e0 + 1 + random.nextInt(taps.length() - e0);
            int lowest = Integer.MAX_VALUE;
            int highest = 0;
            for (int e = e0; e < e1; e++) {
                lowest = Math.min(lowest, taps.left[e]);
                highest = Math.max(highest, taps.right[e]);
            }
            int xBase = lowest - random.nextInt(3);
            float[] x = inputs(random, highest - xBase + 1 + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[e1 - e0];
            float[] actual = new float[e1 - e0];
            SCALAR.interpolateRow(taps, e0, e1, x, xBase, expected, e0);
            VECTOR.interpolateRow(taps, e0, e1, x, xBase, actual, e0);
            assertSameFloats(expected, actual, "trial " + trial + " (" + lin + " -> " + lout + " pixels of " + pix
                    + ", [" + e0 + ", " + e1 + "), base " + xBase + ")");
        }
    }

    /**
     * interpolateRow on pixel rows whose taps repeat every period ({@link RowTaps#runs}), random ranges, against the
     * scalar loop on the same row's taps: integer upsampling, ×5/2 and downsampling by 2 or 4, pixels of 1, 2, 4, 8
     * and 3 elements (periods of one vector or several); without alignCorners the weights repeat with the indices,
     * with it they drift, a run holds every element's weights, and ×5/2 rows have several runs.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void periodicPixelRowsMatchTheScalarLoop(boolean alignCorners) {
        java.util.Random random = new java.util.Random(15);
        int runs = 0;
        int severalVectors = 0;
        int severalRuns = 0;
        for (int trial = 0; trial < 400; trial++) {
            int lin = 4 * (4 + random.nextInt(120));
            int k = 1 + random.nextInt(3);
            int lout = trial % 3 == 2 ? lin * 5 / 2 : trial % 2 == 0 ? lin * (k + 1) : lin >> (k - 1);
            int pix = new int[] {1, 2, 4, 8, 3}[trial % 5];
            RowTaps taps = RowTaps.of(LinearTable.of(lin, lout, alignCorners, 0), pix, VECTOR.lanes());
            int n = taps.length();
            int e0 = random.nextBoolean() ? 0 : random.nextInt(n);
            int e1 = random.nextBoolean() ? n : e0 + 1 + random.nextInt(n - e0);
            float[] x = inputs(random, lin * pix + 4 * 16);
            float[] expected = new float[e1 - e0];
            float[] actual = new float[e1 - e0];
            SCALAR.interpolateRow(taps, e0, e1, x, 0, expected, e0);
            VECTOR.interpolateRow(taps, e0, e1, x, 0, actual, e0);
            assertSameFloats(expected, actual, "trial " + trial + " (" + lin + " -> " + lout + " pixels of " + pix
                    + ", [" + e0 + ", " + e1 + "))");
            float[] row = new float[n];
            SCALAR.interpolateRow(taps, 0, n, x, 0, row, 0);
            for (int i = 0; i < taps.runs.length; i++) {
                // Each run alone, as the scalar loop reads it, is its stretch of the row.
                RowTaps run = taps.runs[i];
                float[] alone = new float[run.length()];
                SCALAR.interpolateRow(run, 0, alone.length, x, 0, alone, 0);
                assertSameFloats(java.util.Arrays.copyOfRange(row, taps.runFrom[i], taps.runFrom[i] + alone.length),
                        alone, "run " + i + " of trial " + trial);
                runs += run.weightStep == (alignCorners ? run.period : 0) ? 1 : 0;
                severalVectors += run.period > VECTOR.lanes() ? 1 : 0;
            }
            severalRuns += taps.runs.length > 1 ? 1 : 0;
        }
        // Counts at 16, 8 and 4 lanes: runs 325-349 and 199-361 (without and with alignCorners), of several vectors
        // 170-227, rows of several runs (alignCorners, x2.5) 54-98.
        org.junit.jupiter.api.Assertions.assertTrue(runs > 150, runs + " periodic runs");
        org.junit.jupiter.api.Assertions.assertTrue(severalVectors > 80, severalVectors + " runs of several vectors");
        org.junit.jupiter.api.Assertions.assertTrue(!alignCorners || severalRuns > 30, severalRuns + " rows of runs");
    }

    /**
     * interpolateRow on the flat rows' periodic taps ({@link RowTaps#flat}: rows end to end or channels-last
     * batches, whose tables hold one period): random tables, chunks of many periods and random ranges (whole
     * periods taken together, partial ones at either end), against the scalar loop.
     */
    @Test
    void periodicTapsMatchTheScalarLoop() {
        java.util.Random random = new java.util.Random(14);
        for (int trial = 0; trial < 1500; trial++) {
            int lin = 1 + random.nextInt(32);
            int lout = Math.max(1, (int) (lin * Math.exp((random.nextDouble() - 0.5) * 4.2)));
            int channels = new int[] {1, 2, 3, 8}[trial % 4];
            int rows = channels * (1 + random.nextInt(trial % 2 == 0 ? 12 : 90));
            RowTaps taps = RowTaps.flat(LinearTable.of(lin, lout, random.nextBoolean(), 0), rows, channels);
            int n = taps.length();
            int e0 = random.nextBoolean() ? 0 : random.nextInt(n);
            int e1 = random.nextBoolean() ? n : e0 + 1 + random.nextInt(n - e0);
            float[] x = inputs(random, rows * lin + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[e1 - e0];
            float[] actual = new float[e1 - e0];
            SCALAR.interpolateRow(taps, e0, e1, x, 0, expected, e0);
            VECTOR.interpolateRow(taps, e0, e1, x, 0, actual, e0);
            assertSameFloats(expected, actual, "trial " + trial + " (" + rows + " rows of " + lin + " -> " + lout
                    + ", " + channels + " channels, [" + e0 + ", " + e1 + "))");
        }
    }

    /**
     * interpolateRow on arbitrary taps (neither monotone nor consecutive, as the flat forms' rows of taps
     * jump back at row ends): each vector's window kind must hold for every lane, not only its end lanes.
     */
    @Test
    void arbitraryTapsMatchTheScalarLoop() {
        java.util.Random random = new java.util.Random(31);
        for (int trial = 0; trial < 3000; trial++) {
            int n = 1 + random.nextInt(120);
            int[] left = new int[n];
            int[] right = new int[n];
            float[] w0 = new float[n];
            float[] w1 = new float[n];
            int at = 40;
            int reach = 1 + random.nextInt(trial % 2 == 0 ? 4 : 40);
            for (int e = 0; e < n; e++) {
                // Mostly runs of consecutive taps, with jumps back and forth, as rows and pixels end.
                at = random.nextInt(4) == 0 ? Math.max(0, at + random.nextInt(2 * reach + 1) - reach) : at + 1;
                left[e] = at;
                right[e] = at + (random.nextInt(3) == 0 ? 0 : random.nextInt(1 + reach / 4) + 1);
                w0[e] = random.nextFloat();
                w1[e] = 1 - w0[e];
            }
            RowTaps taps = RowTaps.of(left, right, w0, w1);
            int highest = 0;
            for (int e = 0; e < n; e++) {
                highest = Math.max(highest, right[e]);
            }
            float[] x = inputs(random, highest + 1 + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[n];
            float[] actual = new float[n];
            SCALAR.interpolateRow(taps, 0, n, x, 0, expected, 0);
            VECTOR.interpolateRow(taps, 0, n, x, 0, actual, 0);
            assertSameFloats(expected, actual, "trial " + trial);
        }
    }

    /** Random inputs with a NaN now and then. */
    private static float[] inputs(java.util.Random random, int length) {
        float[] x = new float[length];
        for (int k = 0; k < x.length; k++) {
            x[k] = random.nextInt(40) == 0 ? Float.NaN : (float) random.nextGaussian();
        }
        return x;
    }

    /** The same floats bit for bit, NaN payloads aside. */
    private static void assertSameFloats(float[] expected, float[] actual, String label) {
        KernelCase.assertSameFloats(expected, 0, actual, expected.length, label);
    }
}
