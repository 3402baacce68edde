package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.util.List;

/**
 * Short rows of consecutive elements taken as one row: a chunk of whole rows is decoded into one buffer
 * (the source's rows end to end), interpolated as a single row of per-element taps
 * ({@link KernelProvider#interpolateRow}) and written back in one run, or row by row (rows a pitch apart:
 * {@link KernelProvider#encodePitched}). A vector of outputs then spans the ends of several rows, so rows of a
 * few elements fill whole vectors without a transpose;
 * rows in lanes would transpose every position in and out and, for rows of a few positions, pay a group's
 * staging for a handful of elements.
 *
 * <ul>
 *   <li>The forward ({@link RowTaps#flat}): output j of chunk row r reads {@code r·Lin + x0[j]} and
 *       {@code r·Lin + x1[j]}, {@code w0·x[x0] + w1·x[x1]}, the reference's arithmetic.</li>
 *   <li>The backward ({@link RowSums#flat}, {@link KernelProvider#sumRow}): input i of chunk row r sums its
 *       terms from +0 in the reference's order; an input no position reaches is +0.</li>
 * </ul>
 * The bits are the reference's either way.
 */
final class FlatRows {
    /** Outputs per chunk, about: a chunk's inputs and outputs stay in L1. */
    static final int CHUNK_OUTPUTS = 2048;
    /**
     * Whole periods of the tables a chunk holds at least, where they fit {@link #MAX_RUN}: each vector of a period
     * loads its indices and weights once per chunk, so a chunk of one long period (rows of 103 outputs: 16 rows)
     * pays that for every vector it computes.
     */
    static final int CHUNK_PERIODS = 8;
    /** The most source elements of a chunk of interleaved rows (whole batches) or periods: it stays in L2. */
    private static final long MAX_RUN = 1 << 16;
    /**
     * The longest out rows taken at any ratio (the backward's: at all); longer forward rows only below an
     * upsampling by {@link #MAX_UPSAMPLING}: rows of a few inputs upsampled by 12 or more (4 -> 48, 7 -> 1337)
     * ran as fast or faster in lanes with 16 lanes.
     */
    static final int SHORT_OUT = 32;
    static final int MAX_UPSAMPLING = 4;
    /**
     * The longest forward rows taken at any upsampling where vectors have fewer than 16 lanes, where rows in lanes
     * buy fewer rows with a group's costs: at 256 bits rows of 48-200 outputs (1 -> 48, 4 -> 100, 40 -> 200) ran
     * 0.49-0.82 x the time in lanes, every dtype; 16 -> 300 and 100 -> 450 1.04-1.34 x.
     */
    static final int NARROW_UPSAMPLED_OUT = 256;
    /**
     * The strongest forward downsampling taken where vectors of outputs reach beyond the permute windows
     * (their taps gathered): channels-last (881926, 2, 18 -> 3) FP16 ran 2.5 x and a strided (132757, 1,
     * 240 -> 40) 1.15 x faster than in lanes, contiguous 9 -> 1 rows 1.2 x slower. The backward gathered
     * was 1.2 x slower ((10678, 256, 2 <- 5) channels-last), so it keeps to the windows.
     */
    static final int MAX_GATHERED = 8;
    /** The most terms per input the backward takes. */
    static final int MAX_SLOTS = 16;
    /**
     * The same from a FLOAT gradOut, which rows in lanes stage without conversions: (4096, 64, 16 <- 64), ten
     * terms an input, ran 1.17 x slower flat; 16-bit (606644, 4, 4 <- 15), ten terms, 1.45 x faster with 16
     * lanes. Below 16 lanes the 16-bit rows that rows in lanes take keep to it too where some vector permutes a
     * window of four vectors (no two-vector permute instruction there): that row ran 1.6 x faster in lanes.
     */
    static final int MAX_FLOAT_SLOTS = 8;
    /**
     * The most terms per input where every vector's terms are runs (rows side by side, channels-last): each
     * term is one load, and (59437, 64, 1 <- 16) BF16 ran 1.3 × faster than in lanes.
     */
    static final int MAX_RUN_SLOTS = 64;
    /** gradOut floats of a chunk summed in lanes, about: the chunk, its lane-major copy and its sums stay in L2. */
    private static final int LANES_CHUNK = 4096;
    /**
     * The longest out rows summed in lanes by chunks: longer rows spread a group's fixed costs over enough sums, and
     * the sums' reordering into lines cost more than it saved ((4096, 64, 16 <- 64) FP32 1.01-1.31 x slower).
     */
    private static final int LANES_OUT = 8;
    /** Lines a lane that {@link KernelProvider#sumLines} takes at once (the vector provider's four). */
    private static final int LINES_AT_ONCE = 4;

