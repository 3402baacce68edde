package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The 1-D forward of a strong downsampling: each output reads its two inputs straight from self, and
 * nothing else is read. Where outputs lie {@link #MIN_RATIO} or more inputs apart, rows in lanes would
 * stage every input of a row for the few it needs (or stage each output on its own, a call per output and
 * group); here the memory traffic is the lines that hold the taps, a fraction of the row. Rows of one
 * output and some downsamplings of channels side by side are taken here too ({@link #applies}).
 *
 * <p>Each output is {@code w0 · x[x0] + w1 · x[x1]} in float, the left product first, rounded once: the
 * reference's arithmetic ({@link ScalarKernelProvider#forward}), so every provider and thread count gives
 * the same bits. The loops follow the memory: row after row; or one output position across rows, where
 * rows have few outputs or where many channels lie side by side in self, the rows' taps then decoded as
 * runs (the provider's codecs for channels-last rows, the codec's strided loops otherwise). Tasks are
 * ranges of rows or of (batch, output, run of rows); every output belongs to one task.
 */
final class SparseForward {
    /** Inputs per output from which a downsampling reads only the taps: its rows' lines are then mostly unread. */
    static final int MIN_RATIO = 32;
    /** Rows whose taps are decoded as one run, at most, where one output position is taken across rows. */
    private static final int RUN = 1024;
    /** Channels side by side, at least, for which one output position is taken across them (runs of taps). */
    private static final int MIN_RUN = 16;
    /** Channels side by side from which a downsampling by 2 or more reads only the taps (runs of 256 B or more). */
    private static final int WIDE_RUN = 64;
    /**
     * Rows, at most, and inputs per output, at least, of a downsampling read here: a few long rows leave
     * lanes idle and stream each row of a group at once, while each output reads 4 or more inputs.
     */
    static final int FEW_ROWS = 64;
    static final int FEW_ROWS_RATIO = 4;
    /** Outputs per row, at most, of a downsampling of channels-last rows taken here whatever its ratio. */
    static final int TINY_OUTPUTS = 4;
    /** Rows of fewer outputs than this are taken across rows, one output position at a time. */
    private static final int ACROSS_ROWS_OUTPUTS = 64;
    /** Outputs a task covers at least: handing out a task costs about as much as a microsecond. */
    private static final long TASK_OUTPUTS = 1 << 13;
    /** Bytes a run's taps of one output position span, at most, for runs touched a block ahead ({@link #touch}). */
    private static final int TOUCH_BYTES = 256;
    /** A cache line's bytes: {@link #touch} loads one byte of each. */
    private static final int LINE_BYTES = 64;
    /** Runs touched at once. */
    private static final int TOUCH_BLOCK = 16;
    /** Never written in practice: the touched bytes' sum flows here only so that the loads stay. */
    private static volatile int touched;

    private SparseForward() {}

    /**
     * Where the taps are read straight from self: downsampling by {@link #MIN_RATIO} or more (most of a row's
     * lines are then never read), or by {@link #FEW_ROWS_RATIO} or more of at most {@link #FEW_ROWS} rows;
     * rows of one output, or of up to {@link #TINY_OUTPUTS} from {@link #MIN_RUN}
     * or more channels side by side (rows in lanes spend a transpose and codec calls per group on them); and
     * downsampling by 2 or more of {@link #WIDE_RUN} or more channels side by side (each tap a run of a
     * line or more, and the positions between the taps, half of self or more, never read).
     */
    static boolean applies(LinearTable t, StridedTensor self) {
        int lin = t.lin();
        int lout = t.lout();
        long channels = self.shape()[1];
        long rows = self.shape()[0] * channels;
        if (lin >= (long) MIN_RATIO * lout || lin >= (long) FEW_ROWS_RATIO * lout && rows <= FEW_ROWS) {
            return true;
        }
        boolean sideBySide = self.strides()[1] == 1 && Math.abs(self.strides()[2]) > 1;
        return lout < lin && (lout == 1
                || sideBySide && channels >= MIN_RUN && lout <= TINY_OUTPUTS
                || sideBySide && channels >= WIDE_RUN && lin >= 2L * lout);
    }

    static void run(StridedTensor self, StridedTensor out, LinearTable t, KernelProvider provider, WorkerPool pool) {
        long[] si = self.strides();
        long[] so = out.strides();
        long batches = out.shape()[0];
        long channels = out.shape()[1];
        int lout = t.lout();
        if (batches * channels == 0 || lout == 0) {
            return;
        }
        // Rows evenly spaced in both tensors (contiguous N and C) are one batch of N·C rows.
        if (batches > 1 && si[0] == channels * si[1] && so[0] == channels * so[1]) {
            channels *= batches;
            batches = 1;
        }
        // Many channels side by side in self (one output's taps of consecutive channels are runs), or rows of
        // few outputs: the outputs of one position for a run of rows; otherwise a run of outputs of one row.
        boolean acrossRows = channels > 1 && (Math.abs(si[1]) < Math.abs(si[2]) && channels >= MIN_RUN
                || lout < ACROSS_ROWS_OUTPUTS);
        long perRun = acrossRows ? Math.min(channels, TASK_OUTPUTS) : lout;
        long runsPerLine = acrossRows ? (channels + perRun - 1) / perRun : 1;
        long runs = acrossRows ? batches * lout * runsPerLine : batches * channels;
        long runsPerTask = Math.max(1, TASK_OUTPUTS / perRun);
        int tasks = Math.toIntExact((runs + runsPerTask - 1) / runsPerTask);
        final long c0 = channels;
        // Runs of a few lines a tap are touched a block ahead (see touch).
        final boolean touch = acrossRows && perRun * Math.abs(si[1]) * self.dataType().byteSize() <= TOUCH_BYTES;
        WorkerPool.ScratchTask<float[]> body = (task, work) -> {
            long u0 = task * runsPerTask;
            for (long u = u0, u1 = Math.min(runs, u + runsPerTask); u < u1; u++) {
                if (acrossRows) {
                    if (touch && (u - u0) % TOUCH_BLOCK == 0) {
                        touch(self, t, u, Math.min(u1, u + TOUCH_BLOCK), runsPerLine, perRun, c0);
                    }
                    long line = u / runsPerLine;
                    long first = u % runsPerLine * perRun;
                    long n = line / lout;
                    int j = (int) (line % lout);
                    long in = self.offset() + n * si[0] + first * si[1];
                    long to = out.offset() + n * so[0] + first * so[1] + j * so[2];
                    int count = (int) Math.min(perRun, c0 - first);
                    runs(self, out, t, j, in, si[1], to, so[1], count, provider, work);
                } else {
                    long n = u / c0;
                    long c = u % c0;
                    row(self, out, t, self.offset() + n * si[0] + c * si[1], out.offset() + n * so[0] + c * so[1]);
                }
            }
        };
        // A thread's taps and results: one array for all its tasks.
        pool.forEach(tasks, tasks == 1 || pool.parallelism() == 1, b -> acrossRows ? b.floats(3 * RUN) : null, body);
    }

    /**
     * Loads a byte of each line of the taps of runs {@code [u, end)} (across rows), and nothing else. A run
     * of a few channels side by side is a few lines of self, the next run's lines away or a page or more: run
     * after run, each line's miss waited alone behind the previous run's decode, combine and round, several
     * times as long as the same call from cache. Loaded together first, a block's misses overlap; the values
     * only feed a test that keeps the loads.
     */
    private static void touch(StridedTensor self, LinearTable t, long u, long end, long runsPerLine, long perRun,
                              long channels) {
        MemorySegment seg = self.segment();
        long size = self.dataType().byteSize();
        long[] si = self.strides();
        int lout = t.lout();
        int last = t.lin() - 1;
        int seen = 0;
        for (; u < end; u++) {
            long line = u / runsPerLine;
            long first = u % runsPerLine * perRun;
            int j = (int) (line % lout);
            long in = self.offset() + line / lout * si[0] + first * si[1];
            long span = (Math.min(perRun, channels - first) - 1) * si[1];
            long left = in + t.x0[j] * si[2];
            seen += lines(seg, left, span, size);
            if (t.x0[j] < last) {
                seen += lines(seg, left + si[2], span, size);
            }
        }
        if (seen == Integer.MIN_VALUE) {
            touched = seen;
        }
    }

    /** Loads a byte of each line of elements {@code first} to {@code first + span}; returns their sum. */
    private static int lines(MemorySegment seg, long first, long span, long size) {
        long a = Math.min(first, first + span) * size;
        long b = Math.max(first, first + span) * size + size - 1;
        int seen = seg.get(ValueLayout.JAVA_BYTE, b);
        for (long at = a; at < b; at += LINE_BYTES) {
            seen += seg.get(ValueLayout.JAVA_BYTE, at);
        }
        return seen;
    }

    /**
     * Output j of {@code count} rows, {@code inStep} apart in self and {@code outStep} in out, {@link #RUN} at
     * a time: the rows' two taps decoded as runs (through the codec's loops, never element by element, so
     * that the dtype is chosen once per run), combined in float and rounded as a run.
     */
    private static void runs(StridedTensor self, StridedTensor out, LinearTable t, int j, long in, long inStep,
                             long to, long outStep, int count, KernelProvider provider, float[] work) {
        int left = t.x0[j];
        int right = left < t.lin() - 1 ? left + 1 : left;
        long tap = self.strides()[2];
        float w0 = t.w0[j];
        float w1 = t.w1[j];
        for (int k0 = 0; k0 < count; k0 += RUN) {
            int n = Math.min(RUN, count - k0);
            decode(self, in + k0 * inStep + left * tap, inStep, n, provider, work, 0);
            decode(self, in + k0 * inStep + right * tap, inStep, n, provider, work, RUN);
            for (int k = 0; k < n; k++) {
                work[2 * RUN + k] = w0 * work[k] + w1 * work[RUN + k];
            }
            if (outStep == 1) {
                provider.encodeRun(work, 2 * RUN, n, out.segment(), out.dataType(), to + k0);
            } else {
                ElementCodec.encode(work, 2 * RUN, n, out.segment(), out.dataType(), to + k0 * outStep, outStep);
            }
        }
    }

    /** The taps of {@code count} rows {@code step} apart: the provider's codec for a run, else a strided loop. */
    private static void decode(StridedTensor self, long first, long step, int count, KernelProvider provider,
                               float[] dst, int at) {
        if (step == 1) {
            provider.decodeRun(self.segment(), self.dataType(), first, count, dst, at);
        } else {
            ElementCodec.decode(self.segment(), self.dataType(), first, step, count, dst, at);
        }
    }

    /**
     * Every output of the row at self element {@code in}, written from out element {@code to} on: a loop per
     * dtype ({@link SparseForwardRows}, generated), since one loop testing the dtype at each access ran 2–2.7 ×
     * slower once its process had met two dtypes; this one for self and out of different dtypes.
     */
    private static void row(StridedTensor self, StridedTensor out, LinearTable t, long in, long to) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final long tap = self.strides()[2];
        final long step = out.strides()[2];
        final MemorySegment src = self.segment();
        final DataType srcType = self.dataType();
        final MemorySegment dst = out.segment();
        final DataType dstType = out.dataType();
        final int lout = t.lout();
        if (srcType == dstType) {
            switch (srcType) {
                case FLOAT -> SparseForwardRows.rowFloat(src, in, tap, dst, to, step, x0, w0, w1, last, lout);
                case FLOAT16 -> SparseForwardRows.rowHalf(src, in, tap, dst, to, step, x0, w0, w1, last, lout);
                case BF16 -> SparseForwardRows.rowBf16(src, in, tap, dst, to, step, x0, w0, w1, last, lout);
                default -> throw new IllegalArgumentException("no float codec for " + srcType);
            }
            return;
        }
        for (int j = 0; j < lout; j++) {
            int left = x0[j];
            int right = left < last ? left + 1 : left;
            float y = w0[j] * ElementCodec.get(src, srcType, in + left * tap)
                    + w1[j] * ElementCodec.get(src, srcType, in + right * tap);
            ElementCodec.set(dst, dstType, to + j * step, y);
        }
    }
}
