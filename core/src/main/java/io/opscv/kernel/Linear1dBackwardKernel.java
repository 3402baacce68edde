package io.opscv.kernel;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;

/**
 * The fused backward of 1-D linear interpolation (SPEC §1): reads gradOut (N, C, Lout) with any
 * strides, writes out (N, C, Lin) with any strides, in one pass, accumulating in float and rounding
 * once to the output dtype.
 *
 * <p>Implementation overview. The work is cut into tasks, each a group of rows times a block of
 * inputs. When the provider can read and write both tensors in place
 * ({@link KernelProvider#backwardInPlace}: contiguous along L, ratios up to 4 and exactly 8x in the vector provider), a
 * task hands it rows straight from device memory: at ratios up to 2, many rows of at least
 * {@link #IN_PLACE_BLOCK} inputs {@link #LONG_ROWS} at a time in blocks of up to {@link #LONG_BLOCK}
 * inputs where the provider's set-up per group of inputs is light or shared
 * ({@link KernelProvider#fewRowsPerCall}); otherwise {@link #IN_PLACE_ROWS} FLOAT or
 * {@link #IN_PLACE_ROWS_16} 16-bit rows of {@link #IN_PLACE_BLOCK} inputs (more rows per call when
 * the rows are shorter than a block), and at ratios between 2 and 4 many long FLOAT rows
 * {@link #WIDE_ROWS} at a time in blocks of {@link #WIDE_BLOCK}.
 * Otherwise a task decodes the gradOut positions its inputs gather from into a float buffer, the
 * provider sums them in the canonical order, and the sums are encoded into out; row groups are then
 * multiples of {@link KernelProvider#rowsPerVector()} where there are enough rows (the vector
 * provider sums 16 rows at once), with blocks of {@link #TILE_BLOCK} inputs so that a task's
 * buffers stay in the L2 cache. When gradOut's rows lie side by side (a transposed view), a task
 * reads {@link #SIDE_BY_SIDE_ROWS} of them position by position and the provider sums them in that
 * layout ({@link KernelProvider#linearBackwardSideBySide}; FLOAT on held memory straight from gradOut
 * into out, {@link KernelProvider#linearBackwardSideBySideInPlace}, with blocks of up to
 * {@link #SIDE_BY_SIDE_IN_PLACE_BLOCK} inputs). With few rows (a long-row call has 2)
 * the rows are cut along L (in place, in blocks of up to {@link #FEW_ROWS_BLOCK} inputs), so
 * that even one row keeps every thread busy; short rows are grouped, many per task, so that
 * per-task costs are paid once per about a block of inputs. Calls below
 * {@link #PARALLEL_THRESHOLD} elements run on the caller alone.
 *
 * <p>The coordinate table may come deferred ({@link LinearTable#deferred}, as the cpu plan makes
 * it): when every block of inputs is summed by a single task (all the rows fit one task, as in a
 * long-row call), each task builds its block's window of the table ({@link LinearTable#window}), or
 * takes one its thread kept from an earlier task or call on an equal axis (the same window, or on a
 * periodic table one translated by whole periods), and hands the provider that window, with indices
 * relative to it; otherwise the whole table is built once, before the tasks start.
 *
 * <p>Every output element belongs to exactly one task and is summed by one thread in an order that
 * does not depend on the cut (the gather form needs no atomics), so results are bit-identical for
 * any thread count and schedule.
 */
