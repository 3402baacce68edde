package io.opscv.kernel;

import io.opscv.runtime.AclnnException;

/**
 * The coordinates of 1-D linear interpolation along one axis (SPEC §1), computed once per call in
 * double precision and shared by every row: for each output position j, the left tap
 * {@code x0[j]}, the right tap {@code x0[j] + (x0[j] < lin - 1 ? 1 : 0)} and the weights
 * {@code w0[j]}, {@code w1[j]} (rounded to float).
 *
 * <p>For the gather form of the backward, {@code start(i)} is the first j whose left tap is ≥ i
 * ({@code start(lin) == lout}); the taps are monotone in j, so the j that reach input i are
 * {@code [start(i-1), start(i+1))}: first those reaching it through their right tap, then those
 * reaching it through their left tap. The table keeps these bounds shifted by one,
 * {@code bounds[i + 1] == start(i)} and {@code bounds[0] == 0}, so that the three bounds of input i
 * are {@code bounds[i], bounds[i + 1], bounds[i + 2]} with no special case at i = 0 (a vector of
 * inputs loads each with one contiguous read).
 *
 * <p>A <em>deferred</em> table ({@link #deferred}) holds only the axis's parameters: it computes
 * {@code start(i)} directly, builds the whole table on first use ({@link #full}), or builds the
 * <em>window</em> of a block of inputs ({@link #window}), the part of the table that block reads,
 * with the same values. A call with few, long rows sums each block of inputs once, so its windows
 * cover the table once per call, built by the threads that use them, while in their cache; no
 * per-call array of Lout entries is allocated.
 *
 * <p>The formulas follow PyTorch's {@code area_pixel_compute_scale} and
 * {@code area_pixel_compute_source_index} (aten/src/ATen/native/UpSample.h), in double.
 */
public final class LinearTable {
    /** Floats of zeros after the weights, so that a 512-bit kernel may load two vectors from any j < lout. */
    static final int WEIGHT_PADDING = 32;
    private final int lin;
    private final int lout;
    private final boolean identity;
    final int[] x0;
    final float[] w0;
    final float[] w1;
    /** {@code bounds[0] == 0}, {@code bounds[i + 1] == start(i)} for 0 ≤ i ≤ lin. */
    final int[] bounds;
    /** {@link #maxTerms}, computed on first use (-1 until then; every thread computes the same value). */
    private int maxTerms = -1;
    /** {@link #patternRunEnds}, computed on first use (null until then; every thread computes the same). */
    private volatile PatternRuns patternRuns;

    /** The ends of the runs of groups of {@code lanes} inputs that repeat one tap pattern ({@link #patternRunEnds}). */
    private record PatternRuns(int lanes, int[] ends) {}
    /** Source step and half-pixel shift ({@link #sourceIndex}): src = max(scale·(j + half) - half, 0). */
    private final double scale;
    private final double half;
    /** A deferred table: no arrays, {@link #full} builds them. */
    private final boolean deferred;
    /** A deferred table's whole table, built on first use. */
    private volatile LinearTable full;
    /**
     * A table whose values repeat ({@link #period}): outputs j and j + periodOutputs have the same
     * weights and taps periodInputs apart wherever neither is clamped; 0 and 0 when not proven (a window
     * has its axis's period).
     */
    private final int periodOutputs;
    private final int periodInputs;
    /**
     * With a period, the outputs whose sources are not clamped, {@code [unclampedFrom, unclampedTo)}: source
     * ≥ 0 and floor(source) ≤ lin - 1, as output indices of this table (a window's are its axis's, shifted);
     * an empty range without a period.
     */
    private final int unclampedFrom;
    private final int unclampedTo;
    /** The inputs and outputs of the whole axis ({@link #axisLin}): a window's axis's, else this table's own. */
    private final int axisLin;
    private final int axisLout;
    /** A window's: its arrays, shared with the windows built from it as {@code reuse}; null otherwise. */
    private final WindowArrays arrays;
    /**
     * What a provider derives from this table's arrays and keeps with it ({@link #derived}); null until set. Only
     * tables whose arrays never change keep it: not windows, whose arrays a later window may overwrite.
     */
    private Object derived;

