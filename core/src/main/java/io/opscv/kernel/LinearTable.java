package io.opscv.kernel;

import io.opscv.runtime.AclnnException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The coordinates of 1-D linear interpolation along one axis (SPEC §1), computed once in double
 * precision and shared by every row: for each output position j, the left tap {@code x0[j]}, the
 * right tap {@code x0[j] + (x0[j] < lin - 1 ? 1 : 0)} and the weights {@code w0[j]}, {@code w1[j]}
 * (rounded to float).
 *
 * <p>For the gather form of the backward, {@code start(i)} is the first j whose left tap is ≥ i
 * ({@code start(lin) == lout}); the taps are monotone in j, so the j that reach input i are
 * {@code [start(i-1), start(i+1))}: first those reaching it through their right tap, then those
 * reaching it through their left tap. The table keeps these bounds shifted by one,
 * {@code bounds[i + 1] == start(i)} and {@code bounds[0] == 0}, so that the three bounds of input i
 * are {@code bounds[i], bounds[i + 1], bounds[i + 2]} with no special case at i = 0.
 *
 * <p>A <em>deferred</em> table ({@link #deferred}) holds only the axis's parameters, so that phase 1
 * stays O(1); its arrays are built on first use in phase 2 ({@link #full}) and shared through a small
 * cache of recent axes, so that a training loop calling the same shape pays for its table once.
 *
 * <p>The formulas follow PyTorch's {@code area_pixel_compute_scale} and
 * {@code area_pixel_compute_source_index} (aten/src/ATen/native/UpSample.h), in double.
 */
public final class LinearTable {
    /** Floats of zeros after the weights, so that a vector kernel may load whole vectors near the end of a row. */
    static final int WEIGHT_PADDING = 32;
    /** The longest axis a table can describe: Java arrays hold at most about 2^31 - 8 elements, less the padding. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8 - WEIGHT_PADDING;
    /** Tables the cache keeps: a handful of recent axes (a model's layers), each built once. */
    private static final int CACHED_TABLES = 8;
    /** Tables larger than this are not cached: they would pin a large part of a small heap. */
    private static final long CACHED_TABLE_BYTES = 64L << 20;
    private static final Map<Axis, LinearTable> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Axis, LinearTable> eldest) {
            return size() > CACHED_TABLES;
        }
    };

    private final Axis axis;
    final int[] x0;
    final float[] w0;
    final float[] w1;
    /** {@code bounds[0] == 0}, {@code bounds[i + 1] == start(i)} for 0 ≤ i ≤ lin; null when deferred. */
    final int[] bounds;
    /** A deferred table's built table. */
    private volatile LinearTable full;
    /** {@link #gatherWeights}, built on first use. */
    private volatile float[] gatherWeights;
    /** {@link #forwardBlocks}, cut on first use. */
    private volatile int[] forwardBlocks;
    /** {@link #periodicInputs}, found on first use (NO_PERIOD when there is none). */
    private volatile Period period;
    /** {@link #maxTerms}, computed on first use (-1 until then; every thread computes the same value). */
    private int maxTerms = -1;
    /** {@link #visitsEveryInput}: 1 or 0, computed on first use (-1 until then; as maxTerms). */
    private int visits = -1;
    /** Structures the kernels derive from this table ({@link #derived}), the last few asked for; made on first use. */
    private Map<List<?>, Object> derived;
    /** Derived structures a table keeps: a few forms' taps or sums of one or two pixel sizes. */
    private static final int DERIVED = 4;

    /** What defines a table: the lengths, the source step and the half-pixel shift. */
    private record Axis(int lin, int lout, double scale, double half) {
        boolean identity() {
            return lin == lout;
        }
    }

    private LinearTable(Axis axis, int[] x0, float[] w0, float[] w1, int[] bounds) {
        this.axis = axis;
        this.x0 = x0;
        this.w0 = w0;
        this.w1 = w1;
        this.bounds = bounds;
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
        return deferred(lin, lout, alignCorners, scales).full();
    }

    /**
     * A table of the same values as {@link #of} that builds nothing yet: phase 1 stays O(1), and the
     * kernel builds the arrays on first use ({@link #full}). A table that could never be built is
     * refused as by {@link #of}.
     */
    public static LinearTable deferred(int lin, int lout, boolean alignCorners, double scales) {
        if (lin <= 0 || lout <= 0) {
            throw new IllegalArgumentException("lin (" + lin + ") and lout (" + lout + ") must be > 0");
        }
        reserveHeap(lin, lout);
        Axis axis = new Axis(lin, lout, scale(lin, lout, alignCorners, scales), alignCorners ? 0.0 : 0.5);
        return new LinearTable(axis, null, null, null, null);
    }

    /** Whether this table is {@link #deferred}: only {@link #full} has its arrays. */
    public boolean isDeferred() {
        return bounds == null;
    }

    /**
     * This table with its arrays: itself, or for a deferred table the built table, taken from the cache
     * of recent axes or built (and cached) on the first call.
     */
    public LinearTable full() {
        if (bounds != null) {
            return this;
        }
        LinearTable built = full;
        if (built == null) {
            synchronized (this) {
                built = full;
                if (built == null) {
                    built = cachedOrBuilt(axis);
                    full = built;
                }
            }
        }
        return built;
    }

    /**
     * What {@code build} derives from this table for {@code key} (the builder's name and its arguments besides the
     * table: a row's taps or sums for a pixel size, a chunk's for its rows), built on first use and kept with the
     * table. The tables are cached by axis, so a training loop's calls of one shape build them once rather than
     * once a call, a large share of a small call's time. The structures are immutable once built.
     */
    @SuppressWarnings("unchecked")
    <T> T derived(List<?> key, Supplier<T> build) {
        synchronized (this) {
            if (derived == null) {
                derived = new LinkedHashMap<>(8, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<List<?>, Object> eldest) {
                        return size() > DERIVED;
                    }
                };
            }
            Object kept = derived.get(key);
            if (kept != null) {
                return (T) kept;
            }
        }
        T built = build.get();
        synchronized (this) {
            Object kept = derived.putIfAbsent(key, built);
            return kept != null ? (T) kept : built;
        }
    }

    private static LinearTable cachedOrBuilt(Axis axis) {
        synchronized (CACHE) {
            LinearTable cached = CACHE.get(axis);
            if (cached != null) {
                return cached;
            }
        }
        LinearTable built;
        try {
            built = build(axis);
        } catch (OutOfMemoryError e) {
            throw AclnnException.runtime("The coordinate table of an axis of " + axis.lin() + " -> " + axis.lout()
                    + " positions (" + tableBytes(axis.lin(), axis.lout()) + " bytes of host memory) could not be"
                    + " allocated: " + e.getMessage(), e);
        }
        if (tableBytes(axis.lin(), axis.lout()) <= CACHED_TABLE_BYTES) {
            synchronized (CACHE) {
                CACHE.putIfAbsent(axis, built);
            }
        }
        return built;
    }

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
        // ran, which would make the answer vary); an allocation that fails anyway is caught where it is built.
        long heap = Runtime.getRuntime().maxMemory();
        if (lin > MAX_LENGTH || lout > MAX_LENGTH || bytes > heap) {
            throw AclnnException.runtime("The coordinate table of an axis of " + lin + " -> " + lout + " positions needs "
                    + bytes + " bytes of host memory, but " + (lin > MAX_LENGTH || lout > MAX_LENGTH
                    ? "an axis can have at most " + MAX_LENGTH + " positions" : "the heap holds at most " + heap + " bytes")
                    + ".", null);
        }
    }

    private static LinearTable build(Axis axis) {
        int lin = axis.lin();
        int lout = axis.lout();
        int[] x0 = new int[lout];
        // Zero padding past lout: vector kernels load whole vectors of weights near the end of a row.
        float[] w0 = new float[lout + WEIGHT_PADDING];
        float[] w1 = new float[lout + WEIGHT_PADDING];
        if (axis.identity()) {
            for (int j = 0; j < lout; j++) {
                x0[j] = j;
                w0[j] = 1f;
            }
        } else {
            fillTaps(x0, w0, w1, 0, 0, lout, lin, axis.scale(), axis.half(), 0);
        }
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
        return new LinearTable(axis, x0, w0, w1, bounds);
    }

    /**
     * For m in [0, count), output j = first + m has {@code src = max(scale·(j + half) - half, 0)}, tap
     * {@code x0[at + m] = min(floor(src), lin - 1) - tapBase}, {@code w1[at + m] = (float) min(src - tap, 1)},
     * {@code w0[at + m] = (float) (1 - that)}, all in double. A plain loop over arrays, which the JIT
     * vectorizes.
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
        return axis.lin();
    }

    /** Output length (the length of gradOut). */
    public int lout() {
        return axis.lout();
    }

    /** True when lin == lout: the operators copy. */
    public boolean identity() {
        return axis.identity();
    }

    /** Left tap of output j. */
    public int x0(int j) {
        return full().x0[j];
    }

    /** Right tap of output j. */
    public int x1(int j) {
        int left = x0(j);
        return left < lin() - 1 ? left + 1 : left;
    }

    /** Weight of output j's left tap. */
    public float w0(int j) {
        return full().w0[j];
    }

    /** Weight of output j's right tap. */
    public float w1(int j) {
        return full().w1[j];
    }

    /**
     * The most gradOut positions any input but the last gathers from ({@code start(i+1) - start(i-1)}):
     * the length of the longest gather.
     */
    public int maxTerms() {
        LinearTable t = full();
        int most = t.maxTerms;
        if (most < 0) {
            most = 0;
            for (int i = 0; i < lin() - 1; i++) {
                most = Math.max(most, t.bounds[i + 2] - t.bounds[i]);
            }
            t.maxTerms = most;
        }
        return most;
    }

    /**
     * Whether the left taps start at input 0, step by at most one input per position and end at the last
     * input or the one before: then a walk over the positions meets every input as a tap (as upsampling
     * tables do; scales far from the sizes' ratio may skip inputs).
     */
    public boolean visitsEveryInput() {
        LinearTable t = full();
        int v = t.visits;
        if (v < 0) {
            boolean every = t.x0[0] == 0 && t.x0[lout() - 1] >= lin() - 2;
            for (int j = 1; j < lout() && every; j++) {
                every = t.x0[j] - t.x0[j - 1] <= 1;
            }
            v = every ? 1 : 0;
            t.visits = v;
        }
        return v == 1;
    }

    /**
     * The weights in gather order: input i's terms, j in {@code [bounds[i], bounds[i + 2])}, have their
     * weights at {@code gatherWeights[bounds[i + 1] + j]}: first the right-tap weights {@code w1[j]} of the j
     * reaching i through their right tap, then the left-tap weights {@code w0[j]}, so that a kernel sums
     * each input in one loop. (Input i's list starts at {@code bounds[i] + bounds[i + 1]}, the lengths of the
     * lists before it.) The last input's left and right weights at one j are not in it: both taps are i
     * there, and its list holds only the left ones. Built on first use; 2·lout floats and a padding.
     */
    float[] gatherWeights() {
        LinearTable t = full();
        float[] weights = t.gatherWeights;
        if (weights == null) {
            int lin = lin();
            int[] b = t.bounds;
            weights = new float[2 * lout() + WEIGHT_PADDING];
            for (int i = 0; i < lin; i++) {
                for (int j = b[i]; j < b[i + 1]; j++) {
                    weights[b[i + 1] + j] = t.w1[j];
                }
                for (int j = b[i + 1]; j < b[i + 2]; j++) {
                    weights[b[i + 1] + j] = t.w0[j];
                }
            }
            t.gatherWeights = weights;
        }
        return weights;
    }

    /**
     * A run of inputs whose terms repeat with a period: for every i with {@code from <= i} and
     * {@code i + inputs < to}, input {@code i + inputs} gathers from the positions of input i moved by
     * {@code outputs}, with the same weights bit for bit (checked on the built table, not assumed from the
     * ratio: the double-precision sources round differently from one period to the next unless the scale
     * is exact). Kernels may then treat stretches of one row a whole number of periods apart as rows of
     * their own.
     */
    record Period(int inputs, int outputs, int from, int to) {}

    private static final Period NO_PERIOD = new Period(0, 0, 0, 0);

    /** The longest run of periodic inputs ({@link Period}), or null; found on first use, in O(lin + lout). */
    Period periodicInputs() {
        LinearTable t = full();
        Period p = t.period;
        if (p == null) {
            p = findPeriod(t);
            t.period = p;
        }
        return p == NO_PERIOD ? null : p;
    }

    private static Period findPeriod(LinearTable t) {
        Axis axis = t.axis;
        long lin = axis.lin();
        long lout = axis.lout();
        // The period the ratio implies: lout/lin (half pixels) or (lout-1)/(lin-1) (alignCorners), reduced.
        boolean corners = axis.half() == 0;
        long a = corners ? lin - 1 : lin;
        long b = corners ? lout - 1 : lout;
        if (axis.identity() || a <= 0 || b <= 0 || axis.scale() != (double) a / (double) b) {
            return NO_PERIOD;
        }
        long g = java.math.BigInteger.valueOf(a).gcd(java.math.BigInteger.valueOf(b)).longValue();
        int q = (int) (a / g);
        int pOut = (int) (b / g);
        if (q > lin / 4) {
            return NO_PERIOD;
        }
        float[] weights = t.gatherWeights();
        int[] bounds = t.bounds;
        int bestFrom = 0;
        int bestLength = 0;
        int runFrom = 0;
        // same(i): input i + q repeats input i; the last input has a rule of its own and never repeats.
        for (int i = 0; i + q < lin - 1; i++) {
            if (!repeats(bounds, weights, i, q, pOut)) {
                runFrom = i + 1;
                continue;
            }
            if (i + 1 - runFrom > bestLength) {
                bestLength = i + 1 - runFrom;
                bestFrom = runFrom;
            }
        }
        return bestLength == 0 ? NO_PERIOD : new Period(q, pOut, bestFrom, bestFrom + bestLength + q);
    }

    private static boolean repeats(int[] bounds, float[] weights, int i, int q, int p) {
        for (int k = 0; k < 3; k++) {
            if (bounds[i + q + k] - bounds[i + k] != p) {
                return false;
            }
        }
        for (int j = bounds[i], end = bounds[i + 2]; j < end; j++) {
            if (Float.floatToRawIntBits(weights[bounds[i + 1] + j])
                    != Float.floatToRawIntBits(weights[bounds[i + q + 1] + j + p])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The forward kernel's cut of the outputs into blocks ({@code cut} applied to the built table), made on
     * first use and kept with the table, so that calls on a cached axis do not repeat an O(lout) pass.
     */
    int[] forwardBlocks(java.util.function.Function<LinearTable, int[]> cut) {
        LinearTable t = full();
        int[] blocks = t.forwardBlocks;
        if (blocks == null) {
            blocks = cut.apply(t);
            t.forwardBlocks = blocks;
        }
        return blocks;
    }

    /** First output j whose left tap is ≥ i, for 0 ≤ i ≤ lin. */
    public int start(int i) {
        return full().bounds[i + 1];
    }

    /** First output position a block of inputs [i0, i1) reads in the gather form of the backward. */
    public int gatherFrom(int i0) {
        return full().bounds[i0];
    }

    /** One past the last output position a block of inputs [i0, i1) reads. */
    public int gatherTo(int i1) {
        return full().bounds[i1 + 1];
    }
}