public final class Linear1dBackwardKernel {
    /** Inputs per row-major task (times rows, for short rows): the buffers of a task stay in the L2 cache. */
    static final int BLOCK = 4096;
    /** Inputs per tile task: a tile's interleaved buffer (16 rows × ~2 positions per input) stays in L2. */
    static final int TILE_BLOCK = 1024;
    /** Rows per task when gradOut's rows lie side by side: 64 floats, 4 cache lines per position. */
    static final int SIDE_BY_SIDE_ROWS = 64;
    /**
     * Inputs per task of the in-place side-by-side form, at most (fewer when the tasks would not keep
     * every thread busy, down to half a {@link #TILE_BLOCK}): each of a task's 64 out rows is written
     * in runs of 16 KiB, and its gradOut read in one run of 1 MiB. On the transposed up2x case it
     * took 15.0–15.3 ms where blocks of 512 took 16.6–21.8 (in one process alternating the two, on
     * the Zen 5 host; docs/PERFORMANCE.md).
     */
    static final int SIDE_BY_SIDE_IN_PLACE_BLOCK = 4096;
    /**
     * Inputs per in-place call where neither {@link #LONG_BLOCK} nor {@link #WIDE_BLOCK} applies
     * (irregular ratios, few rows, rows shorter than this): long enough for the prefetchers. Rows of
     * fewer inputs are grouped, {@link #SHORT_BLOCK} inputs' worth of rows per call (this many at
     * irregular ratios up to 2).
     */
    static final int IN_PLACE_BLOCK = 4096;
    /**
     * Inputs per in-place call and task, at most, where one task holds all the rows (at most {@link #IN_PLACE_ROWS}
     * of them, as a long-row call's 2) and the rows are not short: fewer, longer tasks, each with its window of the
     * table (down to {@link #IN_PLACE_BLOCK} where there would be too few tasks for the threads). On the long row, in
     * one process alternating the two (`SettingsComparison`, each setting in every place of the order): 0.168 →
     * 0.151 ms against IN_PLACE_BLOCK's 4096; {@code bin/bench-ab}, ratio medians of 8 rounds: 1.80 → 1.49. Blocks
     * of 16384 were no faster than 4096.
     */
    static final int FEW_ROWS_BLOCK = 8192;
    /**
     * Inputs' worth of rows per in-place call and task where rows are shorter than {@link #IN_PLACE_BLOCK}
     * (but at irregular ratios up to 2, whose loop takes every row per group: there IN_PLACE_BLOCK's): a
     * call's set-up (for rows of at most a vector's inputs, the short form's step table) is spread over more
     * rows. On the Zen 5 host, one process alternating 4096, 8192, 16384 and 32768 (`SettingsComparison`, op
     * ms): short rows (4096, 64, 16 → 64) 2.66, 2.42, 2.24, 2.20 and 3.06, 2.69, 2.46, 2.34; (1024, 64, 512 →
     * 1024) 14.3, 12.9, 12.7, 14.3; (4096, 16, 100 → 370) 5.72, 5.37, 5.29; (4096, 64, 64 → 16) 7.24, 6.36,
     * 6.03; (512, 64, 2048 → 4096) 24.6, 23.0, 22.0; FP16 and BF16 short rows 4.14 → 4.05 and 4.12 → 4.03
     * with 16384. (2048, 64, 700 → 1000, alignCorners), whose groups each need a set-up, took 35.0 with
     * 4096 and 45.6 with 16384: hence the exception.
     */
    static final int SHORT_BLOCK = 16384;
    /**
     * Inputs' worth of rows per in-place call and task where the provider takes whole rows through its short-rows
     * form ({@link KernelProvider#shortRowsForm}: FLOAT rows of at most a vector's inputs): that form's step table
     * is made once per call and a row costs a few nanoseconds, so more rows per call pay. On the Zen 5 host,
     * one process alternating {@link #SHORT_BLOCK}, 32768 and 65536 (`SettingsComparison`, op ms, 2026-12-01,
     * fifth session): short rows (4096, 64, 16 → 64) 1.644, 1.471, 1.453 and 1.523, 1.409, 1.353; (16384, 64,
     * 16 → 64) 7.31, 6.66, 6.38; (4096, 64, 16 → 32) 0.924, 0.870, 0.847; (4096, 64, 16 → 48) 1.253, 1.137,
     * 1.081. Rows that other forms take lost with 65536 ((1024, 64, 512 → 1024) 13.0, 14.3, 15.8; (4096,
     * 16, 100 → 370) 5.38, 5.40, 5.78) and keep SHORT_BLOCK.
     */
    static final int SHORT_FORM_BLOCK = 65536;
    /**
     * FLOAT rows per in-place call where neither {@link #LONG_ROWS} nor {@link #WIDE_ROWS} applies
     * (irregular ratios, few or short rows): 6 read and 6 write streams per thread measured best on
     * the Zen 4 host, 5-9 % faster than 4 on up2x, up2x_ac, down4x and up3.7x (5 in between, 7
     * mixed; 2, 8 and 16 slower, all with blocks of {@link #IN_PLACE_BLOCK}).
     */
    static final int IN_PLACE_ROWS = 6;
    /**
     * BF16 and FP16 rows per in-place call of rows shorter than {@link #IN_PLACE_BLOCK}: FP16 was
     * 10 % slower with 6 than with 4 (its conversions need more registers), BF16 the same.
     */
    static final int IN_PLACE_ROWS_16 = 4;
    /**
     * Rows per in-place call at ratios up to 2 (the windowed forms) on rows of at least
     * {@link #IN_PLACE_BLOCK} inputs, for tables the provider sums best a few rows at a time
     * ({@link KernelProvider#fewRowsPerCall}: periodic, almost periodic or downsampling; irregular
     * ratios need a set-up per group and keep {@link #IN_PLACE_ROWS}), each as long as a
     * {@link #LONG_BLOCK}. The vector provider's loops for these tables take the rows in pairs (BF16), one
     * at a time (FP16, whose arithmetic bounds it) or four at a time (FLOAT: four read and four write streams
     * per thread, a pair's two halves side by side where fewer than four rows are left), so more rows per
     * call only spread each call's set-up
     * (the search for runs of similar groups above all), except where a loop takes every row per group
     * (irregular downsampling, and down4x's one-vector groups: 8 rows made both 30–200 % slower). On the
     * Zen 5 host, one process alternating 2, 4 and 8 rows per call (`SettingsComparison`, op ms): up2x
     * 8.28, 8.25, 8.17; up2x alignCorners 11.69, 11.06, 10.66; FP16 6.01, 5.58, 5.52; BF16 5.12, 4.76,
     * 4.69; down4x 7.29, 6.78, 22.7; (32, 64, 32768 → 9001) 12.65, 11.14, 16.5; (32, 64, 32768 → 8192,
     * alignCorners) 12.44, 11.04, 14.2; (32, 64, 16384 → 24576) 12.71, 11.77, 11.66. (Before the loops
     * took rows in pairs, 2 rows per call were best: docs/PERFORMANCE.md.) With FLOAT rows four at a time
     * (2026-12-01, sixth session), 4, 8, and 4 of 16384 inputs: up2x 6.43, 6.39, 6.62; up2x alignCorners 7.93,
     * 7.94, 8.42; down4x 5.80, 21.4, 6.89. With FP16 rows one at a time, 4, 8, 2, and 4 of 16384 inputs:
     * FP16 4.33, 4.29, 4.83, 4.66.
     */
    static final int LONG_ROWS = 4;
    /** Inputs per in-place call of {@link #LONG_ROWS} rows, at most (fewer when threads would lack tasks). */
    static final int LONG_BLOCK = 32768;
    /**
     * Rows per in-place call of the wide form (ratios above 2, and irregular ratios between 1 and 2; every dtype)
     * on many rows of at least {@link #WIDE_BLOCK} inputs, each a {@link #WIDE_PARTS}-th of the row. Until 2026-12-01 (seventh session) the form made a table of
     * steps per group of inputs in every call, and spreading it over 64 rows of 512 inputs paid most. Since then the
     * provider keeps the steps with the table (VectorKernelProvider.WideSteps), and a call takes its rows four at a
     * time across each run of groups. On the Zen 5 host (`SettingsComparison`, one process, ratio to the copy),
     * 64 rows of 512 inputs, then 4, 8 and 16 rows of half a row: up3.7x 2.19, 1.89, 1.95, 1.98; (8, 128, 7000 →
     * 21000) 1.82, 1.71, 1.70, 1.67; (32, 64, 4000 → 10000) 1.77, 1.94, 1.94, 1.76; (64, 64, 2000 → 7000,
     * alignCorners) 1.84, 2.09, 1.98, 1.90; (64, 128, 1000 → 3700) 2.26, 2.71, 2.41, 2.26; (16, 32, 16000 →
     * 40000) 2.19, 1.91, 1.92, 1.86. (The same process, the old form with its old setting against the new one:
     * up3.7x 2.58 → 2.16.)
     */
    static final int WIDE_ROWS = 16;
    /**
     * Inputs per in-place call of {@link #WIDE_ROWS} rows, at least. A whole row per call was slower than half a
     * row where the row is long (4 rows per call: up3.7x 2.87 against 2.05; (32, 64, 4000 → 10000) 2.49 against
     * 2.12), and three or four parts per row slower again (up3.7x 2.19 and 2.26), in loops that only read and
     * write the form's bytes too; why, the machine does not show.
     */
    static final int WIDE_BLOCK = 512;
    /** Parts of a row per in-place call of the wide form (each at least {@link #WIDE_BLOCK} inputs). */
    static final int WIDE_PARTS = 2;
    /** Floats after the last row of the gradOut buffer (two 512-bit vectors). */
    private static final int G_PADDING = 32;
    /** Tasks per thread to aim for, so that a slow thread does not hold up the others. */
    private static final int TASKS_PER_THREAD = 4;
    /** Below this many gradOut plus out elements a call runs on its caller: waking threads costs more. */
    private static final long PARALLEL_THRESHOLD = 1 << 15;

