package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.util.Arrays;

/**
 * The 1-D backward from a channels-last gradOut of a few channels ({@code 2 <= C <= lanes}) with <em>batches in
 * lanes</em>: a group of {@code lanes} batches is one run of memory (each batch's {@code Lout·C} elements, its
 * channels interleaved), decoded at once and transposed so that a vector holds one element of every batch of
 * the group ({@link KernelProvider#toLanes}); the positions are then sorted channel by channel
 * ({@link KernelProvider#copyPositions}), so that each channel's rows of the group make one lane-major line,
 * which the provider sums from +0 ({@link KernelProvider#sumLanes}) as rows in lanes do. The sums, in out's
 * order within a batch (channel-major), are transposed back and written as one run, or row by row where out's
 * rows lie a pitch apart. Each lane is one row and follows the reference's arithmetic: the reference's bits.
 *
 * <p>Rows in lanes take groups of {@code lanes} consecutive rows, {@code lanes / C} batches, whose elements lie
 * {@code C} apart: every position of such a group is a gather or a blend of runs, and a group's fixed costs buy
 * a few elements of each row. At {@code C = lanes} a group of rows in lanes is one batch, its positions plain
 * loads, but its fixed costs still buy only {@code C·Lout} elements. This form was measured faster than rows in
 * lanes and than {@link FlatRows} on the cells it takes; a forward on the same staging was slower than both, so
 * the forward has none (docs/KERNELS.md, "A channels-last gradOut of a few channels").
 */
final class BatchLanes {
    /** The most elements a batch may hold on either side: a group's buffers (a few of lanes × that) stay in L2. */
    static final int MAX_BATCH_ELEMENTS = 1024;

    private BatchLanes() {}

    /**
     * Whether {@code gradOut} (rows of {@code lout}) is a channels-last tensor of {@code 2 <= C <= lanes}
     * channels whose batches are runs ({@code strides (S, 1, C)}, {@code S >= C·lout}), and {@code out} (rows of
     * {@code lin}) has rows of consecutive elements evenly spaced across batches, each batch's block at most
     * {@link #MAX_BATCH_ELEMENTS} on either side; not for 16-bit downsampled rows of two or three channels, nor
     * for rows of one input of as many channels as lanes, which the forms after it take faster: A/B at 256 bits, in
     * one process with this form toggled, four rounds, 16-bit (C, Lin ← Lout) = (2 or 3, 18 ← 3, 8 ← 6, 12 ← 4,
     * 16 ← 12) 0.59-0.84 x the time here (the sweep's (881926, 2, 18 ← 3) FP16 18.9 → 12.2 ms in separate
     * processes; FLOAT 0.82-1.22 x, so it stays), (8, 1 ← 16 or 80) 0.47-0.70 x in FLOAT and FP16.
     */
    static boolean applies(StridedTensor gradOut, int lout, StridedTensor out, int lin, int lanes) {
        long channels = gradOut.shape()[1];
        long[] s = gradOut.strides();
        long[] o = out.strides();
        if (channels <= 3 && lin > lout && gradOut.dataType() != DataType.FLOAT || channels == lanes && lin == 1) {
            return false;
        }
        return channels >= 2 && channels <= lanes
                && s[1] == 1 && s[2] == channels && (gradOut.shape()[0] == 1 || s[0] >= channels * lout)
                && channels * Math.max(lout, lin) <= MAX_BATCH_ELEMENTS
                && (o[2] == 1 || lin == 1) && o[1] >= lin
                && (out.shape()[0] == 1 || o[0] == channels * o[1]);
    }

    /** One thread's buffers: a group's batches in and out, as rows and as lanes. */
    private static final class Scratch {
        final float[] rows;
        final float[] lanes;
        final float[] lines;
        final float[] results;
        final float[] y;
        final short[] halves;
        final float[] spare;

        Scratch(int lanes, int in, int outBlock, Buffers b) {
            int inRound = (in + lanes - 1) / lanes * lanes;
            int outRound = (outBlock + lanes - 1) / lanes * lanes;
            rows = b.floats(lanes * in + lanes);
            this.lanes = b.floats(inRound * lanes);
            lines = b.floats(in * lanes);
            results = b.floats(outRound * lanes);
            y = b.floats(lanes * outBlock + lanes);
            halves = new short[lanes * outBlock + lanes];
            spare = b.floats(2 * lanes * lanes);
        }
    }

    /** gradOut (rows of Lout) to out (rows of Lin), a group of batches at a time. */
    static void backward(StridedTensor gradOut, StridedTensor out, LinearTable t, KernelProvider provider,
                         WorkerPool pool) {
        int sourceLength = t.lout();
        int outLength = t.lin();
        long batches = gradOut.shape()[0];
        int channels = (int) gradOut.shape()[1];
        int lanes = provider.lanes();
        int in = channels * sourceLength;
        int outBlock = channels * outLength;
        if (batches == 0) {
            return;
        }
        pool.forEachChunk((batches + lanes - 1) / lanes, (long) lanes * (in + outBlock),
                b -> new Scratch(lanes, in, outBlock, b),
                (g, s) -> group(gradOut, out, t, channels, g * lanes, (int) Math.min(lanes, batches - g * lanes),
                        provider, s));
    }

    private static void group(StridedTensor source, StridedTensor out, LinearTable t, int channels, long n0,
                              int count, KernelProvider provider, Scratch s) {
        int lanes = provider.lanes();
        int sourceLength = t.lout();
        int outLength = t.lin();
        int in = channels * sourceLength;
        int outBlock = channels * outLength;
        long batchStride = source.strides()[0];
        long first = source.offset() + n0 * batchStride;
        if (batchStride == in || count == 1) {
            provider.decodeRun(source.segment(), source.dataType(), first, count * in, s.rows, 0);
        } else {
            for (int b = 0; b < count; b++) {
                provider.decodeRun(source.segment(), source.dataType(), first + b * batchStride, in, s.rows, b * in);
            }
        }
        provider.toLanes(s.rows, 0, in, in, s.lanes, 0, s.spare);
        // Position k of channel c (element k·C + c of a batch) to place k of channel c's line.
        for (int c = 0; c < channels; c++) {
            provider.copyPositions(s.lanes, c, channels, sourceLength, s.lines, c * sourceLength);
        }
        Arrays.fill(s.results, 0, outBlock * lanes, 0f);
        for (int c = 0; c < channels; c++) {
            provider.sumLanes(t, 0, outLength, 0, sourceLength, s.lines, -c * sourceLength, s.results, -c * outLength);
        }
        provider.fromLanes(s.results, 0, outBlock, s.y, 0, outBlock, s.spare);
        long pitch = out.strides()[1];
        long at = out.offset() + n0 * out.strides()[0];
        if (pitch == outLength) {
            provider.encodeRun(s.y, 0, count * outBlock, out.segment(), out.dataType(), at);
        } else {
            provider.encodePitched(s.y, s.halves, outLength, count * channels, pitch, out.segment(), out.dataType(),
                    at);
        }
    }
}
