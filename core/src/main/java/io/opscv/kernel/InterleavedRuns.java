package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * A {@link LaneStage}'s selected rows where they interleave in memory (a channels-last tensor with fewer channels
 * than lanes, or a group that crosses from one batch's channels to the next's): rows that start less than a stride
 * apart form runs of memory, each run's stretch for a move's positions is copied once, widened, into {@link #runs},
 * and {@link #gatherAt} holds each lane's first element there. The split and the placement are worked out once per
 * selection ({@link #reset}) and per count of positions.
 */
final class InterleavedRuns {
    /**
     * The most floats of interleaved rows' memory a move stages (256 KiB: within L2): a group of whole batches of
     * channels-last maps of up to 64 × 64 pixels, so that such maps never fall back to strided loops per row (49 ×
     * 49 maps of 3 channels did, at 2 × the time).
     */
    private static final int RUN_FLOATS = 1 << 16;

    private final Buffers buffers;
    /** The stage's rows' starts (its own array, updated in place by each selection), and their L stride. */
    private final long[] rowStart;
    private final long stride;
    /** The runs' stretches, widened, allocated at first use; each lane's first element in it. */
    float[] runs;
    final int[] gatherAt;
    /** Runs of the selected rows: rows {@code [runFirst[r], runFirst[r + 1])} start less than a stride apart. */
    private final int[] runFirst;
    private int runCount;
    /**
     * The runs' stretches as moves of memory: move m is runs {@code [moveFirst[m], moveFirst[m + 1])}, whose
     * stretches abut in memory as in {@link #runs} (whole batches of a channels-last tensor of short rows),
     * so that one decode or encode call moves them all.
     */
    private final int[] moveFirst;
    /** Floats of each move's stretch, for the {@link #stage}d count of positions. */
    private final int[] moveFloats;
    private int moveCount;
    /** {@link #found}'s answer for the selection, once known; {@link #stage}'s, for stagedCount positions. */
    private boolean known;
    private boolean found;
    private int stagedCount = -1;
    private boolean stagedFit;

    InterleavedRuns(long[] rowStart, long stride, int lanes, Buffers buffers) {
        this.rowStart = rowStart;
        this.stride = stride;
        this.buffers = buffers;
        this.gatherAt = new int[lanes];
        this.runFirst = new int[lanes + 1];
        this.moveFirst = new int[lanes + 1];
        this.moveFloats = new int[lanes];
    }

    /** Forgets the last selection's runs. */
    void reset() {
        known = false;
        stagedCount = -1;
    }

    /** Whether the selection's {@code valid} rows fall into runs averaging two rows or more. */
    boolean found(int valid) {
        if (!known) {
            found = split(valid);
            known = true;
        }
        return found;
    }

    private boolean split(int valid) {
        if (stride <= 1 || stride > Integer.MAX_VALUE / RUN_FLOATS) {
            return false;
        }
        int r = 0;
        runFirst[0] = 0;
        for (int l = 1; l < valid; l++) {
            // A run's rows ascend strictly, so that its last row ends its stretch and a dense run has no repeats.
            long gap = rowStart[l] - rowStart[runFirst[r]];
            if (rowStart[l] <= rowStart[l - 1] || gap >= stride) {
                runFirst[++r] = l;
            }
        }
        runFirst[++r] = valid;
        runCount = r;
        return runCount * 2 <= valid;
    }

    /**
     * Whether every run is dense: its rows are every element of its stretch (a stride of s and s rows side by
     * side, e.g. the columns of whole narrow maps). A run with gaps holds other rows' elements, which a write of
     * the whole stretch must not touch.
     */
    boolean dense() {
        for (int r = 0; r < runCount; r++) {
            int first = runFirst[r];
            if (runFirst[r + 1] - first != stride || rowStart[runFirst[r + 1] - 1] - rowStart[first] != stride - 1) {
                return false;
            }
        }
        return true;
    }

    /** Places the runs in {@link #runs} and each lane's first element ({@link #gatherAt}); false if they do not fit. */
    boolean stage(int count) {
        if (count != stagedCount) {
            stagedFit = place(count);
            stagedCount = count;
        }
        return stagedFit;
    }

    private boolean place(int count) {
        long floats = 0;
        for (int r = 0; r < runCount; r++) {
            floats += runLength(r, count);
            if (floats > RUN_FLOATS) {
                return false;
            }
        }
        if (runs == null) {
            runs = buffers.floats(RUN_FLOATS);
        }
        int at = 0;
        moveCount = 0;
        for (int r = 0; r < runCount; r++) {
            int first = runFirst[r];
            for (int l = first; l < runFirst[r + 1]; l++) {
                gatherAt[l] = at + (int) (rowStart[l] - rowStart[first]);
            }
            // A run whose stretch starts in memory where the last move's ends (at, in runs) joins that move.
            int moveRow = r == 0 ? 0 : runFirst[moveFirst[moveCount - 1]];
            if (r == 0 || rowStart[first] != rowStart[moveRow] + (at - gatherAt[moveRow])) {
                moveFirst[moveCount] = r;
                moveFloats[moveCount++] = 0;
            }
            int length = runLength(r, count);
            moveFloats[moveCount - 1] += length;
            at += length;
        }
        moveFirst[moveCount] = runCount;
        return true;
    }

    /** Floats of run r's stretch for {@code count} positions. */
    private int runLength(int r, int count) {
        return (int) (rowStart[runFirst[r + 1] - 1] - rowStart[runFirst[r]] + (count - 1) * stride + 1);
    }

    /** Decodes the {@link #stage}d moves' stretches from position {@code from} on into {@link #runs}. */
    void decode(KernelProvider provider, MemorySegment segment, DataType type, int from) {
        for (int m = 0; m < moveCount; m++) {
            int first = runFirst[moveFirst[m]];
            provider.decodeRun(segment, type, rowStart[first] + from * stride, moveFloats[m], runs, gatherAt[first]);
        }
    }

    /** The inverse of {@link #decode}: each move's stretch from {@link #runs} to memory, rounded once. */
    void encode(KernelProvider provider, MemorySegment segment, DataType type, int from) {
        for (int m = 0; m < moveCount; m++) {
            int first = runFirst[moveFirst[m]];
            provider.encodeRun(runs, gatherAt[first], moveFloats[m], segment, type, rowStart[first] + from * stride);
        }
    }
}