    private Linear1dBackwardKernel() {}

    /** Runs with the default provider on the shared pool. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table) {
        run(gradOut, out, table, KernelProviders.get(), WorkerPool.shared());
    }

    /** Runs with {@code provider} on the shared pool. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider) {
        run(gradOut, out, table, provider, WorkerPool.shared());
    }

    /** Runs with {@code provider}, spreading the tasks over {@code pool}. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider,
                           WorkerPool pool) {
        run(gradOut, out, table, provider, pool, Settings.DEFAULT);
    }

    /**
     * How the driver cuts in-place work into calls, {@link Settings#DEFAULT} but for tools that compare
     * settings in one process (bench's {@code io.opscv.kernel.SettingsComparison}): on the Zen 5 host the
     * memory a process gets moved times by up to 2× from one process to the next, which hid effects of
     * 30–40 % between separate builds. Every setting gives the same results (each output is summed by
     * one call in the canonical order).
     *
     * @param inPlaceRows     FLOAT rows per in-place call ({@link #IN_PLACE_ROWS})
     * @param inPlaceRows16   BF16 and FP16 rows per in-place call ({@link #IN_PLACE_ROWS_16})
     * @param inPlaceBlock    inputs per in-place call ({@link #IN_PLACE_BLOCK})
     * @param shortBlock      inputs' worth of rows shorter than inPlaceBlock per in-place call and task
     *                        ({@link #SHORT_BLOCK})
     * @param shortFormBlock  the same for rows the provider's short-rows form takes ({@link #SHORT_FORM_BLOCK})
     * @param longRows        rows per call of many long rows ({@link #LONG_ROWS})
     * @param longBlock       inputs per such call, at most ({@link #LONG_BLOCK})
     * @param askProvider     long rows only where {@link KernelProvider#fewRowsPerCall} says so (else at every
     *                        ratio up to 2)
     * @param wideRows        rows per call of many long rows at ratios above 2 and irregular ones
     *                        ({@link #WIDE_ROWS})
     * @param wideBlock       inputs per such call, at least ({@link #WIDE_BLOCK})
     * @param wideParts       parts of a row per such call ({@link #WIDE_PARTS})
     * @param sideBySideBlock inputs per task of the in-place side-by-side form, at most
     *                        ({@link #SIDE_BY_SIDE_IN_PLACE_BLOCK})
     * @param fewRowsBlock    inputs per in-place call where a task holds all of at most inPlaceRows rows, at most
     *                        ({@link #FEW_ROWS_BLOCK})
     */
    record Settings(int inPlaceRows, int inPlaceRows16, int inPlaceBlock, int shortBlock, int shortFormBlock,
                    int longRows, int longBlock, boolean askProvider, int wideRows, int wideBlock, int wideParts,
                    int sideBySideBlock, int fewRowsBlock) {
        /** The settings every call of the library uses. */
        static final Settings DEFAULT = new Settings(IN_PLACE_ROWS, IN_PLACE_ROWS_16, IN_PLACE_BLOCK, SHORT_BLOCK,
                SHORT_FORM_BLOCK, LONG_ROWS, LONG_BLOCK, true, WIDE_ROWS, WIDE_BLOCK, WIDE_PARTS,
                SIDE_BY_SIDE_IN_PLACE_BLOCK, FEW_ROWS_BLOCK);

        Settings {
            if (inPlaceRows < 1 || inPlaceRows16 < 1 || inPlaceBlock < 1 || shortBlock < 1 || shortFormBlock < 1
                    || longRows < 1 || longBlock < 1 || wideRows < 1 || wideBlock < 1 || wideParts < 1
                    || sideBySideBlock < 1 || fewRowsBlock < 1) {
                throw new IllegalArgumentException("settings must be positive: " + this);
            }
        }
    }

