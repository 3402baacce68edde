package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scalar and Vector API providers give bit-identical results, equal to the scatter-form
 * reference, on every kind of scale (up, down, fractional, ratio 500, Lout = 1, Lin = 1, identity),
 * dtype, memory layout, and on NaN/±Inf/-0 inputs (Lucene's BaseVectorizationTestCase pattern).
 */
class KernelProviderEquivalenceTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();

    static List<KernelCase> shapes() {
        DataType f = DataType.FLOAT;
        KernelCase.Layout cont = KernelCase.Layout.CONTIGUOUS;
        return List.of(
                new KernelCase("up2x", 2, 3, 37, 74, false, 0, f, cont, false),
                new KernelCase("up2x_ac", 2, 3, 37, 74, true, 0, f, cont, false),
                new KernelCase("up3.7x", 1, 2, 70, 259, false, 0, f, cont, false),
                new KernelCase("frac_scales", 2, 2, 7, 16, false, 2.3, f, cont, false),
                new KernelCase("down4x", 2, 2, 1000, 250, false, 0, f, cont, false),
                new KernelCase("down_ac", 1, 3, 97, 13, true, 0, f, cont, false),
                // A given scale of 2 that ends at input 15: inputs past it gather nothing; input 16 has two right-tap
                // terms. 60 rows: several groups of lanes and a partial last one.
                new KernelCase("scale2_short_out", 2, 30, 100, 33, false, 2.0, f, cont, false),
                new KernelCase("down3.3x", 1, 1, 33, 10, false, 0, f, cont, false),
                // Ratio 1.9 without alignCorners: outputs 0-2 clamp onto input 0, three left-tap terms.
                new KernelCase("three_terms", 2, 3, 100, 190, false, 0, f, cont, false),
                new KernelCase("ratio500_up", 1, 2, 3, 1500, false, 500, f, cont, false),
                new KernelCase("ratio500_down", 1, 2, 1500, 3, false, 0, f, cont, false),
                // Downsampling by 32 or more, each input reached by one position at most: a fill and the taps
                // (SparseBackward); rows end to end filled across their ends over several tasks, fills longer
                // than one block of zeros, and the last input as both taps (alignCorners).
                new KernelCase("sparse_down50x_rows", 3, 40, 1000, 20, false, 0, f, cont, false),
                new KernelCase("sparse_down64x_ac", 2, 3, 640, 10, true, 0, f, cont, false),
                new KernelCase("sparse_down32x_long", 1, 2, 70000, 2187, false, 0, f, cont, false),
                // Downsampling by 3 to 31 of rows of 512 inputs or more: four rows at a time, row by row
                // (ScatterBackward); 21 rows (a partial last set), blocks cut across the row with positions
                // straddling them, the last input as both taps (alignCorners), and a given scale that puts four
                // positions on each input (more positions than a block has inputs).
                new KernelCase("scatter_down7x_rows", 3, 7, 9000, 1286, false, 0, f, cont, false),
                new KernelCase("scatter_down3x_ac", 2, 3, 4100, 1367, true, 0, f, cont, false),
                new KernelCase("scatter_dense_scales", 1, 2, 30000, 10000, false, 4.0, f, cont, false),
                // A given scale whose output 900 has both taps at the last input with weights 0.33 and 0.67 (the
                // left term first), after output 899's right-tap term.
                new KernelCase("scatter_both_taps_last", 2, 3, 3000, 1000, false, 0.30015, f, cont, false),
                new KernelCase("lout1_ac", 2, 2, 9, 1, true, 0, f, cont, false),
                new KernelCase("lout1", 2, 2, 9, 1, false, 0, f, cont, false),
                new KernelCase("lin1", 2, 2, 1, 7, false, 0, f, cont, false),
                new KernelCase("lin1_ac", 1, 1, 1, 7, true, 0, f, cont, false),
                new KernelCase("lin2", 1, 3, 2, 5, true, 0, f, cont, false),
                new KernelCase("identity", 2, 3, 20, 20, false, 0, f, cont, false),
                new KernelCase("long_rows", 1, 2, 10000, 20011, false, 0, f, cont, false),
                // Long rows: blocks of inputs cut across the row, few rows (stretches in lanes where periodic).
                new KernelCase("long_rows_2x", 1, 2, 20000, 40000, false, 0, f, cont, false),
                new KernelCase("long_rows_down4x", 1, 1, 40000, 10000, false, 0, f, cont, false),
                new KernelCase("long_rows_4x_ac", 1, 2, 12289, 49153, true, 0, f, cont, false),
                // Whole blocks only: the last block is as long as the others.
                new KernelCase("long_rows_2x_blocks", 1, 2, 16384, 32768, false, 0, f, cont, false),
                new KernelCase("long_rows_down4x_blocks", 2, 1, 16384, 4096, false, 0, f, cont, false),
                // Periods that do not divide a vector's inputs (3), and clamped last outputs (scales 0.5: outputs
                // from 500 on take the last input) inside a periodic table.
                new KernelCase("down3x", 2, 3, 3000, 1000, false, 0, f, cont, false),
                // Few rows on periodic tables, an odd number of them; alignCorners, 3 rows.
                new KernelCase("periodic_odd_rows", 1, 5, 5000, 10000, false, 0, f, cont, false),
                new KernelCase("periodic_ac_odd_rows", 1, 3, 5001, 10001, true, 0, f, cont, false),
                // An almost periodic alignCorners table, 5 rows.
                new KernelCase("similar_ac_odd_rows", 1, 5, 4100, 8190, true, 0, f, cont, false),
                new KernelCase("down2x_clamped_end", 2, 3, 1000, 600, false, 0.5, f, cont, false),
                new KernelCase("down8x_clamped_end", 2, 3, 2000, 300, false, 0.125, f, cont, false),
                // Downsampling (the scatter form) where an output's taps are both the last input, after a right-tap term, at weights 0.2
                // and 0.8 (output 590: the left term first).
                new KernelCase("down_both_taps_last", 32, 16, 1000, 600, false, 0.59032, f, cont, false),
                new KernelCase("long_down_ac", 1, 2, 9000, 4001, true, 0, f, cont, false),
                new KernelCase("short_rows", 40, 30, 16, 64, false, 0, f, cont, false),
                // Rows of at most a vector's inputs, many per group of lanes: whole groups end to end, partial
                // groups (C = 31, 29), downsampling, Lin = 1, and a given scale whose clamped last input has many terms.
                new KernelCase("short_rows_ac", 4, 31, 16, 64, true, 0, f, cont, false),
                new KernelCase("short_rows_2x", 4, 31, 16, 32, false, 0, f, cont, false),
                new KernelCase("short_rows_8_to_16", 4, 30, 8, 16, false, 0, f, cont, false),
                new KernelCase("short_rows_3x_ac", 4, 29, 13, 39, true, 0, f, cont, false),
                new KernelCase("short_rows_2.5x", 3, 31, 16, 40, false, 0, f, cont, false),
                new KernelCase("short_rows_down", 4, 30, 16, 5, false, 0, f, cont, false),
                new KernelCase("short_rows_lin1", 4, 30, 1, 4, false, 0, f, cont, false),
                new KernelCase("short_rows_many_terms", 4, 30, 16, 64, false, 0.2, f, cont, false),
                new KernelCase("odd_lengths", 3, 5, 17, 31, true, 0, f, cont, false),
                // Ratios between 2 and 4 on rows of 256 inputs or more (blocks of several chunks of positions).
                new KernelCase("wide_up3x", 1, 3, 300, 1000, false, 0, f, cont, false),
                new KernelCase("wide_up4x_ac", 2, 1, 700, 2800, true, 0, f, cont, false),
                // Exactly 4x: a group's terms span 4L + 4 positions.
                new KernelCase("wide_up4x", 2, 5, 300, 1200, false, 0, f, cont, false),
                new KernelCase("wide_scales", 1, 2, 517, 1500, false, 2.9, f, cont, false),
                // Exactly 8x: derived, a given scale of 8, and few long rows.
                new KernelCase("up8x", 2, 5, 300, 2400, false, 0, f, cont, false),
                new KernelCase("up8x_scales", 1, 3, 301, 2408, false, 8.0, f, cont, false),
                new KernelCase("long_rows_8x", 1, 2, 5000, 40000, false, 0, f, cont, false),
                new KernelCase("wide_up2.5x_rows", 5, 4, 1000, 2500, false, 0, f, cont, false),
                // Rows shorter than a vector of positions.
                new KernelCase("wide_short_rows", 3, 5, 10, 33, false, 0, f, cont, false),
                // Enough rows for whole groups of lanes and leftover rows, every layout.
                new KernelCase("tiles_up2x", 2, 33, 300, 600, false, 0, f, cont, false),
                new KernelCase("tiles_up3.7x", 2, 17, 70, 259, true, 0, f, cont, false),
                // Few rows on periodic tables: stretches of each row in lanes of their own (3 rows: 5 stretches
                // each, one lane idle; 7 rows: 2 each), before and after them the clamped inputs row by row.
                // Short rows whose inputs each take one position's terms at most, as one row (FlatRows): chunks
                // of whole rows with a partial last one and chunks across batches, inputs no position reaches,
                // a last input that is both taps, vectors of inputs across row ends.
                new KernelCase("flat_lout1_rows", 7, 95, 9, 1, true, 0, f, cont, false),
                new KernelCase("flat_down2x_ac", 5, 201, 6, 3, true, 0, f, cont, false),
                new KernelCase("flat_down2.5x", 3, 17, 30, 12, false, 0, f, cont, false),
                // Out rows of a long period (16 rows of 69): chunks of eight periods and a partial last chunk.
                new KernelCase("flat_long_period_chunks", 3, 301, 69, 103, true, 0, f, cont, true),
                new KernelCase("flat_down5x_scales", 2, 9, 32, 6, false, 0.19, f, cont, false),
                // Short rows whose inputs take several positions' terms (up to the flat form's 16), as one row.
                new KernelCase("flat_terms_up3.7x_ac", 5, 7, 4, 15, true, 0, f, cont, false),
                new KernelCase("flat_terms_up1.33x", 3, 11, 12, 16, false, 0, f, cont, false),
                new KernelCase("flat_terms_16", 2, 5, 8, 64, false, 0, f, cont, false),
                // Short rows whose inputs take too many terms for one row of sums: whole rows in lanes a chunk at a
                // time (several lines a lane, a partial last chunk): the walk, one input of many terms, a given
                // scale that leaves inputs unreached (the gather form), and fewer rows than lanes.
                new KernelCase("lanes_rows_up15x", 3, 101, 2, 30, false, 0, f, cont, false),
                new KernelCase("lanes_rows_up4x_ac", 3, 67, 7, 29, true, 0, f, cont, false),
                new KernelCase("lanes_rows_lin1_ac", 5, 131, 1, 11, true, 0, f, cont, false),
                new KernelCase("lanes_rows_unreached", 2, 150, 8, 32, false, 12.0, f, cont, false),
                new KernelCase("lanes_rows_few", 1, 5, 3, 20, false, 0, f, cont, false),
                // One or two long rows at any ratio, and downsampled ones too few for half the lanes, on tables with
                // no periodic stretch: four rows at a time (ScatterBackward), one or two a row at a time; three
                // downsampled rows in the four-row loop, blocks cut across the rows, the last input as both taps.
                new KernelCase("few_rows_1_up2x_ac", 1, 1, 5000, 9997, true, 0, f, cont, false),
                new KernelCase("few_rows_2_up1.09x_ac", 1, 2, 4410, 4800, true, 0, f, cont, false),
                new KernelCase("few_rows_3_down1.6x_ac", 1, 3, 9000, 5600, true, 0, f, cont, false),
                new KernelCase("few_rows_2_down1.67x_scales", 2, 1, 6000, 3600, false, 0.59987, f, cont, false),
                new KernelCase("segments_3_rows", 1, 3, 20000, 40000, false, 0, f, cont, false),
                new KernelCase("segments_7_rows_ac", 1, 7, 12289, 49153, true, 0, f, cont, false),
                new KernelCase("segments_down3x", 1, 2, 30000, 10000, false, 0, f, cont, false),
                new KernelCase("segments_transposed", 2, 3, 9000, 27000, false, 0, f,
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                // Both channels-last, pixels of four vectors or more, rows of 4096 elements or more: the 2-D rows
                // form one row high (Bilinear2dRows.runOneRowHigh); pixels of whole and partial vectors.
                new KernelCase("pixel_rows_c40_up3x", 3, 40, 200, 600, false, 0, f, KernelCase.Layout.CHANNELS_LAST,
                        true),
                new KernelCase("pixel_rows_c36_down_ac", 2, 36, 300, 130, true, 0, f, KernelCase.Layout.CHANNELS_LAST,
                        false),
                new KernelCase("pixel_rows_c32_down10x", 4, 32, 300, 30, false, 0, f,
                        KernelCase.Layout.CHANNELS_LAST, false));
    }

    static Stream<KernelCase> cases() {
        List<KernelCase> all = new ArrayList<>();
        for (KernelCase base : shapes()) {
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
                all.add(base.with(type));
                all.add(base.with(type).withNonFinite());
            }
            for (KernelCase.Layout layout : KernelCase.Layout.values()) {
                if (layout != KernelCase.Layout.CONTIGUOUS) {
                    all.add(base.with(layout));
                }
            }
            // Padded out rows are written a row at a time from one rounded chunk: every dtype.
            for (DataType type : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
                all.add(base.with(type).with(KernelCase.Layout.PADDED_OUT));
            }
        }
        // Rows side by side (a transposed gradOut): groups loaded a vector per position, partial groups, long
        // blocks, the last input, and NaN, infinities and -0 in gradOut.
        KernelCase.Layout side = KernelCase.Layout.TRANSPOSED_GRAD_OUT;
        DataType f = DataType.FLOAT;
        all.add(new KernelCase("side_by_side_up2x", 2, 80, 300, 600, false, 0, f, side, true));
        all.add(new KernelCase("side_by_side_down3.3x_ac", 1, 87, 1000, 303, true, 0, f, side, true));
        all.add(new KernelCase("side_by_side_up3.7x", 3, 48, 70, 259, false, 0, f, side, false));
        all.add(new KernelCase("side_by_side_scales", 1, 64, 130, 390, false, 2.9, f, side, true));
        all.add(new KernelCase("side_by_side_lin1", 1, 64, 1, 7, false, 0, f, side, true));
        all.add(new KernelCase("side_by_side_lout1", 2, 33, 9, 1, true, 0, f, side, false));
        // Groups sharing gradOut's lines (channels-last, two groups' channels or more): summed a chunk at a time for
        // all of them where gradOut and out are 16 MiB or more (the large shapes: FLOAT chunks read in one run,
        // several chunks a row, out rows end to end written in one run, short rows scattered and longer ones
        // transposed, runs of groups dividing a batch's), group by group below (groups straddling batches,
        // unreached inputs at the rows' ends, gaps between batches and padded out rows).
        all.add(new KernelCase("shared_groups_large_c256", 40, 256, 5, 410, false, 0, f, side, true));
        all.add(new KernelCase("shared_groups_large_c128_bf16", 8, 128, 40, 8200, true, 0, DataType.BF16, side,
                false));
        all.add(new KernelCase("shared_groups_large_c384", 3, 384, 250, 3700, false, 0, f, side, false));
        KernelCase.Layout gaps = KernelCase.Layout.TRANSPOSED_PADDED;
        all.add(new KernelCase("shared_groups_c64", 5, 64, 5, 1000, false, 0, f, side, true));
        all.add(new KernelCase("shared_groups_c48_bf16", 3, 48, 40, 100, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("shared_groups_c40_fp16", 4, 40, 40, 90, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("shared_groups_c40_straddling", 4, 40, 45, 19, true, 0, f, side, false));
        all.add(new KernelCase("shared_groups_unreached", 2, 64, 200, 60, false, 0.5, f, side, true));
        all.add(new KernelCase("shared_groups_gaps", 3, 32, 6, 50, false, 0, f, gaps, true));
        all.add(new KernelCase("shared_groups_gaps_bf16", 3, 64, 20, 9, true, 0, DataType.BF16, gaps, false));
        // Rows interleaved (channels-last with fewer channels than lanes; groups crossing into the next batch's
        // channels): gathered from their runs of memory, every dtype.
        all.add(new KernelCase("interleaved_c3_fp16", 11, 3, 200, 613, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("interleaved_c5_bf16", 7, 5, 300, 90, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("interleaved_c2", 40, 2, 16, 7, false, 0, f, side, true));
        all.add(new KernelCase("straddling_c24_bf16", 3, 24, 150, 449, false, 0, DataType.BF16, side, false));
        // Groups of whole batches of 2, 4 and 8 channels, longer rows: gathered or loaded by runs per position.
        all.add(new KernelCase("batches_c2_fp16", 30, 2, 40, 93, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("batches_c4_bf16", 20, 4, 33, 50, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("batches_c8", 9, 8, 20, 37, false, 0, f, side, true));
        // Short rows of a channels-last gradOut whose inputs take one position each, as one row (FlatRows):
        // chunks of whole batches read as one run, a partial last chunk.
        all.add(new KernelCase("flat_interleaved_c2_fp16", 900, 2, 18, 3, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("flat_interleaved_c5_lout1", 400, 5, 9, 1, true, 0, f, side, true));
        all.add(new KernelCase("flat_interleaved_c4_bf16", 300, 4, 6, 3, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("flat_terms_c8_fp16", 200, 8, 8, 6, true, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("flat_terms_c3_up2x", 150, 3, 10, 20, false, 0, f, side, true));
        // A channels-last gradOut of one position a row: rows end to end (its L stride says nothing).
        all.add(new KernelCase("flat_lout1_c512_fp16", 5, 512, 9, 1, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("flat_lout1_c128_bf16", 5, 128, 16, 1, true, 0, DataType.BF16, side, true));
        // Periods of whole batches of many channels (runs of terms): chunks of four periods, and a last chunk.
        all.add(new KernelCase("flat_runs_c1024_bf16", 5, 1024, 1, 8, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("flat_runs_c2048", 5, 2048, 1, 4, false, 0, f, side, true));
        // Batches in lanes (channels-last, 2 <= C <= lanes): partial last groups, one input, one batch, C = 15,
        // downsampling, the block limit, gaps between gradOut's batches and padded out rows; C = 16, 8 and 4,
        // a batch a vector at 512, 256 and 128 bits.
        all.add(new KernelCase("batch_lanes_c16_bf16", 20, 16, 7, 12, false, 0, DataType.BF16, side, true));
        all.add(new KernelCase("batch_lanes_c8_fp16_down", 40, 8, 6, 8, true, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("batch_lanes_c4_gaps", 25, 4, 5, 9, false, 0, f, gaps, true));
        all.add(new KernelCase("batch_lanes_c3_lin1_fp16", 37, 3, 1, 80, false, 0, DataType.FLOAT16, side, true));
        all.add(new KernelCase("batch_lanes_c15_bf16", 20, 15, 7, 30, true, 0, DataType.BF16, side, true));
        all.add(new KernelCase("batch_lanes_c2_down", 50, 2, 40, 13, false, 0, f, side, true));
        all.add(new KernelCase("batch_lanes_one_batch", 1, 3, 9, 27, false, 0, f, side, true));
        all.add(new KernelCase("batch_lanes_limit_fp16", 5, 4, 256, 100, true, 0, DataType.FLOAT16, side, false));
        all.add(new KernelCase("batch_lanes_gaps", 33, 3, 5, 16, false, 0, f, gaps, true));
        all.add(new KernelCase("batch_lanes_gaps_fp16", 18, 7, 12, 5, true, 0, DataType.FLOAT16, gaps, true));
        all.add(new KernelCase("batch_lanes_gaps_bf16_lin1", 21, 2, 1, 9, false, 0, DataType.BF16, gaps, true));
        // Long blocks of rows side by side, and blocks that leave tasks for both threads.
        all.add(new KernelCase("side_by_side_long_blocks", 8, 64, 2100, 4200, true, 0, f, side, true));
        all.add(new KernelCase("side_by_side_shrunk_blocks", 4, 80, 1500, 2999, false, 0, f, side, false));
        // Many long rows at ratios up to 2: several blocks per row, a tail block, 7 rows (stretches of a periodic
        // table in lanes), downsampling; BF16 and FP16.
        KernelCase.Layout plain = KernelCase.Layout.CONTIGUOUS;
        all.add(new KernelCase("long_rows_up2x", 8, 6, 4200, 8400, false, 0, f, plain, true));
        all.add(new KernelCase("long_rows_up2x_odd", 1, 7, 4200, 8400, false, 0, f, plain, true));
        all.add(new KernelCase("long_rows_ac_tail", 2, 6, 9000, 17999, true, 0, f, plain, false));
        all.add(new KernelCase("long_rows_down", 4, 3, 5000, 1700, false, 0, f, plain, true));
        all.add(new KernelCase("long_rows_bf16", 8, 6, 4200, 8400, false, 0, DataType.BF16, plain, true));
        all.add(new KernelCase("long_rows_fp16_tail", 2, 6, 9000, 18000, false, 0, DataType.FLOAT16, plain, true));
        // An almost periodic alignCorners table, an irregular ratio, an irregular downsampling, and an almost
        // periodic 16-bit table.
        all.add(new KernelCase("long_rows_similar_ac", 2, 6, 4100, 8190, true, 0, f, plain, true));
        all.add(new KernelCase("long_rows_irregular", 2, 6, 4500, 8000, false, 0, f, plain, false));
        all.add(new KernelCase("long_rows_down_irregular", 2, 6, 5000, 3501, true, 0, f, plain, false));
        all.add(new KernelCase("long_rows_similar_bf16", 2, 6, 4100, 8190, true, 0, DataType.BF16, plain, false));
        // Many long rows at ratios above 2, and ratios between 1 and 2 that repeat no pattern.
        all.add(new KernelCase("wide_rows_3.3x", 2, 51, 2100, 7000, false, 0, f, plain, true));
        all.add(new KernelCase("wide_rows_2.5x_ac", 2, 51, 2100, 5250, true, 0, f, plain, false));
        all.add(new KernelCase("wide_rows_1.2x", 2, 51, 2100, 2521, false, 0, f, plain, true));
        all.add(new KernelCase("wide_rows_1.3x_ac", 2, 51, 2100, 2731, true, 0, f, plain, false));
        return all.stream();
    }

    @Test
    void vectorProviderIsAvailableWhenTheModuleIs() {
        // The default test JVM runs with --add-modules jdk.incubator.vector (see the root pom).
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        assertNotNull(VECTOR, "VectorKernelProvider did not load although jdk.incubator.vector is present");
        assertTrue(VECTOR.name().startsWith("vector-"), VECTOR.name());
        assertEquals(VECTOR.name(), KernelProviders.get().name(), "the default provider is the vector one");
        // The vector-256 / vector-128 executions (core/pom.xml) say which width they must have run with.
        String expected = System.getProperty("opscv.expect.kernels");
        if (expected != null) {
            assertEquals(expected, VECTOR.name(), "this execution's -XX:MaxVectorSize did not take effect");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void scalarAndVectorMatchTheScatterReferenceBitForBit(KernelCase kc) {
        LinearTable table = kc.table();
        LinearTable deferred = LinearTable.deferred(kc.lin(), kc.lout(), kc.alignCorners(), kc.scales());
        try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
            StridedTensor gradOut = kc.gradOut(arena);
            int[] expected = KernelCase.scatterReference(kc, gradOut, table);
            for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                for (LinearTable t : new LinearTable[] {table, deferred}) {
                    StridedTensor out = kc.out(arena);
                    Linear1dBackwardKernel.run(gradOut, out, t, provider, pool);
                    String where = provider.name() + (t == deferred ? " with a deferred table" : "") + " on " + kc;
                    assertArrayEquals(expected, KernelCase.bits(out), where);
                    assertEquals(-1, KernelCase.firstWriteOutside(out), where + ": a byte outside out's view changed");
                }
            }
        }
    }

    /**
     * The lanes_rows shapes reach whole rows in lanes by chunks (contiguous, padded and uneven out rows), in chunks of
     * whole fours of lines a lane where the call has the rows; gradOuts of other layouts do not, nor longer out
     * rows.
     */
    @Test
    void shortRowsOfManyTermsGoInLanesByChunks() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            for (KernelCase base : shapes()) {
                if (!base.name().startsWith("lanes_rows")) {
                    continue;
                }
                for (KernelCase.Layout layout : KernelCase.Layout.values()) {
                    KernelCase kc = base.with(layout);
                    StridedTensor out = kc.out(arena);
                    RowPass pass = FlatRows.backwardPass(kc.table(), kc.gradOut(arena), out, VECTOR);
                    KernelCase longer = new KernelCase("longer", kc.n(), kc.c(), 33, 100, false, 0, kc.dtype(), layout,
                            false);
                    RowPass longerPass = FlatRows.backwardPass(longer.table(), longer.gradOut(arena),
                            longer.out(arena), VECTOR);
                    assertTrue(longerPass == null || longerPass.lanes() == null, longer.toString());
                    boolean rowsOfElements = layout == KernelCase.Layout.CONTIGUOUS
                            || layout == KernelCase.Layout.PADDED_OUT || layout == KernelCase.Layout.UNEVEN_BATCH;
                    assertEquals(rowsOfElements, pass != null && pass.lanes() != null, kc.toString());
                    if (rowsOfElements) {
                        long rows = out.shape()[0] * out.shape()[1];
                        int chunk = pass.lanesRows();
                        assertTrue(chunk % (4 * lanes) == 0 || chunk >= rows, kc + ": " + chunk + " rows a chunk");
                    }
                }
            }
        }
    }

    /**
     * A channels-last gradOut of 2 to lanes channels takes batches in lanes, a vector's worth of channels included
     * (rows in lanes would take one batch a group); more channels than lanes, or one, do not.
     */
    @Test
    void batchesInLanesTakeUpToAVectorOfChannels() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            for (int c : new int[] {1, 2, lanes, lanes + 1}) {
                KernelCase kc = new KernelCase("c" + c, 6, c, 6, 8, false, 0, DataType.FLOAT16,
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, false);
                boolean batches = BatchLanes.applies(kc.gradOut(arena), kc.lout(), kc.out(arena), kc.lin(), lanes);
                assertEquals(c >= 2 && c <= lanes, batches, kc.toString());
            }
        }
    }

    /**
     * Batches in lanes leave 16-bit downsampled rows of two or three channels, and rows of one input from as many
     * channels as lanes, to the forms after them; FLOAT downsampled rows and 16-bit ones of more channels stay.
     */
    @Test
    void batchesInLanesLeaveTheShapesOtherFormsTakeFaster() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            record Shape(int c, int lin, int lout, DataType dtype, boolean batches) {}
            for (Shape s : List.of(new Shape(2, 18, 3, DataType.FLOAT16, false), new Shape(3, 8, 6, DataType.BF16, false),
                    new Shape(2, 18, 3, DataType.FLOAT, true), new Shape(4, 18, 3, DataType.FLOAT16, 4 <= lanes),
                    new Shape(2, 3, 16, DataType.FLOAT16, true), new Shape(lanes, 1, 16, DataType.FLOAT, false),
                    new Shape(lanes, 2, 16, DataType.FLOAT, true), new Shape(2, 1, 16, DataType.FLOAT16, true))) {
                KernelCase kc = new KernelCase("s", 6, s.c(), s.lin(), s.lout(), false, 0, s.dtype(),
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, false);
                boolean batches = BatchLanes.applies(kc.gradOut(arena), kc.lout(), kc.out(arena), kc.lin(), lanes);
                assertEquals(s.batches(), batches, s.toString());
            }
        }
    }

    /**
     * Below 16 lanes, 16-bit short rows whose sums would permute windows of four vectors, more than eight terms an
     * input, go whole rows in lanes rather than end to end: (4 ← 15) takes ten terms an input.
     */
    @Test
    void quadWindowsOfManyTermsGoInLanesBelowSixteenLanes() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            KernelCase kc = new KernelCase("q", 64, 4, 4, 15, true, 0, DataType.FLOAT16, KernelCase.Layout.CONTIGUOUS,
                    false);
            RowPass pass = FlatRows.backwardPass(kc.table(), kc.gradOut(arena), kc.out(arena), VECTOR);
            assertNotNull(pass, kc.toString());
            assertEquals(lanes < 16, pass.lanes() != null, kc + " at " + lanes + " lanes");
        }
    }

    /**
     * Groups whose rows lie side by side in gradOut, two groups' channels or more to a position, in calls of 16 MiB
     * or more, are summed together (each chunk of positions read for all of them, their lines read once), as many
     * as divide a batch's groups; rows of other layouts, smaller calls or out rows of several blocks, group by group.
     */
    @Test
    void groupsSharingGradOutsLinesAreSummedTogether() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            for (KernelCase kc : shapes()) {
                if (!kc.name().startsWith("shared_groups")) {
                    continue;
                }
                StridedTensor gradOut = kc.gradOut(arena);
                // A block of whole rows (the kernel's block is the row where the row is at most a block).
                int shared = Linear1dBackwardKernel.sharedGroups(gradOut, lanes, kc.lin(), kc.lin());
                if (!kc.name().startsWith("shared_groups_large")) {
                    assertEquals(1, shared, kc.toString());
                    continue;
                }
                int most = (int) Math.min(kc.c() / lanes, (1 << 16) / ((kc.lin() + lanes) * lanes));
                assertTrue(shared > 1 && shared <= most && kc.c() / lanes % shared == 0, kc + ": " + shared);
                for (int more = shared + 1; more <= most; more++) {
                    assertTrue(kc.c() / lanes % more != 0, kc + ": " + more + " groups divide a batch's");
                }
                assertEquals(1, Linear1dBackwardKernel.sharedGroups(kc.with(KernelCase.Layout.CONTIGUOUS)
                        .gradOut(arena), lanes, kc.lin(), kc.lin()), kc.toString());
                assertEquals(1, Linear1dBackwardKernel.sharedGroups(gradOut, lanes, kc.lin() + 1, kc.lin()),
                        kc.toString());
            }
        }
    }

    /**
     * One or two long rows, and downsampled ones too few to fill half the lanes, go four at a time (ScatterBackward)
     * where the lanes cannot cut them into periodic stretches; a periodic table, three rows upsampled, more rows,
     * shorter rows and equal sizes stay with the forms before it, as do all of them in one lane (the scalar provider)
     * below a downsampling by 3.
     */
    @Test
    void fewLongRowsWithoutPeriodicStretchesGoFourAtATime() {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofShared()) {
            record Shape(int c, int lin, int lout, boolean alignCorners, boolean fourRows) {}
            for (Shape s : List.of(new Shape(1, 5000, 9997, true, true), new Shape(2, 4410, 4800, true, true),
                    new Shape(lanes / 2, 9000, 5600, true, true), new Shape(1, 5000, 10000, false, false),
                    new Shape(3, 5000, 9997, true, false),
                    new Shape(lanes / 2 + 1, 5000, 9997, true, false), new Shape(1, 300, 601, true, false),
                    new Shape(1, 5000, 5000, true, false))) {
                KernelCase kc = new KernelCase("s", 1, s.c(), s.lin(), s.lout(), s.alignCorners(), 0, DataType.FLOAT,
                        KernelCase.Layout.CONTIGUOUS, false);
                StridedTensor gradOut = kc.gradOut(arena);
                assertEquals(s.fourRows(), Linear1dBackwardKernel.fourRowsAtATime(kc.table(), gradOut, s.c(), lanes),
                        s + " at " + lanes + " lanes");
                assertFalse(Linear1dBackwardKernel.fourRowsAtATime(kc.table(), gradOut, s.c(), SCALAR.lanes()),
                        s + " in one lane");
            }
        }
    }

    /** Heap segments (MemorySegment.ofArray) take the same kernels: every access goes through the segment. */
    @Test
    void heapSegmentsGiveTheSameBits() {
        KernelCase kc = new KernelCase("heap", 2, 9, 300, 777, false, 0, DataType.FLOAT, KernelCase.Layout.CONTIGUOUS,
                true);
        LinearTable table = kc.table();
        try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
            StridedTensor native_ = kc.gradOut(arena);
            float[] values = new float[(int) (native_.segment().byteSize() / 4)];
            java.lang.foreign.MemorySegment.copy(native_.segment(), ElementCodec.F32, 0, values, 0, values.length);
            StridedTensor heap = new StridedTensor(java.lang.foreign.MemorySegment.ofArray(values), native_.offset(),
                    native_.shape(), native_.strides(), native_.dataType());
            int[] expected = KernelCase.scatterReference(kc, native_, table);
            StridedTensor out = kc.out(arena);
            Linear1dBackwardKernel.run(heap, out, table, VECTOR, pool);
            assertArrayEquals(expected, KernelCase.bits(out));
        }
    }
}