    /**
     * The arrays of a chain of windows, each built with the previous one as {@code reuse}, and which window
     * of which axis they hold now: inputs [a, b) of {@code axis}, outputs from {@code ja}.
     */
    private static final class WindowArrays {
        int[] x0;
        float[] w0;
        float[] w1;
        int[] bounds;
        LinearTable axis;
        int a;
        int b;
        int ja;
    }

    /** @param axis a window's axis, whose output {@code ja} is the window's output 0; null for an axis's table */
    private LinearTable(int lin, int lout, boolean identity, double scale, double half, int[] x0, float[] w0,
                        float[] w1, int[] bounds, WindowArrays arrays, LinearTable axis, int ja) {
        this.lin = lin;
        this.lout = lout;
        this.identity = identity;
        this.scale = scale;
        this.half = half;
        this.deferred = bounds == null;
        this.x0 = x0;
        this.w0 = w0;
        this.w1 = w1;
        this.bounds = bounds;
        this.arrays = arrays;
        this.axisLin = axis != null ? axis.lin : lin;
        this.axisLout = axis != null ? axis.lout : lout;
        if (axis != null) {
            this.periodOutputs = axis.periodOutputs;
            this.periodInputs = axis.periodInputs;
            this.unclampedFrom = axis.unclampedFrom - ja;
            this.unclampedTo = axis.unclampedTo - ja;
            return;
        }
        long period = identity ? 0 : period(lout, scale, half);
        this.periodOutputs = (int) (period >>> 32);
        this.periodInputs = (int) period;
        this.unclampedFrom = period == 0 ? 0 : firstSourceAtLeast(0, 0);
        this.unclampedTo = period == 0 ? 0 : firstSourceAtLeast(lin, unclampedFrom);
    }

    /**
     * The first output j ≥ {@code from} whose unclamped source {@code scale·(j + half) - half} is ≥ {@code bound},
     * or lout: a guess from the inverse, moved to the exact answer (the sources grow with j).
     */
    private int firstSourceAtLeast(double bound, int from) {
        double guess = Math.ceil((bound + half) / scale - half);
        int j = guess <= from ? from : guess >= lout ? lout : (int) guess;
        while (j > from && rawSource(j - 1) >= bound) {
            j--;
        }
        while (j < lout && rawSource(j) < bound) {
            j++;
        }
        return j;
    }

    private double rawSource(int j) {
        return scale * (j + half) - half;
    }

    /**
     * The period of a table whose sources are all computed without rounding, packed as
     * {@code outputs << 32 | inputs}, or 0. With {@code scale = m·2^e} (m odd), the source of output j is
     * {@code m·(2j + 2·half)·2^(e-1) - half}: both terms are multiples of {@code 2^min(e-1, -1)}, so when
     * {@code m·(2j + 1)·2^max(e, 0) < 2^53} for the largest j the product and the difference are exact
     * for every j. Then, with {@code P = 2^max(-e, 0)} and {@code Q = m·2^max(e, 0) = scale·P}, the
     * source of output j + P is exactly the source of j plus the integer Q: the same fraction, so the
     * same weights, and a left tap Q further, wherever neither is clamped (source ≥ 0, floor ≤ lin - 1).
     * Scales of powers of two (2x up or down) and integer downsampling ratios have periods; 1/3 has none.
     */
    static long period(int lout, double scale, double half) {
        if (!(scale >= 0x1p-30 && scale <= 0x1p31) || (half != 0 && half != 0.5)) {
            return 0;
        }
        int exponent = Math.getExponent(scale);
        long mantissa = (long) Math.scalb(scale, 52 - exponent);
        int zeros = Long.numberOfTrailingZeros(mantissa);
        long m = mantissa >>> zeros;
        int e = exponent - 52 + zeros;
        if (e < -30) {
            return 0;
        }
        long q = m << Math.max(e, 0);
        long tMax = 2L * (lout - 1) + 1;
        if (q > Integer.MAX_VALUE || Math.multiplyHigh(q, tMax) != 0 || q * tMax >= 1L << 53) {
            return 0;
        }
        long p = 1L << Math.max(-e, 0);
        return p << 32 | q;
    }