    /** {@link #run(StridedTensor, StridedTensor, LinearTable, KernelProvider, WorkerPool)} with other settings. */
    static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider,
                    WorkerPool pool, Settings settings) {
        Plan plan = new Plan(gradOut, out, table, provider, pool.parallelism(), settings);
        int tasks = plan.taskCount();
        if (tasks == 0) {
            return;
        }
        if (plan.small) {
            Scratch s = new Scratch(plan);
            for (int task = 0; task < tasks; task++) {
                plan.runTask(task, s);
            }
            return;
        }
        Scratch[] scratch = new Scratch[pool.parallelism()];
        pool.forEach(tasks, (task, slot) -> {
            Scratch s = scratch[slot];
            if (s == null) {
                s = new Scratch(plan);
                scratch[slot] = s;
            }
            plan.runTask(task, s);
        });
    }

    /**
     * Outputs of a window of the table ({@link LinearTable#window}) that a thread keeps across calls, at most: 2x a
     * {@link #LONG_BLOCK} (about 1 MiB of arrays). Filling a window of 32768 inputs at 2x into new arrays took 74 µs
     * (a long-row call takes 0.2–0.3 ms), translating one 0.2 µs; every call has a new table, so windows kept only
     * within a call were filled again by every call: for the long row, one or two per thread, and the clamped ends.
     */
    static final int HELD_WINDOW_OUTPUTS = 2 * LONG_BLOCK + 2;
    /**
     * Per thread, its last windows, most recent first: the clamped start, the clamped end and one window
     * that the unclamped middle blocks translate.
     */
    private static final ThreadLocal<LinearTable[]> HELD_WINDOWS = ThreadLocal.withInitial(() -> new LinearTable[3]);

    /** Per-thread buffers, sized for the largest task of a plan. */
    private static final class Scratch {
        final float[] g;
        final float[] acc;
        final float[] work;
        /** The window of the task's block, when the plan builds windows; its arrays are reused by the next. */
        LinearTable window;

        Scratch(Plan plan) {
            // Padded: a vector kernel may load whole vectors past the end of the last row's span.
            boolean buffered = !plan.inPlace && !plan.sideBySideInPlace;
            g = buffered ? new float[Math.multiplyExact(plan.rowsPerTask, plan.maxSpan) + G_PADDING] : null;
            acc = buffered ? new float[Math.max(1, Math.multiplyExact(plan.rowsPerTask, plan.block))] : null;
            int need = plan.inPlace ? 0 : plan.sideBySideInPlace ? plan.provider.sideBySideWorkFloats(plan.block)
                    : plan.sideBySide ? plan.provider.rowsPerVector() * plan.block
                    : plan.provider.backwardWorkFloats(plan.block, plan.maxSpan, plan.rowsPerTask);
            work = need == 0 ? null : new float[need];
        }
    }

    /** How one call is cut into tasks: row groups times input blocks. */
    private static final class Plan {
        final StridedTensor gradOut;
        final StridedTensor out;
        /** The call's table: deferred when {@link #windows}, else with its arrays. */
        final LinearTable table;
        /**
         * Each block of inputs is summed by one task (all rows fit one task) and the table is deferred: a task
         * builds its block's window of the table ({@link LinearTable#window}) in its cache, in parallel with the
         * others, and no array of Lout entries is made. Otherwise the whole table is built once.
         */
        final boolean windows;
        final KernelProvider provider;
        final long c;
        final long rows;
        final int lin;
        final long[] gs;
        final long[] os;
        /** Rows are evenly spaced across n too (the N stride is C times the C stride), in both tensors. */
        final boolean evenRows;
        final long gRowStride;
        final long oRowStride;
        final int block;
        final int blocksPerRow;
        final int rowsPerTask;
        final int maxSpan;
        /** Too little work to be worth waking threads: the caller runs every task. */
        final boolean small;
        /** Contiguous rows the provider reads and writes in place ({@link KernelProvider#linearBackwardInPlace}). */
        final boolean inPlace;
        /** gradOut's rows are neighbours (a transposed view): decoded position-major, summed side by side. */
        final boolean sideBySide;
        /** Side by side, FLOAT, out's rows contiguous, both held: the provider reads and writes in place. */
        final boolean sideBySideInPlace;
        /** Rows per in-place call. */
        final int inPlaceRows;
        /**
         * Inputs per in-place call ({@link Settings#inPlaceBlock}); rows shorter than that are grouped, this many
         * inputs' worth of them per call ({@link Settings#shortBlock}).
         */
        final int inPlaceBlock;

        Plan(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider, int parallelism,
             Settings settings) {
            this.gradOut = gradOut;
            this.out = out;
            this.provider = provider;
            long n = out.shape()[0];
            this.c = out.shape()[1];
            this.rows = n * c;
            this.lin = table.lin();
            this.gs = gradOut.strides();
            this.os = out.strides();
            this.evenRows = n == 1 || c == 1 || (gs[0] == c * gs[1] && os[0] == c * os[1]);
            this.gRowStride = c > 1 ? gs[1] : gs[0];
            this.oRowStride = c > 1 ? os[1] : os[0];
            this.small = parallelism == 1 || rows * ((long) table.lout() + lin) < PARALLEL_THRESHOLD;
            long taskTarget = (long) parallelism * TASKS_PER_THREAD;
            // In place only on memory held for the call: the provider reads and writes it at raw addresses.
            this.inPlace = gs[2] == 1 && os[2] == 1 && gradOut.dataType() == out.dataType()
                    && provider.backwardInPlace(table, gradOut.dataType())
                    && PinnedScopes.isHeld(gradOut.segment()) && PinnedScopes.isHeld(out.segment());
            // Many long rows at ratios up to 2, where the provider's set-up per group of inputs is light or shared:
            // few long streams per thread (LONG_ROWS). Calls of at most IN_PLACE_ROWS rows keep the old settings:
            // their tasks hold all the rows and sum from windows of the table.
            boolean longRows = inPlace && rows > settings.inPlaceRows() && lin >= settings.inPlaceBlock()
                    && (long) table.lout() <= 2L * lin
                    && (!settings.askProvider() || provider.fewRowsPerCall(table.full(), gradOut.dataType()));
            // Many long rows at ratios above 2, or between 1 and 2 where the provider's FLOAT loops would need a
            // set-up per group (not few rows per call; its BF16 and FP16 forms take the same tables as the wide
            // form): the wide form's calls (WIDE_ROWS rows of a WIDE_PARTS-th of a row), for every dtype.
            boolean wideRows = inPlace && !longRows && rows > settings.inPlaceRows() && lin >= settings.wideBlock()
                    && ((long) table.lout() > 2L * lin
                    || (table.lout() > lin && settings.askProvider()
                    && !provider.fewRowsPerCall(table.full(), DataType.FLOAT)));
            this.inPlaceRows = longRows ? settings.longRows() : wideRows ? settings.wideRows()
                    : gradOut.dataType() == DataType.FLOAT ? settings.inPlaceRows() : settings.inPlaceRows16();
            // Rows shorter than inPlaceBlock: shortBlock inputs' worth of them per call, but at irregular ratios up
            // to 2, where the provider's loop takes every row per group (fewRowsPerCall says no), inPlaceBlock's.
            boolean shortRows = inPlace && lin < settings.inPlaceBlock() && (!settings.askProvider()
                    || (long) table.lout() > 2L * lin || provider.fewRowsPerCall(table.full(), gradOut.dataType()));
            this.inPlaceBlock = !shortRows ? settings.inPlaceBlock()
                    : provider.shortRowsForm(table, gradOut.dataType()) ? settings.shortFormBlock() : settings.shortBlock();
            int vector = provider.rowsPerVector();
            this.sideBySide = !inPlace && vector > 1 && rows >= vector && c >= vector && gRowStride == 1 && gs[2] > 1;
            this.sideBySideInPlace = sideBySide && provider.sideBySideInPlace() && os[2] == 1
                    && gradOut.dataType() == DataType.FLOAT && out.dataType() == DataType.FLOAT
                    && PinnedScopes.isHeld(gradOut.segment()) && PinnedScopes.isHeld(out.segment());
            int rowUnit;
            int blockTarget;
            if (inPlace) {
                // inPlaceRows rows share a group's set-up; IN_PLACE_BLOCK inputs keep the streams long, LONG_BLOCK
                // inputs longer still where there are few streams (a task's IN_PLACE_ROWS rows then take three calls),
                // WIDE_BLOCK inputs of WIDE_ROWS rows where the set-up is heavy.
                rowUnit = longRows ? Math.max(settings.inPlaceRows(), inPlaceRows) : inPlaceRows;
                // Few rows (a task holds them all) and not short: FEW_ROWS_BLOCK inputs.
                boolean fewRows = !longRows && !wideRows && !shortRows && rows <= rowUnit;
                blockTarget = longRows ? longestBlock(settings.longBlock(), settings.inPlaceBlock(),
                        (rows + rowUnit - 1) / rowUnit, lin, taskTarget)
                        : wideRows ? longestBlock(wideBlock(lin, settings), settings.wideBlock(),
                        (rows + rowUnit - 1) / rowUnit, lin, taskTarget)
                        : fewRows ? longestBlock(Math.max(settings.fewRowsBlock(), inPlaceBlock), inPlaceBlock,
                        (rows + rowUnit - 1) / rowUnit, lin, taskTarget) : inPlaceBlock;
            } else if (vector > 1 && rows >= vector) {
                rowUnit = vector;
                // Rows side by side (a transposed view): a task takes SIDE_BY_SIDE_ROWS of them, so that
                // it reads one contiguous run of gradOut per position.
                if (sideBySide) {
                    rowUnit = (int) Math.max(vector, Math.min(c, SIDE_BY_SIDE_ROWS) / vector * vector);
                    blockTarget = TILE_BLOCK / 2;
                    if (sideBySideInPlace) {
                        // Long blocks for the in-place form.
                        blockTarget = longestBlock(settings.sideBySideBlock(), TILE_BLOCK / 2,
                                (rows + rowUnit - 1) / rowUnit, lin, taskTarget);
                    }
                } else {
                    blockTarget = TILE_BLOCK;
                }
            } else {
                rowUnit = 1;
                blockTarget = BLOCK;
            }
            block = Math.min(blockTarget, lin);
            blocksPerRow = (lin + block - 1) / block;
            long units = (rows + rowUnit - 1) / rowUnit;
            // Short rows: a task takes blockTarget / lin row units (a unit's rows are summed together).
            long unitsPerTask = Math.max(1, (long) blockTarget / lin);
            // Keep enough tasks for every thread when there are few rows.
            unitsPerTask = Math.min(unitsPerTask, Math.max(1, units * blocksPerRow / taskTarget));
            this.rowsPerTask = (int) Math.min(unitsPerTask * rowUnit, Math.max(rows, 1));
            int span = 0;
            for (int i0 = 0; i0 < lin; i0 += block) {
                int i1 = Math.min(lin, i0 + block);
                span = Math.max(span, table.gatherTo(i1) - table.gatherFrom(i0));
            }
            this.maxSpan = span;
            this.windows = table.isDeferred() && rowsPerTask >= rows;
            this.table = windows ? table : table.full();
        }

        /**
         * Inputs per call of the wide form: a {@code wideParts}-th of the row, rounded up to a multiple of 64 (the
         * provider keeps its steps for groups from multiples of its vector's lanes), and at least {@code wideBlock}.
         */
        private static int wideBlock(int lin, Settings settings) {
            long part = ((long) lin + settings.wideParts() - 1) / settings.wideParts();
            return (int) Math.max(settings.wideBlock(), Math.min(lin, (part + 63) / 64 * 64));
        }

        /**
         * {@code longest} inputs per block, halved (down to {@code shortest}) while {@code groups} row groups of
         * such blocks would make fewer than {@code taskTarget} tasks: enough tasks for every thread.
         */
        private static int longestBlock(int longest, int shortest, long groups, int lin, long taskTarget) {
            int block = longest;
            while (block > shortest && groups * ((lin + block - 1) / block) < taskTarget) {
                block /= 2;
            }
            return block;
        }

        int taskCount() {
            return Math.toIntExact((rows + rowsPerTask - 1) / rowsPerTask * blocksPerRow);
        }

        /** Element index of (row, position 0) in gradOut and out. */
        private long gradOutRow(long row) {
            return gradOut.offset() + (row / c) * gs[0] + (row % c) * gs[1];
        }

        private long outRow(long row) {
            return out.offset() + (row / c) * os[0] + (row % c) * os[1];
        }

        void runTask(int task, Scratch s) {
            long firstRow = (long) (task / blocksPerRow) * rowsPerTask;
            int i0 = (task % blocksPerRow) * block;
            int i1 = Math.min(lin, i0 + block);
            int count = i1 - i0;
            // The provider sees table t, whose input li is input i0 - li0 + li and whose output 0 is output jBase.
            LinearTable t = table;
            int li0 = i0;
            int jBase = 0;
            if (windows) {
                if (table.gatherTo(i1) - table.gatherFrom(i0) <= HELD_WINDOW_OUTPUTS) {
                    // The thread's windows of earlier tasks and calls, most recent first: the one that holds this
                    // block's window (or one a whole number of periods away), else the least recently used, whose
                    // arrays the new window overwrites.
                    LinearTable[] held = HELD_WINDOWS.get();
                    int k = 0;
                    while (k < held.length - 1 && !table.windowHeld(i0, i1, held[k])) {
                        k++;
                    }
                    t = table.window(i0, i1, held[k], provider);
                    System.arraycopy(held, 0, held, 1, k);
                    held[0] = t;
                } else {
                    t = table.window(i0, i1, s.window, provider);
                    s.window = t;
                }
                li0 = 0;
                jBase = table.gatherFrom(i0);
            }
            int li1 = li0 + count;
            int jLo = jBase + t.gatherFrom(li0);
            int span = t.gatherTo(li1) - t.gatherFrom(li0);
            int n = (int) Math.min(rowsPerTask, rows - firstRow);
            if (span == 0) {
                // No output's taps reach these inputs (the last ones, when an explicit scales makes the sources end
                // before lin): their sums are +0. Their gradOut position would be lout, one past each row, which
                // the forms must not be handed.
                zero(firstRow, n, i0, count);
                return;
            }
            if (inPlace) {
                // Runs of evenly spaced rows: all of them, or those of one n.
                for (int r = 0; r < n; ) {
                    // inPlaceRows rows per call: the provider's streams are tuned for that many; short rows
                    // (blocks shorter than IN_PLACE_BLOCK) get more, so that a group's set-up serves more rows.
                    int run = Math.min(Math.max(inPlaceRows, inPlaceBlock / count),
                            evenRows ? n - r : (int) Math.min(n - r, c - (firstRow + r) % c));
                    provider.linearBackwardInPlace(t, li0, li1, run, gradOut.segment(),
                            gradOutRow(firstRow + r) + jLo, gRowStride, out.segment(), outRow(firstRow + r) + i0,
                            oRowStride, out.dataType());
                    r += run;
                }
                return;
            }
            if (sideBySideInPlace) {
                // Runs of neighbouring rows (those of one n, or all), read and written in place.
                for (int r = 0; r < n; ) {
                    int run = evenRows ? n - r : (int) Math.min(n - r, c - (firstRow + r) % c);
                    provider.linearBackwardSideBySideInPlace(t, li0, li1, run, gradOut.segment(),
                            gradOutRow(firstRow + r) + jLo * gs[2], gs[2], out.segment(), outRow(firstRow + r) + i0,
                            oRowStride, s.work);
                    r += run;
                }
                return;
            }
            if (sideBySide) {
                // Runs of neighbouring rows (those of one n, or all): position-major, summed side by side.
                for (int r = 0; r < n; ) {
                    int run = evenRows ? n - r : (int) Math.min(n - r, c - (firstRow + r) % c);
                    provider.decodeSideBySide(gradOut.segment(), gradOut.dataType(), gradOutRow(firstRow + r) + jLo * gs[2],
                            gs[2], run, span, s.g);
                    provider.linearBackwardSideBySide(t, li0, li1, run, s.g, s.acc, r * count, count, s.work);
                    r += run;
                }
                encode(firstRow, n, i0, count, s);
                return;
            }
            if (gs[2] == 1 && evenRows && gRowStride == span) {
                // Whole contiguous rows: one run.
                provider.decodeRun(gradOut.segment(), gradOut.dataType(), gradOutRow(firstRow) + jLo, n * span, s.g, 0);
            } else if (gs[2] == 1) {
                for (int r = 0; r < n; r++) {
                    provider.decodeRun(gradOut.segment(), gradOut.dataType(), gradOutRow(firstRow + r) + jLo, span, s.g,
                            r * span);
                }
            } else {
                // Runs of rows that are evenly spaced: all of them, or those of one n.
                for (int r = 0; r < n; ) {
                    int run = evenRows ? n - r : (int) Math.min(n - r, c - (firstRow + r) % c);
                    provider.decodeRows(gradOut.segment(), gradOut.dataType(), gradOutRow(firstRow + r) + jLo * gs[2],
                            gs[2], gRowStride, run, span, s.g, r * span, span);
                    r += run;
                }
            }
            provider.linearBackward(t, li0, li1, n, s.g, 0, span, s.acc, 0, count, s.work);
            encode(firstRow, n, i0, count, s);
        }

        /** Writes +0 into rows {@code [firstRow, firstRow + n)}, inputs {@code [i0, i0 + count)}, of out. */
        private void zero(long firstRow, int n, int i0, int count) {
            long size = out.dataType().byteSize();
            for (int r = 0; r < n; r++) {
                long first = outRow(firstRow + r) + i0 * os[2];
                if (os[2] == 1) {
                    out.segment().asSlice(first * size, count * size).fill((byte) 0);
                } else {
                    for (int k = 0; k < count; k++) {
                        out.segment().asSlice((first + k * os[2]) * size, size).fill((byte) 0);
                    }
                }
            }
        }

        /** Writes the sums of rows {@code [firstRow, firstRow + n)}, inputs from {@code i0}, into out. */
        private void encode(long firstRow, int n, int i0, int count, Scratch s) {
            if (os[2] == 1 && evenRows && oRowStride == count) {
                provider.encodeRun(s.acc, 0, n * count, out.segment(), out.dataType(), outRow(firstRow) + i0);
            } else {
                for (int r = 0; r < n; r++) {
                    long first = outRow(firstRow + r) + i0 * os[2];
                    if (os[2] == 1) {
                        provider.encodeRun(s.acc, r * count, count, out.segment(), out.dataType(), first);
                    } else {
                        ElementCodec.encode(s.acc, r * count, count, out.segment(), out.dataType(), first, os[2]);
                    }
                }
            }
        }
    }
}