    private FlatRows() {}

    /**
     * The forward's taps for this call, or null where the form does not apply: self and out must fit
     * ({@link #layout}), rows short enough that a chunk holds whole rows (longer rows go along the row,
     * {@link GatherForward}), and every vector of a chunk's outputs must find its taps within the provider's
     * permute windows (four vectors of inputs) or the table downsample by {@link #MAX_GATHERED} at most.
     * From a channels-last self of several positions a row only where it does not upsample: rows of one input
     * upsampled to 16 (C = 2, 3, 64) taken as interleaved rows ran as fast or up to 1.2 x faster in lanes; as
     * rows end to end (one element each) they run 1.6-1.9 x faster flat.
     */
    static RowTaps forwardTaps(LinearTable t, StridedTensor self, StridedTensor out, KernelProvider provider) {
        int channels = layout(self, t.lin(), out, t.lout());
        if (channels == 0 || t.identity() || t.lout() > SHORT_OUT && t.lout() >= (long) MAX_UPSAMPLING * t.lin()
                && (provider.lanes() >= 16 || t.lout() > NARROW_UPSAMPLED_OUT)
                || channels > 1 && t.lout() > t.lin()) {
            return null;
        }
        int rows = rowsPerChunk(t.lout(), t.lin(), channels, out);
        RowTaps taps = t.derived(List.of("flat taps", rows, channels), () -> RowTaps.flat(t, rows, channels));
        return t.lin() <= (long) MAX_GATHERED * t.lout() || taps.windowsFit(provider.lanes()) ? taps : null;
    }

    /**
     * As {@link #forwardTaps}, for the backward (gradOut to out): out rows of at most {@link #SHORT_OUT} inputs,
     * each input taking {@link #MAX_SLOTS} terms at most ({@link #MAX_FLOAT_SLOTS} from a FLOAT gradOut,
     * {@link #MAX_RUN_SLOTS} where every vector's terms are runs), every vector's within the permute windows.
     * Longer out rows (28 -> 92, 82 -> 205, 39 <- 53, 69 <- 103) ran 0.9-1.15 x as fast as rows in lanes, and a
     * fill and the taps ({@link SparseBackward}, 1 -> 500) 4 x faster.
     */
    static RowSums backwardSums(LinearTable t, StridedTensor gradOut, StridedTensor out, KernelProvider provider) {
        int channels = layout(gradOut, t.lout(), out, t.lin());
        if (channels == 0 || t.lin() > SHORT_OUT) {
            return null;
        }
        int slots = RowSums.slots(t);
        int most = gradOut.dataType() == DataType.FLOAT ? MAX_FLOAT_SLOTS : MAX_SLOTS;
        if (slots > MAX_RUN_SLOTS || slots > most && channels < provider.lanes()) {
            return null;
        }
        int rows = sumsRowsPerChunk(t.lin(), t.lout(), channels, out);
        RowSums sums = t.derived(List.of("flat sums", rows, channels), () -> RowSums.flat(t, rows, channels));
        TapWindows windows = sums.windows(provider.lanes());
        if (channels == 1 && t.lin() <= LANES_OUT && provider.lanes() < 16 && windows.quads()) {
            // Rows in lanes take the call too, and below 16 lanes a window of four vectors is not one permute.
            most = MAX_FLOAT_SLOTS;
        }
        return windows.fit() && (slots <= most || windows.runs()) ? sums : null;
    }