    /**
     * The source step per output element (SPEC §1 table).
     *
     * @param scales the forward multiplier; ≤ 0 means "not given"
     */
    public static double scale(long lin, long lout, boolean alignCorners, double scales) {
        if (alignCorners) {
            return lout > 1 ? (double) (lin - 1) / (double) (lout - 1) : 0.0;
        }
        return scales > 0 ? 1.0 / scales : (double) lin / (double) lout;
    }

    /** The (unclamped above) source coordinate of output element {@code j}. */
    public static double sourceIndex(double scale, long j, boolean alignCorners) {
        if (alignCorners) {
            return scale * j;
        }
        double src = scale * (j + 0.5) - 0.5;
        return src < 0 ? 0.0 : src;
    }

    /**
     * Builds the table for an axis of input length {@code lin} and output length {@code lout}
     * (both in 1 .. 2^31 - 1). When they are equal the table is the identity.
     */
    public static LinearTable of(int lin, int lout, boolean alignCorners, double scales) {
        if (lin <= 0 || lout <= 0) {
            throw new IllegalArgumentException("lin (" + lin + ") and lout (" + lout + ") must be > 0");
        }
        reserveHeap(lin, lout);
        try {
            return build(lin, lout, alignCorners, scales);
        } catch (OutOfMemoryError e) {
            throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout + " positions ("
                    + tableBytes(lin, lout) + " bytes of host memory) could not be allocated: " + e.getMessage(), e);
        }
    }

    /**
     * A table of the same values as {@link #of} that builds nothing yet: phase 1 stays O(1), and the
     * kernel builds what it reads, the whole table ({@link #full}) or the windows of its blocks
     * ({@link #window}). A table that could never be built is refused as by {@link #of}.
     */
    public static LinearTable deferred(int lin, int lout, boolean alignCorners, double scales) {
        if (lin <= 0 || lout <= 0) {
            throw new IllegalArgumentException("lin (" + lin + ") and lout (" + lout + ") must be > 0");
        }
        reserveHeap(lin, lout);
        return new LinearTable(lin, lout, lin == lout, scale(lin, lout, alignCorners, scales), alignCorners ? 0.0 : 0.5,
                null, null, null, null, null, null, 0);
    }

    /**
     * A deferred table of this one's axis (no arrays): a key for {@link #sameAxis} that holds no memory, for what a
     * provider keeps across calls (every call has a table of its own; equal axes give equal tables).
     */
    LinearTable axisKey() {
        return new LinearTable(lin, lout, identity, scale, half, null, null, null, null, null, null, 0);
    }

    /**
     * What a provider derived from this table, made by {@code make} on the first call (under the table's lock, so
     * that every thread gets the same object); null for a window or a deferred table, whose arrays may change or
     * do not exist.
     */
    synchronized <T> T derived(Class<T> type, java.util.function.Supplier<T> make) {
        if (deferred || arrays != null) {
            return null;
        }
        if (!type.isInstance(derived)) {
            derived = make.get();
        }
        return type.cast(derived);
    }

    /** Whether this table is {@link #deferred}: its arrays do not exist, only {@link #full} or {@link #window} have them. */
    public boolean isDeferred() {
        return deferred;
    }

    /** This table with its arrays: itself, or for a deferred table the whole table, built on the first call. */
    public LinearTable full() {
        if (!deferred) {
            return this;
        }
        LinearTable built = full;
        if (built == null) {
            synchronized (this) {
                built = full;
                if (built == null) {
                    try {
                        built = build(lin, lout, identity, scale, half);
                    } catch (OutOfMemoryError e) {
                        throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout
                                + " positions (" + tableBytes(lin, lout) + " bytes of host memory) could not be allocated: "
                                + e.getMessage(), e);
                    }
                    full = built;
                }
            }
        }
        return built;
    }

    /**
     * The window of inputs {@code [a, b)}: a table of the sub-problem those inputs read, with the same
     * values as the whole table, for the gather form of the backward ({@link KernelProvider}'s
     * {@code linearBackward*} methods). Its input i is input {@code a + i} of this axis and its output j is
     * output {@code gatherFrom(a) + j}; it has {@code b - a} inputs, plus one that no output's right tap
     * reaches when {@code b < lin}, so that only the axis's real last input gets the right-edge rule.
     * Its {@code x0} is relative to a (-1 for the outputs that reach a through their right tap): the
     * window serves the backward only, never the forward.
     *
     * <p>When this table repeats ({@link #period}) and {@code reuse}'s arrays hold the window of as many
     * inputs a whole number of periods away, both clear of the clamped ends, the two windows are equal
     * entry for entry: the arrays are taken as they are, and nothing is computed (a long row at 2x builds
     * one window per thread instead of one per block).
     *
     * @param reuse    a window built before, whose arrays (shared by the windows built from one another) may
     *                 be reused: they are overwritten, and the windows built on them before no longer hold
     *                 their values; or null
     * @param provider computes the taps and weights ({@link KernelProvider#fillTaps}); every provider gives the
     *                 same values
     */
    public LinearTable window(int a, int b, LinearTable reuse, KernelProvider provider) {
        if (a < 0 || b > lin || a >= b) {
            throw new IllegalArgumentException("window [" + a + ", " + b + ") of an axis of " + lin + " inputs");
        }
        final int ja = gatherFrom(a);
        final int jb = gatherTo(b);
        final int outputs = jb - ja;
        final int inputs = b - a;
        final int localLin = b == lin ? inputs : inputs + 1;
        // Bounds: localLin + 2 entries, and a vector's worth more for kernels that load whole vectors near the end.
        final int boundsLength = localLin + 2 + WEIGHT_PADDING;
        final int weights = outputs + WEIGHT_PADDING;
        WindowArrays held = reuse == null || reuse.arrays == null ? new WindowArrays() : reuse.arrays;
        if (held.axis != null && translates(held, a, b, ja, weights)) {
            held.a = a;
            held.b = b;
            held.ja = ja;
            return new LinearTable(localLin, outputs, false, scale, half, held.x0, held.w0, held.w1, held.bounds, held,
                    this, ja);
        }
        // New arrays get an eighth more room: the windows of a chain differ by a few outputs, and the next,
        // slightly larger one should still fit.
        if (held.x0 == null || held.x0.length < weights) {
            held.x0 = new int[roomy(weights)];
            held.w0 = new float[roomy(weights)];
            held.w1 = new float[roomy(weights)];
        }
        if (held.bounds == null || held.bounds.length < boundsLength) {
            held.bounds = new int[roomy(boundsLength)];
        }
        held.axis = null;
        int[] x = held.x0;
        float[] v0 = held.w0;
        float[] v1 = held.w1;
        int[] bl = held.bounds;
        // Real weights as far as the padding reaches (a vector kernel multiplies them into lanes it then masks
        // off), zeros past lout, as in the whole table.
        int real = (int) Math.min((long) weights, (long) lout - ja);
        if (identity) {
            fill(x, v0, v1, ja, real, lin, true, scale, half, a);
        } else {
            provider.fillTaps(x, v0, v1, 0, ja, real, lin, scale, half, a);
        }
        java.util.Arrays.fill(x, real, weights, lin - a);
        java.util.Arrays.fill(v0, real, weights, 0f);
        java.util.Arrays.fill(v1, real, weights, 0f);
        // bl[k] = start(a - 1 + k) - ja: the first local j whose tap relative to a - 1, x[j] + 1 (0 .. inputs),
        // reaches k.
        provider.firstReaching(x, outputs, bl, boundsLength);
        // The arrays now hold this window (the windows built on them before no longer hold their values).
        held.axis = this;
        held.a = a;
        held.b = b;
        held.ja = ja;
        return new LinearTable(localLin, outputs, false, scale, half, x, v0, v1, bl, held, this, ja);
    }

    /**
     * Whether the window of inputs {@code [a, b)}, outputs from {@code ja}, with {@code weights} entries,
     * equals the one {@code held} describes: a window of this table of as many inputs, a whole number k of
     * periods away ({@code a} k·Q inputs and {@code ja} k·P outputs further), and every entry of both
     * unclamped ({@link #unclamped}). Then every tap, weight and bound is the other's, shifted by k periods:
     * the last output, start(b), too. (The test on {@code ja} catches windows at the clamped start, whose
     * {@code gatherFrom} is not shifted; a window holding the last input reaches lout, so it is never
     * unclamped.)
     */
    private boolean translates(WindowArrays held, int a, int b, int ja, int weights) {
        if (held.axis == null || !sameAxis(held.axis) || b - a != held.b - held.a) {
            return false;
        }
        if (a == held.a) {
            // The same inputs of an axis with the same taps and weights: the same window, clamped or not.
            return true;
        }
        if (periodOutputs == 0) {
            return false;
        }
        long shift = (long) a - held.a;
        if (shift % periodInputs != 0 || (long) ja - held.ja != shift / periodInputs * periodOutputs) {
            return false;
        }
        return unclamped(held.ja, weights) && unclamped(ja, weights);
    }

    /**
     * Whether {@code other}, an axis's table as this one, has this one's taps and weights: the same inputs, outputs,
     * source step and shift. Tables are made per call (phase 1), so a window a thread built in an earlier call on an
     * equal axis is as good as one built on this one ({@link #window}).
     */
    boolean sameAxis(LinearTable other) {
        return other == this || other.lin == lin && other.lout == lout && other.identity == identity
                && Double.doubleToLongBits(other.scale) == Double.doubleToLongBits(scale)
                && Double.doubleToLongBits(other.half) == Double.doubleToLongBits(half);
    }

    /**
     * Whether {@link #window}{@code (a, b, reuse, provider)} would take {@code reuse}'s arrays as they are: they hold
     * the same window of an equal axis, or one a whole number of periods away, with no fill.
     */
    boolean windowHeld(int a, int b, LinearTable reuse) {
        if (reuse == null || reuse.arrays == null || reuse.arrays.axis == null || a < 0 || b > lin || a >= b) {
            return false;
        }
        int ja = gatherFrom(a);
        return translates(reuse.arrays, a, b, ja, gatherTo(b) - ja + WEIGHT_PADDING);
    }

    /** Whether outputs {@code [j, j + count)} all lie in {@code [unclampedFrom, unclampedTo)}. */
    private boolean unclamped(int j, int count) {
        return j >= unclampedFrom && (long) j + count <= unclampedTo;
    }

    /** The period's inputs Q ({@link #period}), 0 without a period. */
    int periodInputs() {
        return periodInputs;
    }

    /** The period's outputs P ({@link #period}), 0 without a period. */
    int periodOutputs() {
        return periodOutputs;
    }

    /** The first output whose source is not clamped, in this table's indices (see {@link #unclampedTo}). */
    int unclampedFrom() {
        return unclampedFrom;
    }

    /**
     * One past the last output whose source is not clamped, in this table's indices: with a period, outputs j
     * and j + P in {@code [unclampedFrom, unclampedTo)} have the same weights and taps Q apart, so bounds that
     * lie in that range with the outputs before them are Q inputs apart for P outputs.
     */
    int unclampedTo() {
        return unclampedTo;
    }

    private static int roomy(int length) {
        return (int) Math.min(MAX_LENGTH, length + (long) length / 8 + WEIGHT_PADDING);
    }

    /**
     * The reference of {@link KernelProvider#firstReaching}: {@code starts[0] = 0} and, for
     * {@code 1 <= k < length}, {@code starts[k]} = the first m whose {@code taps[m] + 1 >= k}, or
     * {@code count} if none; {@code taps[0 .. count)} never decrease and are at least -1.
     */
    static void firstReaching(int[] taps, int count, int[] starts, int length) {
        int filled = 0;
        starts[0] = 0;
        for (int m = 0; m < count; m++) {
            int reach = Math.min(taps[m] + 1, length - 1);
            while (filled < reach) {
                starts[++filled] = m;
            }
        }
        while (filled < length - 1) {
            starts[++filled] = count;
        }
    }

    /**
     * {@code start(i)} computed from the formulas: the first j whose tap, as {@link #fill} computes it, is
     * ≥ i, found from the sources ({@link #firstSourceAtLeast}: a guess from the inverse, moved to the exact
     * answer), so the result is exactly the whole table's, whatever the rounding of the guess.
     */
    private int computeStart(int i) {
        if (i <= 0) {
            return 0;
        }
        if (i >= lin) {
            return lout;
        }
        if (identity) {
            return i;
        }
        if (scale <= 0) {
            return lout; // every tap is 0
        }
        // For 1 <= i <= lin - 1, min(floor(max(source, 0)), lin - 1) >= i exactly when the unclamped source is.
        return firstSourceAtLeast(i, 0);
    }

    /** The longest axis a table can describe: Java arrays hold at most about 2^31 - 8 elements, less the padding. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8 - WEIGHT_PADDING;

    /** Bytes of the arrays of a table: x0, w0, w1 per output, the bounds per input. */
    static long tableBytes(long lin, long lout) {
        return 4 * lout + 8 * (lout + WEIGHT_PADDING) + 4 * (lin + 2);
    }

    /**
     * The 2-D operators accept axes up to INT32_MAX (SPEC §10), whose tables need up to ~24 GiB of heap: a
     * table that cannot exist, or cannot fit in the heap at all, is refused with
     * ACLNN_ERR_RUNTIME_ERROR (361001) before anything is allocated, like device memory that cannot be had.
     */
    private static void reserveHeap(int lin, int lout) {
        long bytes = tableBytes(lin, lout);
        // Only what can never fit is refused up front (the heap's free space depends on when the collector last
        // ran, which would make the answer vary); an allocation that fails anyway is caught in of().
        long heap = Runtime.getRuntime().maxMemory();
        if (lin > MAX_LENGTH || lout > MAX_LENGTH || bytes > heap) {
            throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout + " positions needs "
                    + bytes + " bytes of host memory, but " + (lin > MAX_LENGTH || lout > MAX_LENGTH
                    ? "an axis can have at most " + MAX_LENGTH + " positions" : "the heap holds at most " + heap + " bytes")
                    + ".", null);
        }
    }

    private static LinearTable build(int lin, int lout, boolean alignCorners, double scales) {
        return build(lin, lout, lin == lout, scale(lin, lout, alignCorners, scales), alignCorners ? 0.0 : 0.5);
    }

    private static LinearTable build(int lin, int lout, boolean identity, double scale, double half) {
        int[] x0 = new int[lout];
        // Zero padding past lout: vector kernels load whole vectors of weights near the end of a row.
        float[] w0 = new float[lout + WEIGHT_PADDING];
        float[] w1 = new float[lout + WEIGHT_PADDING];
        fill(x0, w0, w1, 0, lout, lin, identity, scale, half, 0);
        // bounds[i + 1] = first j whose left tap is >= i; the taps never decrease with j, so one
        // pass over j fills every bound at the steps of x0.
        int[] bounds = new int[lin + 2];
        int filled = 0;
        for (int j = 0; j < lout; j++) {
            int tap = x0[j];
            while (filled <= tap) {
                bounds[++filled] = j;
            }
        }
        while (filled <= lin) {
            bounds[++filled] = lout;
        }
        return new LinearTable(lin, lout, identity, scale, half, x0, w0, w1, bounds, null, null, 0);
    }

    /**
     * x0, w0, w1 for every j: {@code src = max(0, scale·(j + half) - half)} (half = 0.5, or 0
     * with alignCorners, where src = scale·j is never negative), as {@link #sourceIndex}. A plain
     * loop over arrays, which the JIT vectorizes: phase 1 stays cheap on long rows.
     */
    private static void fill(int[] x0, float[] w0, float[] w1, int first, int count, int lin, boolean identity,
                             double scale, double half, int tapBase) {
        if (identity) {
            for (int m = 0; m < count; m++) {
                x0[m] = first + m - tapBase;
                w0[m] = 1f;
                w1[m] = 0f;
            }
            return;
        }
        fillTaps(x0, w0, w1, 0, first, count, lin, scale, half, tapBase);
    }

    /**
     * The reference of {@link KernelProvider#fillTaps}: for m in [0, count), output j = first + m has
     * {@code src = max(scale·(j + half) - half, 0)}, tap {@code x0[at + m] = min(floor(src), lin - 1) - tapBase},
     * {@code w1[at + m] = (float) min(src - tap, 1)}, {@code w0[at + m] = (float) (1 - that)}, all in double.
     */
    static void fillTaps(int[] x0, float[] w0, float[] w1, int at, int first, int count, int lin, double scale,
                         double half, int tapBase) {
        final double last = lin - 1;
        for (int m = 0; m < count; m++) {
            double src = Math.max(scale * ((first + m) + half) - half, 0.0);
            double left = Math.min(Math.floor(src), last);
            double lambda1 = Math.min(src - left, 1.0);
            x0[at + m] = (int) left - tapBase;
            w1[at + m] = (float) lambda1;
            w0[at + m] = (float) (1.0 - lambda1);
        }
    }

    /** Input length (the length of out). */
    public int lin() {
        return lin;
    }

    /** Output length (the length of gradOut). */
    public int lout() {
        return lout;
    }

    /**
     * The inputs of the whole axis: a window's ({@link #window}) are its axis's, an axis's table's its own
     * {@link #lin}. Kernels choose their form by the axis's ratio, not the window's: a window has an input or
     * two of its neighbours' outputs more, which at 2x puts it just past the ratio (4096 inputs, 8193 outputs).
     */
    public int axisLin() {
        return axisLin;
    }

    /** The outputs of the whole axis ({@link #axisLin}). */
    public int axisLout() {
        return axisLout;
    }

    /** True when lin == lout: the operators copy. */
    public boolean identity() {
        return identity;
    }

    /** Left tap of output j. */
    public int x0(int j) {
        return deferred ? full().x0[j] : x0[j];
    }

    /** Right tap of output j. */
    public int x1(int j) {
        int left = x0(j);
        return left < lin - 1 ? left + 1 : left;
    }

    /** Weight of output j's left tap. */
    public float w0(int j) {
        return deferred ? full().w0[j] : w0[j];
    }

    /** Weight of output j's right tap. */
    public float w1(int j) {
        return deferred ? full().w1[j] : w1[j];
    }

    /**
     * The most gradOut positions any input but the last gathers from ({@code start(i+1) - start(i-1)}):
     * the length of the longest gather, which sizes a vector kernel's per-lane index tables.
     */
    public int maxTerms() {
        if (deferred) {
            return full().maxTerms();
        }
        int most = maxTerms;
        if (most < 0) {
            most = 0;
            for (int i = 0; i < lin - 1; i++) {
                most = Math.max(most, bounds[i + 2] - bounds[i]);
            }
            maxTerms = most;
        }
        return most;
    }

    /**
     * For each whole group g of {@code lanes} inputs short of the last input (inputs [g·lanes, (g + 1)·lanes),
     * (g + 1)·lanes ≤ lin - 1), the first group after g whose tap pattern differs from g's (or the number of
     * such groups): group h repeats group g's pattern when {@code bounds[h·lanes + m] - bounds[h·lanes]} equals
     * {@code bounds[g·lanes + m] - bounds[g·lanes]} for m = 0 … lanes + 1 (every lane's taps at the same offsets,
     * so the same counts, not the same weights). Built once per table, in one pass, on first use, so that a
     * kernel's search for runs of similar groups costs one lookup per call instead of a scan of the groups.
     * The table's arrays must exist (not {@link #isDeferred}).
     */
    int[] patternRunEnds(int lanes) {
        PatternRuns runs = patternRuns;
        if (runs != null && runs.lanes() == lanes) {
            return runs.ends();
        }
        int groups = Math.max(0, (lin - 1) / lanes);
        int[] ends = new int[groups];
        for (int g = groups - 1; g >= 0; g--) {
            ends[g] = g + 1 < groups && repeats(g * lanes, (g + 1) * lanes, lanes) ? ends[g + 1] : g + 1;
        }
        patternRuns = new PatternRuns(lanes, ends);
        return ends;
    }

    /** Whether the group of {@code lanes} inputs from {@code b} repeats the tap pattern of the one from {@code a}. */
    private boolean repeats(int a, int b, int lanes) {
        int shift = bounds[b] - bounds[a];
        for (int m = 1; m <= lanes + 1; m++) {
            if (bounds[b + m] - bounds[a + m] != shift) {
                return false;
            }
        }
        return true;
    }

    /** First output j whose left tap is ≥ i, for 0 ≤ i ≤ lin. */
    public int start(int i) {
        return deferred ? computeStart(i) : bounds[i + 1];
    }

    /** First output position a block of inputs [i0, i1) reads in the gather form of the backward. */
    public int gatherFrom(int i0) {
        return deferred ? computeStart(i0 - 1) : bounds[i0];
    }

    /** One past the last output position a block of inputs [i0, i1) reads. */
    public int gatherTo(int i1) {
        return deferred ? computeStart(i1) : bounds[i1 + 1];
    }
}
