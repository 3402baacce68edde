package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * Moves a group of {@link KernelProvider#lanes()} rows of one tensor between memory and a lane-major
 * buffer (position k of row l at {@code k·lanes + l}): reads gradOut's positions in, writes out's sums
 * back, widening exactly on the way in and rounding once on the way out. This is where the rows-in-lanes
 * kernels meet layouts and dtypes; the sums in between never see either.
 *
 * <p>The dispatch, chosen per group from where its rows lie (L stride s, row l's element 0 at o_l):
 * <table>
 *   <caption>Forms of a stage</caption>
 *   <tr><th>the group's rows</th><th>form</th></tr>
 *   <tr><td>side by side: s ≠ 1, o_l = o_0 + l, every lane a row (a channels-last tensor)</td>
 *       <td>one vector per position ({@link KernelProvider#decodeLanes}, {@link KernelProvider#encodeLanes}),
 *       no transpose</td></tr>
 *   <tr><td>end to end: s = 1, o_l = o_0 + l·L, every lane a row, the whole row at once (short rows of a
 *       contiguous tensor)</td>
 *       <td>in: straight into the lanes where the provider moves rows in registers (see below), else one run
 *       for the whole group, transposed; rows of at most {@link #SHORT_POSITIONS} positions gathered from it (a
 *       16 × 16 transpose would be mostly padding); out: one run for the group</td></tr>
 *   <tr><td>s = 1, more than {@link #SHORT_POSITIONS} positions, where the provider moves such rows in registers (at
 *       8 lanes: FLOAT and BF16 both ways, FLOAT16 in; a partial group too, its lanes past the rows repeating its last
 *       row, but not in FLOAT16; at 16 lanes: FLOAT and BF16, not whole rows end to end, rows of fewer than
 *       {@link #SHORT_ROWS_16} positions only in, BF16 rows whose group fits {@link #group} decoded there instead)</td>
 *       <td>straight between memory and the lanes ({@link KernelProvider#rowsToLanes},
 *       {@link KernelProvider#lanesToRows}), no tile or group buffer: the copy into a tile took as long as the
 *       transpose</td></tr>
 *   <tr><td>end to end, rows longer than a read, the group at most {@link #GROUP_FLOATS} floats</td>
 *       <td>in: the whole group decoded in one run at its first read from position 0 and transposed from
 *       there; out, where the caller announces whole rows ({@link #writesWholeRows}): transposed into a
 *       buffer and written in one run once complete (memory streams once, not as {@code lanes} rows side by
 *       side); out rows evenly a pitch apart collect the same way and go out row after row</td></tr>
 *   <tr><td>s = 1 (contiguous rows, any row strides; a last group of fewer rows where the provider declines)</td>
 *       <td>one run per row ({@link KernelProvider#decodeRows}, {@link KernelProvider#encodeRows}),
 *       transposed</td></tr>
 *   <tr><td>interleaved: s ≠ 1, rows starting less than s apart (a channels-last tensor with fewer channels
 *       than lanes, a group crossing into the next batch's channels)</td>
 *       <td>in: each run of interleaved rows copied once, then per position a gather or a load per run
 *       of consecutive lanes ({@link KernelProvider#gatherLanes}); out: the codec's strided loops per
 *       row, or through {@link #writeRuns}, where every run is dense, a scatter or a masked store per
 *       run of lanes ({@link KernelProvider#scatterLanes}) and one store per run</td></tr>
 *   <tr><td>anything else, at most {@link #SHORT_POSITIONS} positions (tiny rows of a strided tensor, a
 *       partial last group)</td><td>element by element between memory and the lanes, one call for the
 *       group, no transpose (rows evenly spaced: position by position, see
 *       {@link ElementCodec#decodeShortRows})</td></tr>
 *   <tr><td>anything else</td><td>the codec's strided loops per row, transposed</td></tr>
 * </table>
 * Positions that are known to be +0 (inputs no term reaches) are written by {@link #writeZeros}, a fill.
 * Lanes past the tensor's last row (a partial last group) are neither read nor written: they hold
 * whatever the buffers held, and their sums are dropped. A lane may also hold a stretch of a row rather
 * than a whole row ({@link #select}), for calls of few rows on a periodic table.
 *
 * <p>A group that follows the last one (the common walk over a tensor) steps its batch and channel on
 * without a division; one that starts at the same channel with as many rows lies as the last did, moved,
 * so its form, runs and gather offsets are kept rather than worked out again.
 */
final class LaneStage {
    /** Zero bytes to copy from: more than a block of any dtype's positions of a group of lanes. */
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[1 << 16]);
    /**
     * The most positions of rows that are neither side by side nor end to end that move element by element,
     * straight between memory and the lanes: below this a call and a transpose per row cost more.
     */
    static final int SHORT_POSITIONS = 8;
    /**
     * At 16 lanes, rows shorter than this are written through the tile, collected and a run per row, not straight from
     * the lanes: 16 × 16 blocks and a masked remainder per row cost more for them.
     */
    private static final int SHORT_ROWS_16 = 128;
    /**
     * The most floats of a group of rows end to end decoded whole (1 MiB, about L2): longer groups took no gain
     * from it.
     */
    static final int GROUP_FLOATS = 1 << 18;
    /** Where the stage's buffers come from: a pool slot's, kept from call to call, or new ones. */
    private final Buffers buffers;
    private final MemorySegment segment;
    private final DataType type;
    private final KernelProvider provider;
    private final int lanes;
    private final long channels;
    private final long offset;
    private final long batchStride;
    private final long channelStride;
    /** Positions along L, and the element stride between them. */
    private final int length;
    private final long stride;
    /**
     * Element index of position 0 of each lane's row, for the selected group; entries past the valid rows are the
     * provider's to overwrite ({@link KernelProvider#rowsToLanes}).
     */
    private final long[] rowStart;
    /** Rows of positions between memory and the transposes: {@code lanes} rows {@code tileStride} apart. */
    private final float[] tile;
    private final int tileStride;
    /** The transposes' scratch. */
    private final float[] spare;
    /** Interleaved rows' runs of memory (see {@link #gathered}). */
    private final InterleavedRuns interleaved;
    /** Each lane's row start in the tile of a group end to end: short rows are gathered and scattered, not transposed. */
    private final int[] wholeAt;
    /**
     * A group of rows end to end decoded whole ({@link #groupHeld}), allocated at first use, and the element where
     * it starts (-1: none; every selection drops it).
     */
    private float[] group;
    private long heldStart = -1;
    /**
     * Writes of a group announced whole ({@link #writesWholeRows}) collect here until complete; the positions of
     * each row still to come (0: writes go to memory directly).
     */
    private float[] groupOut;
    private int pending;
    /** Whether the rows announced whole go straight to memory ({@link KernelProvider#lanesToRows}), only counted. */
    private boolean straight;
    private int valid;
    /** The last selection's first row, its batch and channel, and where the group after it starts (-1: segments). */
    private long selectedBatch;
    private long selectedChannel = -1;
    private int selectedRows;
    private long nextRow = -1;
    /** Whether the selection is of whole rows, so that a group from the same channel on lies the same way. */
    private boolean patternHeld;
    private boolean sideBySide;
    private boolean endToEnd;
    /** The step between the selected rows' starts where it is one step throughout, else 0. */
    private long rowStep;

    /** @param positions the most positions one {@link #read} or {@link #write} moves */
    LaneStage(StridedTensor t, KernelProvider provider, int positions) {
        this(t, provider, positions, Buffers.FRESH);
    }

    /** As {@link #LaneStage(StridedTensor, KernelProvider, int)}, its buffers taken from {@code buffers}. */
    LaneStage(StridedTensor t, KernelProvider provider, int positions, Buffers buffers) {
        this.buffers = buffers;
        this.segment = t.segment();
        this.type = t.dataType();
        this.provider = provider;
        this.lanes = provider.lanes();
        this.channels = t.shape()[1];
        this.offset = t.offset();
        this.batchStride = t.strides()[0];
        this.channelStride = t.strides()[1];
        this.length = Math.toIntExact(t.shape()[2]);
        this.stride = t.strides()[2];
        this.rowStart = new long[lanes];
        this.tileStride = (positions + lanes - 1) / lanes * lanes;
        // Slack of a vector: the transposes read and write whole blocks of lanes positions.
        this.tile = buffers.floats(lanes * tileStride + lanes);
        this.spare = buffers.floats(2 * lanes * lanes);
        this.wholeAt = new int[lanes];
        for (int l = 0; l < lanes; l++) {
            wholeAt[l] = l * length;
        }
        this.interleaved = new InterleavedRuns(rowStart, stride, lanes, buffers);
    }

    /**
     * Selects the lanes for the next reads and writes: {@code segments} stretches of each of the rows
     * {@code r0 .. r0 + rows - 1} (N·C order), stretch k of a row starting {@code k·shift} positions into it
     * (lane {@code r·segments + k}); one stretch of shift 0 is the rows themselves.
     */
    void select(long r0, int rows, int segments, long shift) {
        if (pending > 0 && pending < length) {
            throw new IllegalStateException("rows announced whole were left with " + pending + " positions unwritten");
        }
        pending = 0;
        straight = false;
        heldStart = -1;
        long n;
        long c;
        if (segments == 1 && r0 == nextRow) {
            // The group after the last one: step its batch and channel on, without a division for most steps.
            n = selectedBatch;
            c = selectedChannel + selectedRows;
            if (c >= channels) {
                n += c / channels;
                c %= channels;
            }
        } else {
            n = r0 / channels;
            c = r0 % channels;
        }
        long first = offset + n * batchStride + c * channelStride;
        boolean samePattern = segments == 1 && patternHeld && c == selectedChannel && rows == selectedRows;
        nextRow = segments == 1 ? r0 + rows : -1;
        selectedBatch = n;
        selectedChannel = c;
        selectedRows = rows;
        if (samePattern) {
            // Rows from the same channel on lie as the last group's did, moved: its classification and runs hold.
            long delta = first - rowStart[0];
            for (int l = 0; l < valid; l++) {
                rowStart[l] += delta;
            }
            return;
        }
        patternHeld = segments == 1;
        interleaved.reset();
        this.valid = rows * segments;
        if (segments == 1 && (c + rows <= channels || channels == 1)) {
            // Rows of one batch, or of single-channel batches: their starts step evenly (the common case).
            long step = channels == 1 ? batchStride : channelStride;
            for (int r = 0; r < rows; r++) {
                rowStart[r] = first + r * step;
            }
            rowStep = rows > 1 ? step : 0;
            boolean full = valid == lanes && lanes > 1;
            sideBySide = full && stride != 1 && step == 1;
            endToEnd = full && stride == 1 && step == length;
            return;
        }
        for (int r = 0; r < rows; r++) {
            long start = offset + n * batchStride + c * channelStride;
            for (int k = 0; k < segments; k++) {
                rowStart[r * segments + k] = start + k * shift * stride;
            }
            if (++c == channels) {
                c = 0;
                n++;
            }
        }
        boolean full = valid == lanes && lanes > 1 && segments == 1;
        boolean adjacent = full && stride != 1;
        boolean ends = full && stride == 1;
        boolean even = valid > 1;
        for (int l = 1; l < valid; l++) {
            adjacent &= rowStart[l] == rowStart[0] + l;
            ends &= rowStart[l] == rowStart[0] + (long) l * length;
            even &= rowStart[l] - rowStart[l - 1] == rowStart[1] - rowStart[0];
        }
        rowStep = even ? rowStart[1] - rowStart[0] : 0;
        sideBySide = adjacent;
        endToEnd = ends;
    }

    /** Reads positions {@code [from, from + count)} of the group's rows into the lane-major {@code lanesOut}. */
    void read(int from, int count, float[] lanesOut) {
        if (sideBySide) {
            provider.decodeLanes(segment, type, rowStart[0] + from * stride, stride, count, lanesOut, 0);
        } else if (wholeRows(from, count)) {
            if (length > SHORT_POSITIONS
                    && provider.rowsToLanes(segment, type, rowStart, lanes, 0, length, lanesOut, spare)) {
                return;
            }
            provider.decodeRun(segment, type, rowStart[0], lanes * length, tile, 0);
            if (length <= SHORT_POSITIONS) {
                provider.gatherLanes(tile, wholeAt, lanes, 1, count, lanesOut, 0);
            } else {
                provider.toLanes(tile, 0, length, count, lanesOut, 0, spare);
            }
        } else if (gathered(from, count)) {
            provider.gatherLanes(interleaved.runs, interleaved.gatherAt, valid, (int) stride, count, lanesOut, 0);
        } else {
            readRows(from, count, lanesOut);
        }
    }

    /**
     * Whether the selected group's rows, end to end and longer than a read, are held decoded in {@link #group}:
     * decoded in one run at the group's first read from position 0, so that memory streams in one run rather
     * than as {@code lanes} rows side by side, which the prefetchers follow poorly.
     */
    private boolean groupHeld(int from) {
        if (!groupFits()) {
            return false;
        }
        if (heldStart == rowStart[0]) {
            return true;
        }
        if (from != 0) {
            return false;
        }
        if (group == null) {
            group = buffers.floats(lanes * length + lanes);
        }
        provider.decodeRun(segment, type, rowStart[0], lanes * length, group, 0);
        heldStart = rowStart[0];
        return true;
    }

    /**
     * {@link #read} row by row (rows neither side by side nor end to end), kept apart so that read stays
     * small for the JIT.
     */
    private void readRows(int from, int count, float[] lanesOut) {
        if (count <= SHORT_POSITIONS) {
            ElementCodec.decodeShortRows(segment, type, rowStart, rowStep, valid, from, stride, count, lanesOut, lanes);
            return;
        }
        // At 16 lanes BF16 rows end to end that fit the group buffer stream faster decoded in one run.
        boolean held = lanes >= 16 && type == DataType.BF16 && groupFits();
        if (stride == 1 && !held
                && provider.rowsToLanes(segment, type, rowStart, valid, from, count, lanesOut, spare)) {
            return;
        }
        if (groupHeld(from)) {
            provider.toLanes(group, from, length, count, lanesOut, 0, spare);
            return;
        }
        if (stride == 1) {
            provider.decodeRows(segment, type, rowStart, from, valid, count, tile, tileStride);
        } else {
            for (int l = 0; l < valid; l++) {
                ElementCodec.decode(segment, type, rowStart[l] + from * stride, stride, count, tile, l * tileStride);
            }
        }
        provider.toLanes(tile, 0, tileStride, count, lanesOut, 0, spare);
    }

    /** Writes the lane-major {@code lanesIn} to positions {@code [from, from + count)} of the group's rows. */
    void write(int from, int count, float[] lanesIn) {
        if (sideBySide) {
            provider.encodeLanes(lanesIn, 0, count, segment, type, rowStart[0] + from * stride, stride);
        } else if (wholeRows(from, count)) {
            writeWhole(count, lanesIn);
        } else {
            writeRows(from, count, lanesIn);
        }
    }

    /**
     * {@link #write} of whole rows end to end: stored straight from the lanes where the provider does so, since a
     * transpose into the tile and a copy of it cost more (most of a small FP32 map's time in lanes); else one run.
     */
    private void writeWhole(int count, float[] lanesIn) {
        if (length <= SHORT_POSITIONS) {
            provider.scatterLanes(lanesIn, 0, lanes, 1, count, tile, wholeAt);
        } else if (provider.lanesToRows(lanesIn, count, segment, type, rowStart, valid, 0, spare)) {
            return;
        } else {
            provider.fromLanes(lanesIn, 0, count, tile, 0, length, spare);
        }
        provider.encodeRun(tile, 0, lanes * length, segment, type, rowStart[0]);
    }

    /**
     * Announces that each position of the selected rows is written once ({@link #write}, {@link #writeZeros}) before
     * the next selection. Where the rows lie end to end or evenly a pitch apart (rows of a wider tensor), longer
     * than a write, the group at most {@link #GROUP_FLOATS} floats, the writes then collect in a buffer and the
     * complete group goes out in one run, or row after row: memory streams once rather than as {@code lanes} rows
     * side by side. A selection that finds such rows partly written throws rather than drop them.
     */
    void writesWholeRows() {
        boolean pitched = stride == 1 && valid == lanes && lanes > 1 && rowStep >= length;
        if ((endToEnd || pitched) && groupSized()) {
            if (groupOut == null) {
                groupOut = buffers.floats(lanes * length + lanes);
            }
            pending = length;
            straight = false;
        }
    }

    /**
     * Whether the selected rows lie end to end, longer than a read, the group at most {@link #GROUP_FLOATS} floats.
     */
    private boolean groupFits() {
        return endToEnd && groupSized();
    }

    /** Whether the selected rows are longer than a read or write, the group at most {@link #GROUP_FLOATS} floats. */
    private boolean groupSized() {
        return length > tileStride && (long) lanes * length <= GROUP_FLOATS;
    }

    /** Counts {@code count} positions of an announced group as written, and writes the group once complete. */
    private void collected(int count) {
        pending -= count;
        if (pending < 0) {
            throw new IllegalStateException("rows announced whole were written twice");
        }
        if (pending == 0 && straight) {
            return;
        }
        if (pending == 0 && endToEnd) {
            provider.encodeRun(groupOut, 0, lanes * length, segment, type, rowStart[0]);
        } else if (pending == 0) {
            // Rows a pitch apart, one run each: one FP16 conversion loop over the group (encodePitched) was slower.
            for (int l = 0; l < lanes; l++) {
                provider.encodeRun(groupOut, l * length, length, segment, type, rowStart[0] + l * rowStep);
            }
        }
    }

    /** {@link #write} row by row, kept apart as {@link #readRows}. */
    private void writeRows(int from, int count, float[] lanesIn) {
        if ((pending == 0 || pending == length || straight) && stride == 1
                && (lanes < 16 || length >= SHORT_ROWS_16)
                && provider.lanesToRows(lanesIn, count, segment, type, rowStart, valid, from, spare)) {
            // Rows announced whole that the provider writes straight from the lanes are counted, not collected.
            if (pending > 0) {
                straight = true;
                collected(count);
            }
            return;
        }
        if (pending > 0) {
            provider.fromLanes(lanesIn, 0, count, groupOut, from, length, spare);
            collected(count);
            return;
        }
        if (count <= SHORT_POSITIONS) {
            ElementCodec.encodeShortRows(lanesIn, lanes, valid, count, segment, type, rowStart, rowStep, from, stride);
            return;
        }
        provider.fromLanes(lanesIn, 0, count, tile, 0, tileStride, spare);
        if (stride == 1) {
            provider.encodeRows(tile, tileStride, valid, count, segment, type, rowStart, from);
        } else {
            for (int l = 0; l < valid; l++) {
                ElementCodec.encode(tile, l * tileStride, count, segment, type, rowStart[l] + from * stride, stride);
            }
        }
    }

    /**
     * As {@link #write}, for groups whose rows may be interleaved in dense runs (the maps of a channels-last
     * tensor, grouped by whole batches): such runs are scattered and stored whole ({@link #scattered}).
     * Kept apart from {@link #write} so that the 1-D kernels' hot write stays small for the JIT.
     */
    void writeRuns(int from, int count, float[] lanesIn) {
        if (!scattered(from, count, lanesIn)) {
            write(from, count, lanesIn);
        }
    }

    /** Writes +0 to positions {@code [from, from + count)} of the group's rows (all dtypes: zero bits). */
    void writeZeros(int from, int count) {
        long size = type.byteSize();
        if (straight) {
            collected(count);
        }
        if (pending > 0 && !straight) {
            for (int l = 0; l < lanes; l++) {
                java.util.Arrays.fill(groupOut, l * length + from, l * length + from + count, 0f);
            }
            collected(count);
        } else if (sideBySide && stride == lanes) {
            MemorySegment.copy(ZEROS, 0, segment, (rowStart[0] + from * stride) * size, count * stride * size);
        } else if (sideBySide || stride == 1) {
            long step = sideBySide ? stride : 1;
            long bytes = sideBySide ? lanes * size : count * size;
            int moves = sideBySide ? count : valid;
            for (int m = 0; m < moves; m++) {
                long at = sideBySide ? rowStart[0] + (from + m) * step : rowStart[m] + from;
                MemorySegment.copy(ZEROS, 0, segment, at * size, bytes);
            }
        } else {
            float[] zeros = new float[count];
            for (int l = 0; l < valid; l++) {
                ElementCodec.encode(zeros, 0, count, segment, type, rowStart[l] + from * stride, stride);
            }
        }
    }

    /**
     * Rows interleaved in memory (a channels-last tensor with fewer channels than lanes, or a group that
     * crosses from one batch's channels to the next's): each run's stretch for these positions is copied once,
     * widened ({@link InterleavedRuns}), and each position of every lane is then gathered from there in one
     * vector. False (nothing copied) for rows that do not share runs, or runs too long to stay in L2.
     */
    private boolean gathered(int from, int count) {
        if (count == 0 || !interleaved.found(valid) || !interleaved.stage(count)) {
            return false;
        }
        interleaved.decode(provider, segment, type, from);
        return true;
    }

    /**
     * The inverse of {@link #gathered} where every run is dense ({@link InterleavedRuns#dense}): the lanes are
     * scattered into the runs' buffer and each run is stored as one run of memory, rounded once. False (nothing
     * written) otherwise.
     */
    private boolean scattered(int from, int count, float[] lanesIn) {
        if (count == 0 || !interleaved.found(valid) || !interleaved.dense() || !interleaved.stage(count)) {
            return false;
        }
        provider.scatterLanes(lanesIn, 0, valid, (int) stride, count, interleaved.runs, interleaved.gatherAt);
        interleaved.encode(provider, segment, type, from);
        return true;
    }

    /** Whether the move covers the group's whole rows, end to end, in one run that fits the tile. */
    private boolean wholeRows(int from, int count) {
        return endToEnd && from == 0 && count == length && length <= tileStride;
    }
}