    /**
     * The backward's pass for this call, or null where the form does not apply: sums along the row where
     * {@link #backwardSums} takes the call, else, for rows of consecutive elements on both sides ({@link #layout}
     * 1) and out rows of at most {@link #LANES_OUT} inputs, whole rows in lanes a chunk at a time
     * ({@link #inLanes}). Rows in lanes group by group paid a group's selection, staging calls and writes for
     * each 16 short rows: (8871, 512, 1 <- 11) FP16 spent a quarter of its time there with every read, sum and
     * write skipped.
     */
    static RowPass backwardPass(LinearTable t, StridedTensor gradOut, StridedTensor out, KernelProvider provider) {
        RowSums sums = backwardSums(t, gradOut, out, provider);
        if (sums != null) {
            return RowPass.of(sums);
        }
        if (layout(gradOut, t.lout(), out, t.lin()) != 1 || t.lin() > LANES_OUT) {
            return null;
        }
        int lanes = provider.lanes();
        long rows = out.shape()[0] * out.shape()[1];
        // Whole fours of lines a lane: the vector provider sums four lines at a time.
        long perLane = Math.max(LINES_AT_ONCE, LANES_CHUNK / ((long) lanes * t.lout()) / LINES_AT_ONCE * LINES_AT_ONCE);
        perLane = Math.min(perLane, (rows + lanes - 1) / lanes);
        return RowPass.inLanes(t, (int) (lanes * perLane));
    }

    /**
     * How a chunk of the source is one run of memory: 1 where its rows are of consecutive elements (end to
     * end, or one run per row; rows of one element whatever their L stride, so that a channels-last source
     * of one position a row is rows end to end, not C interleaved rows), C where it is a dense channels-last
     * tensor (rows interleaved, whole batches one run); 0 where neither holds, out's rows are not of
     * consecutive elements, or a row is too long for a chunk or not shorter than {@link GatherForward}'s.
     */
    private static int layout(StridedTensor source, int sourceLength, StridedTensor out, int length) {
        if (out.strides()[2] != 1 && length > 1 || length > CHUNK_OUTPUTS
                || Math.max(sourceLength, length) >= ScatterBackward.MIN_INPUTS) {
            return 0;
        }
        long[] s = source.strides();
        long channels = source.shape()[1];
        if (s[2] == 1 || sourceLength == 1) {
            return 1;
        }
        boolean channelsLast = channels > 1 && s[1] == 1 && s[2] == channels
                && (source.shape()[0] == 1 || s[0] == channels * sourceLength);
        // A chunk's whole batches are read in one run: bounded so that it stays in L2.
        return channelsLast && channels <= CHUNK_OUTPUTS
                && channels * Math.max(1, CHUNK_OUTPUTS / (channels * length)) * sourceLength <= MAX_RUN
                ? (int) channels : 0;
    }

    /**
     * Rows per chunk: whole rows of about {@link #CHUNK_OUTPUTS} outputs (whole batches of interleaved rows), or,
     * for rows end to end, {@link #CHUNK_PERIODS} periods of the tables where those are more and their rows of
     * {@code length} and {@code sourceLength} elements fit {@link #MAX_RUN}; no more than the call has, so that a
     * small call builds small taps.
     */
    private static int rowsPerChunk(int length, int sourceLength, int channels, StridedTensor out) {
        long rows = out.shape()[0] * out.shape()[1];
        long periods = channels == 1 ? (long) CHUNK_PERIODS * RowTaps.periodUnits(length, 1, Integer.MAX_VALUE) : 0;
        long outputs = periods * Math.max(length, sourceLength) <= MAX_RUN
                ? Math.max(CHUNK_OUTPUTS, periods * length) : CHUNK_OUTPUTS;
        long batches = Math.max(1, Math.min(outputs / ((long) channels * length), (rows + channels - 1) / channels));
        // Whole periods of the tables, where a chunk holds one: the kernels take whole periods four at a time.
        int chunk = (int) (channels * batches);
        int period = RowTaps.periodUnits(length, channels, chunk);
        return chunk / period * period;
    }

