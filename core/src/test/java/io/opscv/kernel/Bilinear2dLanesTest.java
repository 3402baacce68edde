package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 2-D kernels in both forms (two tiled passes on rows in lanes; small maps in lanes) with both
 * providers and several thread counts, every dtype and layout, against plain references written here: the backward as a scatter in ascending gradOut
 * column and then ascending gradOut row (left tap before right, from +0), the forward as
 * {@code h0·(w0·x + w1·x) + h1·(…)}, W first, each in float and rounded once.
 */
class Bilinear2dLanesTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();

    /** How both tensors lie in memory. */
    enum Layout {
        NCHW,
        /** Channels-last storage seen as NCHW. */
        NHWC,
        /** Strides that merge no two row indices: the kernels run one map at a time. */
        SCRAMBLED,
        /** Channels-last with a gap after each batch (only the "batches" cases). */
        NHWC_GAPS
    }

    /** One call: sizes (in: the backward's out and the forward's self), coordinate arguments, dtype, layout. */
    record Case(String name, int n, int c, int hin, int win, int hout, int wout, boolean alignCorners, double scalesH,
                double scalesW, DataType dtype, Layout layout, boolean nonFinite) {
        Case with(DataType t, Layout l, boolean nf) {
            return new Case(name, n, c, hin, win, hout, wout, alignCorners, scalesH, scalesW, t, l, nf);
        }

        @Override
        public String toString() {
            return name + " " + dtype + " " + layout + (nonFinite ? " nonfinite" : "") + " (" + n + "," + c + "," + hin
                    + "x" + win + "<->" + hout + "x" + wout + ", ac=" + alignCorners + ")";
        }
    }

    static Stream<Case> cases() {
        DataType f = DataType.FLOAT;
        Layout l = Layout.NCHW;
        List<Case> shapes = List.of(
                new Case("up2", 2, 3, 12, 20, 24, 40, false, 0, 0, f, l, false),
                new Case("down2_ac", 1, 5, 30, 18, 15, 9, true, 0, 0, f, l, false),
                new Case("up_frac", 2, 17, 14, 11, 19, 29, false, 0, 0, f, l, false),
                new Case("down_frac_scales", 3, 2, 37, 41, 10, 13, false, 0.3, 0.33, f, l, false),
                // Upsampling sizes whose scales step the taps over inputs: no walk, those inputs' sums are +0.
                new Case("up_scales_skipping", 2, 5, 6, 8, 12, 16, false, 0.4, 0.3, f, l, false),
                new Case("identity_w", 2, 18, 9, 13, 20, 13, false, 0, 0, f, l, false),
                new Case("identity_h", 1, 7, 16, 10, 16, 23, true, 0, 0, f, l, false),
                new Case("identity_both", 2, 3, 6, 7, 6, 7, false, 0, 0, f, l, false),
                new Case("size1", 3, 5, 1, 9, 7, 1, false, 0, 0, f, l, false),
                new Case("size1_ac", 2, 4, 5, 1, 1, 6, true, 0, 0, f, l, false),
                new Case("tiny_maps", 4, 40, 4, 5, 8, 10, false, 0, 0, f, l, false),
                new Case("tiny_maps_partial_group", 3, 13, 3, 3, 6, 6, true, 0, 0, f, l, false),
                new Case("maps_of_4096_pixels", 1, 17, 64, 64, 32, 32, false, 0, 0, f, l, false),
                new Case("map_over_4096_pixels", 1, 9, 65, 64, 20, 40, false, 0, 0, f, l, false),
                // The backward takes maps in lanes up to 128 × 128 pixels (not maps of few channels-last channels
                // that batches in lanes do not take).
                new Case("backward_maps_of_16384_pixels", 1, 17, 128, 128, 100, 90, true, 0, 0, f, l, false),
                new Case("backward_map_over_16384_pixels", 1, 2, 129, 128, 60, 40, false, 0, 0, f, l, false),
                new Case("backward_c3_maps_over_batches", 2, 3, 100, 90, 50, 45, false, 0, 0, f, l, false),
                new Case("large_map_bands", 1, 2, 150, 260, 300, 520, false, 0, 0, f, l, false),
                new Case("wide_channels_bands", 1, 40, 30, 100, 60, 200, true, 0, 0, f, l, false),
                new Case("long_span_chunks", 1, 64, 3, 60, 120, 100, false, 0, 0, f, l, false),
                new Case("down_extreme", 1, 3, 400, 300, 2, 3, false, 0, 0, f, l, false),
                // Larger maps whose rows are runs (NCHW, or NHWC pixels) go along the rows in the forward
                // (Bilinear2dRows): W downsampled just under 2 (taps within two vectors), channels of whole
                // vectors downsampled by 3, W downsampled by 2 and 3.3 (taps within four vectors),
                // three channels upsampled, and an identity axis either way.
                new Case("rows_down_w_near2", 1, 2, 70, 130, 50, 66, false, 0, 0, f, l, false),
                new Case("rows_c16_down3", 1, 16, 40, 150, 30, 50, true, 0, 0, f, l, false),
                new Case("rows_down_w2", 1, 2, 50, 256, 40, 128, false, 0, 0, f, l, false),
                new Case("rows_down_w3.3", 1, 3, 40, 300, 30, 90, true, 0, 0, f, l, false),
                new Case("rows_c3_up", 2, 3, 80, 90, 150, 170, false, 0, 0, f, l, false),
                new Case("rows_identity_h", 1, 2, 70, 80, 70, 160, false, 0, 0, f, l, false),
                new Case("rows_identity_w", 1, 3, 65, 100, 130, 100, true, 0, 0, f, l, false),
                // Small NHWC maps of whole vectors of channels go along their rows too (the forward).
                new Case("rows_small_maps_c32", 3, 32, 6, 7, 12, 5, false, 0, 0, f, l, false),
                // Both ways along rows of pixels of whole vectors of channels (one vector at 512, 256 and 128
                // bits), W pixel by pixel: upsampling, downsampling, bands of out rows.
                new Case("rows_c16_up_ac", 2, 16, 20, 30, 45, 70, true, 0, 0, f, l, false),
                new Case("rows_c8_up", 1, 8, 40, 50, 70, 90, false, 0, 0, f, l, false),
                new Case("rows_c4_down", 2, 4, 90, 70, 40, 50, false, 0, 0, f, l, false),
                // The backward along rows of any pixel (NCHW, NHWC of 3 or 2 channels) with W sums of per-element
                // terms: W upsampled by 1.25 (gradOut the smaller), downsampled by 3.7 (eight terms an input),
                // rows of 67 elements (a partial last vector), given scales that leave inputs without terms.
                new Case("rows_sums_c3_1.25", 1, 3, 100, 150, 80, 120, false, 0, 0, f, l, false),
                new Case("rows_sums_down3.7_ac", 1, 2, 40, 70, 148, 259, true, 0, 0, f, l, false),
                new Case("rows_sums_partial_vector", 2, 1, 70, 67, 140, 134, false, 0, 0, f, l, false),
                new Case("rows_sums_unreached", 1, 3, 90, 100, 30, 33, false, 0.3, 0.3, f, l, false),
                // Out rows of several terms, then rows that no gradOut row reaches (given scales), in one band.
                new Case("rows_sums_summed_then_unreached", 1, 2, 130, 140, 260, 150, false, 3.0, 0, f, l, false),
                // Small NHWC maps of whole vectors of channels go along rows both ways, whichever maps are the
                // smaller; pixels of a vector or more but not whole vectors (20 channels) along rows where maps in
                // lanes do not take them, W summed pixel by pixel with a partial last vector.
                new Case("rows_wide_c512_small_maps", 2, 512, 8, 6, 4, 3, true, 0, 0, f, l, false),
                new Case("rows_wide_c64_gradout_larger", 3, 64, 5, 7, 9, 12, false, 0, 0, f, l, false),
                new Case("rows_pixels_c20_down_ac", 1, 20, 140, 130, 70, 80, true, 0, 0, f, l, false),
                // The forward of tiny dense maps as single rows of taps (FlatMaps): chunks of whole maps with a
                // partial last chunk, vectors across row and map ends, an identity axis, given scales, and
                // NHWC pixels of 3 and 700 channels.
                new Case("flat_maps_down", 9, 23, 8, 8, 5, 5, false, 0, 0, f, l, false),
                new Case("flat_maps_up_ac", 3, 700, 2, 2, 4, 4, true, 0, 0, f, l, false),
                new Case("flat_maps_identity_w", 40, 5, 6, 3, 4, 3, false, 0, 0, f, l, false),
                new Case("flat_maps_identity_h", 30, 3, 4, 9, 4, 5, true, 0, 0, f, l, false),
                new Case("flat_maps_scales", 7, 11, 7, 5, 3, 4, false, 0.45, 0.7, f, l, false),
                // Channels-last maps of fewer channels than lanes with batches in lanes: a partial last group
                // (37 batches), downsampling and upsampling, an identity axis, batches of 3 × 4096 pixels.
                new Case("batches_c3", 37, 3, 14, 13, 32, 30, true, 0, 0, f, l, false),
                new Case("batches_c2_down", 21, 2, 20, 18, 9, 7, false, 0, 0, f, l, false),
                new Case("batches_c5_identity_w", 18, 5, 6, 9, 12, 9, false, 0, 0, f, l, false),
                new Case("batches_c3_largest", 2, 3, 64, 64, 40, 50, false, 0, 0, f, l, false));
        List<Case> all = new ArrayList<>();
        for (Case base : shapes) {
            for (DataType t : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
                for (Layout layout : Layout.values()) {
                    if (layout == Layout.NHWC_GAPS && !base.name().startsWith("batches")) {
                        continue;
                    }
                    all.add(base.with(t, layout, base.name().hashCode() % 2 == 0 ^ t == DataType.BF16));
                }
            }
        }
        return all.stream();
    }

    /** The FLOAT cases of the NCHW and NHWC layouts. */
    static Stream<Case> floatCases() {
        return cases().filter(k -> k.dtype() == DataType.FLOAT && (k.layout() == Layout.NCHW || k.layout() == Layout.NHWC));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void backwardMatchesTheScatterReference(Case k) {
        backwardAgainstTheReference(k, false);
    }

    /**
     * Every sum starts from +0, so a gradOut of -0 gives +0 wherever an element takes a term (an identity axis
     * copies): the first term of an out element is added to +0, not stored as it is.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("floatCases")
    void backwardOfNegativeZerosMatchesTheScatterReference(Case k) {
        backwardAgainstTheReference(k, true);
    }

    /** The backward of the case's gradOut (or of -0 throughout) with every run, against the scatter reference. */
    private static void backwardAgainstTheReference(Case k, boolean negativeZeros) {
        LinearTable h = LinearTable.of(k.hin(), k.hout(), k.alignCorners(), k.scalesH());
        LinearTable w = LinearTable.of(k.win(), k.wout(), k.alignCorners(), k.scalesW());
        try (Arena arena = Arena.ofShared()) {
            StridedTensor gradOut = tensor(arena, k, k.hout(), k.wout(), true);
            float[] zero = {-0f};
            for (long e = 0; negativeZeros && e < gradOut.numel(); e++) {
                ElementCodec.encode(zero, 0, 1, gradOut.segment(), gradOut.dataType(), index(gradOut, e), 1);
            }
            StridedTensor out = tensor(arena, k, k.hin(), k.win(), false);
            int[] expected = rounded(backwardReference(read(gradOut), k, h, w), k.dtype(), arena);
            everyRun(k, out, expected, arena, (provider, pool, mapsInLanes) ->
                    Bilinear2dBackwardKernel.run(gradOut, out, h, w, provider, pool, mapsInLanes));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void forwardMatchesThePlainReference(Case k) {
        LinearTable h = LinearTable.of(k.hin(), k.hout(), k.alignCorners(), k.scalesH());
        LinearTable w = LinearTable.of(k.win(), k.wout(), k.alignCorners(), k.scalesW());
        try (Arena arena = Arena.ofShared()) {
            StridedTensor self = tensor(arena, k, k.hin(), k.win(), true);
            StridedTensor out = tensor(arena, k, k.hout(), k.wout(), false);
            int[] expected = rounded(forwardReference(read(self), k, h, w), k.dtype(), arena);
            everyRun(k, out, expected, arena, (provider, pool, mapsInLanes) ->
                    Bilinear2dForwardKernel.run(self, out, h, w, provider, pool, mapsInLanes));
        }
    }

    /** One kernel call with a provider, a pool and a form. */
    private interface Run {
        void run(KernelProvider provider, WorkerPool pool, boolean mapsInLanes);
    }

    /** Runs {@code call} with both providers, 1–3 threads and both forms, each time into a refilled out. */
    private static void everyRun(Case k, StridedTensor out, int[] expected, Arena arena, Run call) {
        for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
            for (int threads : new int[] {1, 2, 3}) {
                for (boolean mapsInLanes : new boolean[] {true, false}) {
                    try (WorkerPool pool = new WorkerPool(threads)) {
                        fill(out, arena);
                        call.run(provider, pool, mapsInLanes);
                        assertSame(expected, bits(out, arena), k + " " + provider.name() + " threads=" + threads
                                + (mapsInLanes ? "" : " tiles"));
                    }
                }
            }
        }
    }

    /** Per map: W sums scattered in ascending column, then H terms scattered in ascending row. */
    private static float[] backwardReference(float[] g, Case k, LinearTable h, LinearTable w) {
        int hout = k.hout();
        int wout = k.wout();
        int hin = k.hin();
        int win = k.win();
        float[] out = new float[k.n() * k.c() * hin * win];
        for (int m = 0; m < k.n() * k.c(); m++) {
            float[] t = new float[hout * win];
            for (int j = 0; j < hout; j++) {
                for (int q = 0; q < wout; q++) {
                    float v = g[(m * hout + j) * wout + q];
                    if (w.identity()) {
                        t[j * win + q] = v;
                    } else {
                        t[j * win + w.x0(q)] += w.w0(q) * v;
                        t[j * win + w.x1(q)] += w.w1(q) * v;
                    }
                }
            }
            int base = m * hin * win;
            for (int j = 0; j < hout; j++) {
                for (int x = 0; x < win; x++) {
                    float v = t[j * win + x];
                    if (h.identity()) {
                        out[base + j * win + x] = v;
                    } else {
                        out[base + h.x0(j) * win + x] += h.w0(j) * v;
                        out[base + h.x1(j) * win + x] += h.w1(j) * v;
                    }
                }
            }
        }
        return out;
    }

    /** Per map: each row interpolated along W, then each out row from its two W-interpolated rows. */
    private static float[] forwardReference(float[] x, Case k, LinearTable h, LinearTable w) {
        int hin = k.hin();
        int win = k.win();
        int hout = k.hout();
        int wout = k.wout();
        float[] out = new float[k.n() * k.c() * hout * wout];
        for (int m = 0; m < k.n() * k.c(); m++) {
            float[] t = new float[hin * wout];
            for (int j = 0; j < hin; j++) {
                int row = (m * hin + j) * win;
                for (int q = 0; q < wout; q++) {
                    t[j * wout + q] = w.identity() ? x[row + q] : w.w0(q) * x[row + w.x0(q)] + w.w1(q) * x[row + w.x1(q)];
                }
            }
            for (int i = 0; i < hout; i++) {
                for (int q = 0; q < wout; q++) {
                    out[(m * hout + i) * wout + q] = h.identity() ? t[i * wout + q]
                            : h.w0(i) * t[h.x0(i) * wout + q] + h.w1(i) * t[h.x1(i) * wout + q];
                }
            }
        }
        return out;
    }

    /** A tensor (n, c, rows, cols) of the case's layout; the input filled with its values, the output with a marker. */
    private static StridedTensor tensor(Arena arena, Case k, int rows, int cols, boolean input) {
        long n = k.n();
        long c = k.c();
        long[] strides;
        long offset = 0;
        long elements;
        switch (k.layout()) {
            case NHWC -> strides = new long[] {rows * cols * c, 1, cols * c, c};
            case NHWC_GAPS -> strides = new long[] {rows * cols * c + 5, 1, cols * c, c};
            case SCRAMBLED -> {
                offset = 5;
                long row = 2L * cols + 1;
                long map = rows * row + 3;
                strides = new long[] {c * map + 7, map, row, 2};
            }
            default -> strides = new long[] {c * rows * cols, (long) rows * cols, cols, 1};
        }
        elements = offset + (n - 1) * strides[0] + (c - 1) * strides[1] + (rows - 1) * strides[2] + (cols - 1) * strides[3] + 1;
        MemorySegment seg = arena.allocate(elements * k.dtype().byteSize(), 8);
        StridedTensor t = new StridedTensor(seg, offset, new long[] {n, c, rows, cols}, strides, k.dtype());
        if (input) {
            Random random = new Random(k.toString().hashCode());
            float[] v = new float[1];
            for (long e = 0; e < n * c * rows * cols; e++) {
                v[0] = value(random, k.nonFinite());
                ElementCodec.encode(v, 0, 1, seg, k.dtype(), index(t, e), 1);
            }
        }
        return t;
    }

    private static float value(Random random, boolean nonFinite) {
        if (nonFinite) {
            switch (random.nextInt(60)) {
                case 0 -> {
                    return Float.NaN;
                }
                case 1 -> {
                    return Float.POSITIVE_INFINITY;
                }
                case 2 -> {
                    return Float.NEGATIVE_INFINITY;
                }
                case 3 -> {
                    return -0f;
                }
                default -> {
                    // a finite value below
                }
            }
        }
        return (float) (random.nextGaussian() * 4);
    }

    /** The element index of logical element e (NCHW order) of t. */
    private static long index(StridedTensor t, long e) {
        long[] sh = t.shape();
        long[] st = t.strides();
        long at = t.offset();
        for (int d = 3; d >= 0; d--) {
            at += e % sh[d] * st[d];
            e /= sh[d];
        }
        return at;
    }

    private static float[] read(StridedTensor t) {
        float[] v = new float[Math.toIntExact(t.numel())];
        for (int e = 0; e < v.length; e++) {
            ElementCodec.decode(t.segment(), t.dataType(), index(t, e), 1, 1, v, e);
        }
        return v;
    }

    private static void fill(StridedTensor t, Arena arena) {
        float[] marker = {12345.5f};
        for (long e = 0; e < t.numel(); e++) {
            ElementCodec.encode(marker, 0, 1, t.segment(), t.dataType(), index(t, e), 1);
        }
    }

    /** The bits of each element of t, widened to float. */
    private static int[] bits(StridedTensor t, Arena arena) {
        float[] v = read(t);
        int[] b = new int[v.length];
        for (int e = 0; e < v.length; e++) {
            b[e] = Float.floatToIntBits(v[e]);
        }
        return b;
    }

    /** The reference's floats rounded once to {@code type}, as float bits. */
    private static int[] rounded(float[] values, DataType type, Arena arena) {
        MemorySegment seg = arena.allocate(Math.max(1, values.length) * type.byteSize(), 8);
        ElementCodec.encode(values, 0, values.length, seg, type, 0, 1);
        float[] back = new float[values.length];
        ElementCodec.decode(seg, type, 0, 1, values.length, back, 0);
        int[] b = new int[values.length];
        for (int e = 0; e < b.length; e++) {
            b[e] = Float.floatToIntBits(back[e]);
        }
        return b;
    }

    /** Equal bits, every NaN equal to every NaN (their payloads are unspecified). */
    private static void assertSame(int[] expected, int[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int e = 0; e < expected.length; e++) {
            boolean nans = Float.isNaN(Float.intBitsToFloat(expected[e])) && Float.isNaN(Float.intBitsToFloat(actual[e]));
            if (!nans && expected[e] != actual[e]) {
                assertEquals(Float.intBitsToFloat(expected[e]), Float.intBitsToFloat(actual[e]), what + " element " + e);
                assertEquals(expected[e], actual[e], what + " element " + e + " (bits)");
            }
        }
    }
}
