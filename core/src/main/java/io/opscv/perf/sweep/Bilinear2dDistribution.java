package io.opscv.perf.sweep;

import io.opscv.runtime.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * The 2-D operators' cases (issue 25's list), drawn with balanced decks as the 1-D ones:
 * <ul>
 *   <li>dtype FP32 / FP16 / BF16; alignCorners both; scales given (per axis out/in, the floor rule holding) or
 *       derived; layout NCHW / NHWC;</li>
 *   <li>ratio class, the same on both axes: {@code up2}, {@code down2}, {@code up_frac} and {@code down_frac}
 *       (1–4, named ratios 3/2, 4/3, 8/7, 5/4, 5/2, 37/10 or an irregular one; per axis rounded, never an
 *       integer ratio);</li>
 *   <li>maps: {@code image} (the larger of the two maps an image-like size from 8×8 to 1080×1920, C from
 *       1, 3, 16 … 256, N·C from the traffic) or {@code tiny_maps} (the larger map 4×4 to 16×16, C 256–2048)
 *       in a 2 : 1 mix; only sizes whose larger map fills at most half the group's largest traffic, so that
 *       the cache-resident group stays in its bounds.</li>
 * </ul>
 */
final class Bilinear2dDistribution {
    static final List<String> RATIO_CLASSES = List.of("up2", "down2", "up_frac", "down_frac");
    static final List<String> MAP_CLASSES = List.of("image", "image", "tiny_maps");
    static final List<SweepLayout> LAYOUTS = List.of(SweepLayout.NCHW, SweepLayout.NHWC);

    private static final List<long[]> IMAGE_SIZES = List.of(new long[] {8, 8}, new long[] {16, 16}, new long[] {32, 32},
            new long[] {56, 56}, new long[] {64, 64}, new long[] {112, 112}, new long[] {128, 128},
            new long[] {224, 224}, new long[] {256, 256}, new long[] {270, 480}, new long[] {360, 640},
            new long[] {512, 512}, new long[] {540, 960}, new long[] {720, 1280}, new long[] {768, 1024},
            new long[] {1080, 1920});
    private static final List<long[]> TINY_SIZES = List.of(new long[] {4, 4}, new long[] {6, 6}, new long[] {7, 7},
            new long[] {8, 8}, new long[] {12, 12}, new long[] {14, 14}, new long[] {16, 16}, new long[] {8, 16});
    private static final List<Double> NAMED_RATIOS = List.of(1.5, 4.0 / 3, 8.0 / 7, 1.25, 2.5, 3.7);
    private static final List<Long> IMAGE_CHANNELS = List.of(1L, 3L, 16L, 32L, 64L, 128L, 256L);
    private static final List<Long> TINY_CHANNELS = List.of(256L, 512L, 1024L, 2048L);

    private Bilinear2dDistribution() {}

    /** {@code count} cases whose traffic is drawn log-uniformly in [lo, hi) bytes; names {@code prefix<index>_...}. */
    static List<SweepCase> draw(SweepOp op, Draws d, int count, double lo, double hi, String prefix, boolean cache) {
        List<String> ratios = d.deck(RATIO_CLASSES, count);
        List<String> maps = d.deck(MAP_CLASSES, count);
        List<DataType> dtypes = d.deck(Linear1dDistribution.DTYPES, count);
        List<Boolean> align = d.deck(List.of(false, true), count);
        List<Boolean> given = d.deck(List.of(false, true), count);
        List<SweepLayout> layouts = d.deck(LAYOUTS, count);
        List<SweepCase> cases = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String ratioClass = ratios.get(i);
            String mapClass = maps.get(i);
            DataType dtype = dtypes.get(i);
            long[] big = d.pick(fitting(mapClass.equals("image") ? IMAGE_SIZES : TINY_SIZES, hi / 2 / dtype.byteSize()));
            double r = ratioClass.endsWith("2") ? 2 : d.coin() ? d.pick(NAMED_RATIOS) : d.uniformReal(1.05, 3.95);
            boolean up = ratioClass.startsWith("up");
            long[] in = new long[2];
            long[] out = new long[2];
            for (int axis = 0; axis < 2; axis++) {
                long small = ratioClass.endsWith("2") ? Math.max(1, big[axis] / 2) : smaller(big[axis], r);
                long large = ratioClass.endsWith("2") ? 2 * small : big[axis];
                in[axis] = up ? small : large;
                out[axis] = up ? large : small;
            }
            double traffic = d.logUniformReal(lo, hi);
            long perMap = (in[0] * in[1] + out[0] * out[1]) * dtype.byteSize();
            long maps2 = Math.max(1, (long) Math.ceil(traffic / perMap));
            long c = channels(d, maps2, mapClass.equals("image") ? IMAGE_CHANNELS : TINY_CHANNELS);
            long n = Math.ceilDiv(maps2, c);
            boolean scalesGiven = given.get(i);
            double sh = scalesGiven ? Draws.givenScales(in[0], out[0]) : 0;
            double sw = scalesGiven ? Draws.givenScales(in[1], out[1]) : 0;
            cases.add(new SweepCase(String.format("%s%02d_%s_%s", prefix, i, ratioClass, mapClass), op, dtype, n, c,
                    in[0], in[1], out[0], out[1], align.get(i), sh, sw, layouts.get(i), ratioClass, mapClass, cache));
        }
        return cases;
    }

    /** The sizes whose map has at most {@code maxElements} elements (the smallest if none has), so that one map fits. */
    private static List<long[]> fitting(List<long[]> sizes, double maxElements) {
        List<long[]> fit = sizes.stream().filter(hw -> hw[0] * hw[1] <= maxElements).toList();
        return fit.isEmpty() ? sizes.subList(0, 1) : fit;
    }

    /** {@code large / r} rounded, at least 1, below {@code large} where it can be, never dividing it (a fractional ratio). */
    static long smaller(long large, double r) {
        long s = Math.max(1, Math.min(large - 1, Math.round(large / r)));
        if (s > 1 && large % s == 0 && s + 1 < large) {
            s++;
        }
        return s;
    }

    /** A channel count from {@code list}, at most a quarter of the maps where one fits, else the smallest that fits. */
    private static long channels(Draws d, long maps, List<Long> list) {
        List<Long> fitting = list.stream().filter(c -> c <= Math.max(1, maps / 4)).toList();
        if (!fitting.isEmpty()) {
            return d.pick(fitting);
        }
        return list.get(0) <= maps ? list.get(0) : maps;
    }
}