    /**
     * As {@link #rowsPerChunk}, for the backward's sums, which the vector provider takes four periods at a time:
     * a chunk of whole fours of periods, since a last group of fewer takes periods before it again (the same
     * bits, stored twice), and of four periods where a period is more than a quarter of a chunk (whole batches
     * of many interleaved rows: a chunk of fewer goes through the one-row path, at four times the work), if
     * its source and sums fit in L2 ({@link #MAX_RUN} elements each).
     */
    private static int sumsRowsPerChunk(int length, int sourceLength, int channels, StridedTensor out) {
        long rows = out.shape()[0] * out.shape()[1];
        int chunk = rowsPerChunk(length, sourceLength, channels, out);
        long four = (long) RowSums.PERIODS_AT_ONCE * RowTaps.periodUnits(length, channels, Integer.MAX_VALUE);
        if (chunk < four) {
            return four <= rows && four * Math.max(length, sourceLength) <= MAX_RUN ? (int) four : chunk;
        }
        return (int) (chunk / four * four);
    }

    static void forward(StridedTensor self, StridedTensor out, LinearTable t, RowTaps taps, KernelProvider provider,
                        WorkerPool pool) {
        run(self, out, t.lin(), t.lout(), layout(self, t.lin(), out, t.lout()), RowPass.of(taps), provider, pool);
    }

    static void backward(StridedTensor gradOut, StridedTensor out, LinearTable t, RowPass pass, KernelProvider provider,
                         WorkerPool pool) {
        run(gradOut, out, t.lout(), t.lin(), layout(gradOut, t.lout(), out, t.lin()), pass, provider, pool);
    }

    /** Rows of {@code source} ({@code lin} each) to rows of {@code out} ({@code lout} each) by {@code taps}. */
    private static void run(StridedTensor source, StridedTensor out, int lin, int lout, int channels, RowPass taps,
                            KernelProvider provider, WorkerPool pool) {
        long rows = out.shape()[0] * out.shape()[1];
        if (rows == 0) {
            return;
        }
        int chunkRows = taps.length() / lout;
        int lanes = provider.lanes();
        pool.forEachChunk((rows + chunkRows - 1) / chunkRows, (long) chunkRows * (lin + lout),
                b -> new Scratch(chunkRows, lin, lout, lanes, taps.lanes() != null, b), (c, s) -> {
                    long r0 = c * chunkRows;
                    chunk(source, out, lin, lout, channels, taps, provider, r0, (int) Math.min(chunkRows, rows - r0), s);
                });
    }

    /**
     * One thread's buffers: a chunk's inputs (with four vectors of slack for the windows) and outputs (and
     * their 16-bit bits, for rows a pitch apart).
     */
    private static final class Scratch {
        final float[] x;
        final float[] y;
        final short[] halves;
        final long[] sourceStarts;
        final long[] outStarts;

        /**
         * Rows in lanes ({@link #inLanes}): the chunk lane-major, its sums lane-major input by input and line by line,
         * and the provider's scratch.
         */
        final float[] staged;
        final float[] laneSums;
        final float[] lineSums;
        final float[] line;
        final float[] spare;

        Scratch(int chunkRows, int lin, int lout, int lanes, boolean inLanes, Buffers b) {
            x = b.floats(chunkRows * lin + 4 * lanes);
            y = b.floats(chunkRows * lout + lanes);
            halves = new short[chunkRows * lout + lanes];
            sourceStarts = new long[chunkRows];
            outStarts = new long[chunkRows];
            int perLane = (chunkRows + lanes - 1) / lanes;
            staged = inLanes ? b.floats((perLane * lin + lanes) * lanes) : null;
            laneSums = inLanes ? b.floats((perLane * lout + lanes) * lanes) : null;
            lineSums = inLanes && lout > 1 ? b.floats((perLane * lout + lanes) * lanes) : null;
            line = inLanes ? b.floats(lout * lanes) : null;
            spare = inLanes ? b.floats(2 * lanes * lanes) : null;
        }
    }

    private static void chunk(StridedTensor source, StridedTensor out, int lin, int lout, int channels,
                              RowPass taps, KernelProvider provider, long r0, int rows, Scratch s) {
        if (channels > 1) {
            // Interleaved rows: the chunk is whole batches, one run from its first batch's element 0.
            long first = source.offset() + r0 / channels * source.strides()[0];
            provider.decodeRun(source.segment(), source.dataType(), first, rows * lin, s.x, 0);
        } else if (starts(source, r0, rows, s.sourceStarts) == lin) {
            provider.decodeRun(source.segment(), source.dataType(), s.sourceStarts[0], rows * lin, s.x, 0);
        } else {
            for (int k = 0; k < rows; k++) {
                provider.decodeRun(source.segment(), source.dataType(), s.sourceStarts[k], lin, s.x, k * lin);
            }
        }
        if (taps.lanes() != null) {
            inLanes(taps.lanes(), provider, rows, s);
        } else {
            taps.run(provider, rows * lout, s.x, s.y);
        }
        long pitch = starts(out, r0, rows, s.outStarts);
        if (pitch == lout) {
            provider.encodeRun(s.y, 0, rows * lout, out.segment(), out.dataType(), s.outStarts[0]);
        } else if (pitch > lout) {
            provider.encodePitched(s.y, s.halves, lout, rows, pitch, out.segment(), out.dataType(), s.outStarts[0]);
        } else {
            provider.encodeRows(s.y, lout, rows, lout, out.segment(), out.dataType(), s.outStarts, 0);
        }
    }

    /**
     * The backward's sums of a chunk's {@code rows} rows in lanes: lane l takes rows {@code l·q .. l·q + q - 1}, a
     * stretch of the chunk ({@code q} the rows over the lanes, rounded up), transposed whole
     * ({@link KernelProvider#toLanes}), summed line by line from +0 ({@link KernelProvider#sumLines}: the
     * canonical order) and transposed back into out's rows end to end. Lanes past the chunk's rows sum whatever
     * the buffer holds there, and those sums are never written.
     */
    private static void inLanes(LinearTable t, KernelProvider provider, int rows, Scratch s) {
        int lanes = provider.lanes();
        int q = (rows + lanes - 1) / lanes;
        int lin = t.lin();
        int gradLength = q * t.lout();
        int outLength = q * lin;
        provider.toLanes(s.x, 0, gradLength, gradLength, s.staged, 0, s.spare);
        // The sums of input i of line k at position i·q + k (sumLines' layout, shared with the 2-D maps), then
        // in lines' order, k·lin + i, which is out's rows end to end; one input a line is that order already.
        float[] sums = s.laneSums;
        provider.sumLines(t, 0, q, s.staged, sums, q, s.line);
        if (lin > 1) {
            for (int k = 0; k < q; k++) {
                for (int i = 0; i < lin; i++) {
                    System.arraycopy(sums, (i * q + k) * lanes, s.lineSums, (k * lin + i) * lanes, lanes);
                }
            }
            sums = s.lineSums;
        }
        provider.fromLanes(sums, 0, outLength, s.y, 0, outLength, s.spare);
    }

    /**
     * Fills {@code starts} with the first element of rows {@code r0 .. r0 + rows - 1} of {@code t} and returns
     * the pitch between consecutive ones where they are evenly spaced (its length where they lie end to end,
     * so that the chunk is one run of memory from {@code starts[0]}, and the others are not filled), else 0. One
     * division per chunk, and the rows of one batch step evenly.
     */
    private static long starts(StridedTensor t, long r0, int rows, long[] starts) {
        long channels = t.shape()[1];
        long[] strides = t.strides();
        long n = r0 / channels;
        long c = r0 % channels;
        long first = t.offset() + n * strides[0] + c * strides[1];
        starts[0] = first;
        long step = channels == 1 ? strides[0] : strides[1];
        if (rows == 1) {
            return t.shape()[2];
        }
        if (c + rows <= channels || channels == 1 || strides[0] == channels * strides[1]) {
            if (step != t.shape()[2]) {
                // One run (rows end to end) needs only its start.
                for (int k = 1; k < rows; k++) {
                    starts[k] = first + k * step;
                }
            }
            return step;
        }
        for (int k = 0; k < rows; k++) {
            starts[k] = t.offset() + n * strides[0] + c * strides[1];
            if (++c == channels) {
                c = 0;
                n++;
            }
        }
        return 0;
    }
}
