package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The shared geometry of the 2-D kernels, which run as two 1-D passes on rows in lanes: a W pass from
 * src (N, C, Hs, Ws) to a float intermediate (N, C, Hs, Wd), then an H pass from the intermediate to dst
 * (N, C, Hd, Wd). Both tensors are NCHW-ordered views with any strides.
 *
 * <p>A pass's rows are the (n, c, other axis) triples; {@link LaneStage} sees them as a 3-D view
 * (rows, rows, positions), so two of the three row indices must merge into one. The rows run in one of
 * two orders, chosen so that both views exist: maps outer (row {@code (n·C + c)·A + a}, NCHW) or channels
 * inner (row {@code (n·A + a)·C + c}, NHWC, whose rows of one position lie side by side). Views that
 * merge in neither order run one map at a time.
 *
 * <p>A task is a tile: a {@code unit} (a map (n, c), or in channels-inner order a batch n with all its
 * channels), several whole units when they are small, or a band of dst rows and a band of dst columns of
 * one unit. Its intermediate holds the src rows the band reads, {@link #rowsPerChunk} at a time, and stays
 * in L2. In it position h of the H pass's rows lies {@code hStride} apart and the rows side by side (one
 * vector load per position, no transpose); the W pass writes it by rows, transposed.
 */
final class Bilinear2dTiles {
    /** Floats of the intermediate per task, about: with the stages' buffers it stays in a 1 MiB L2. */
    static final int INTERMEDIATE_FLOATS = 1 << 16;
    /** Positions one stage moves at a time, and dst rows per band: lane-major buffers of this many stay in L1. */
    static final int BLOCK = 256;
    /** Rows of the intermediate a band should hold at least, so that bands rarely repeat their border rows. */
    private static final int MIN_ROWS = 16;
    /** Tasks per thread to aim for, so that a slow thread does not hold up the others. */
    private static final int TASKS_PER_THREAD = 4;
    /** Below this many src plus dst elements a call runs on its caller: waking threads costs more. */
    static final long PARALLEL_THRESHOLD = 1 << 15;

    /** The row order of both passes. */
    enum Order { MAPS_OUTER, CHANNELS_INNER, PER_MAP }

    final Order order;
    final StridedTensor src;
    final StridedTensor dst;
    final long n;
    final long c;
    final int hs;
    final int ws;
    final int hd;
    final int wd;
    /** Rows per unit and position (1, or C in channels-inner order). */
    final int unitRows;
    final long units;
    /** Units per tile (1 where tiles are bands), the intermediate's rows per chunk, its columns. */
    final int unitsPerTile;
    /** Whether tiles are whole units: every tile then reads all src rows, {@code [0, hs)}. */
    final boolean wholeUnits;
    final int rowsPerChunk;
    final int columns;
    /** Starts of the dst row bands and dst column bands, each ending with the axis length. */
    final int[] bands;
    final int[] columnBands;
    /** The W pass's rows view of src and the H pass's rows view of dst (null in per-map order). */
    final StridedTensor srcRows;
    final StridedTensor dstRows;
    final long tasks;
    final boolean small;
    /** The intermediate's strides for unit, h, column (and channel 1). */
    private final long unitStride;
    private final long hStride;
    private final long columnStride;

    /**
     * @param span the src rows {@code [span(i0, i1)[0], [1])} a band of dst rows {@code [i0, i1)} reads
     * @param columnCut the dst column blocks a pass must not split (all columns when null)
     */
    Bilinear2dTiles(StridedTensor src, StridedTensor dst, java.util.function.BiFunction<Integer, Integer, int[]> span,
                    int[] columnCut, int lanes, int threads) {
        this.src = src;
        this.dst = dst;
        long[] ss = src.shape();
        long[] ds = dst.shape();
        n = ss[0];
        c = ss[1];
        hs = Math.toIntExact(ss[2]);
        ws = Math.toIntExact(ss[3]);
        hd = Math.toIntExact(ds[2]);
        wd = Math.toIntExact(ds[3]);
        StridedTensor sm = rowsView(src, Order.MAPS_OUTER, 2, 3);
        StridedTensor dm = rowsView(dst, Order.MAPS_OUTER, 3, 2);
        StridedTensor sc = rowsView(src, Order.CHANNELS_INNER, 2, 3);
        StridedTensor dc = rowsView(dst, Order.CHANNELS_INNER, 3, 2);
        if (sm != null && dm != null && (c < lanes || sc == null || dc == null)) {
            order = Order.MAPS_OUTER;
        } else if (sc != null && dc != null) {
            order = Order.CHANNELS_INNER;
        } else {
            order = sm != null && dm != null ? Order.MAPS_OUTER : Order.PER_MAP;
        }
        srcRows = order == Order.MAPS_OUTER ? sm : order == Order.CHANNELS_INNER ? sc : null;
        dstRows = order == Order.MAPS_OUTER ? dm : order == Order.CHANNELS_INNER ? dc : null;
        unitRows = order == Order.CHANNELS_INNER ? Math.toIntExact(c) : 1;
        units = order == Order.CHANNELS_INNER ? n : n * c;
        long unitFloats = (long) hs * wd * unitRows;
        long elements = n * c * ((long) hs * ws + (long) hd * wd);
        small = elements < PARALLEL_THRESHOLD || threads == 1;
        if (order != Order.PER_MAP && hs <= BLOCK && hd <= BLOCK && unitFloats <= INTERMEDIATE_FLOATS) {
            // Whole units per tile: as many as fit, but enough tiles to keep every thread busy.
            long fit = INTERMEDIATE_FLOATS / unitFloats;
            long balance = Math.max(1, units / ((long) threads * TASKS_PER_THREAD));
            unitsPerTile = (int) Math.max(1, Math.min(fit, balance));
            wholeUnits = true;
            rowsPerChunk = hs;
            columns = wd;
            bands = new int[] {0, hd};
            columnBands = new int[] {0, wd};
        } else {
            unitsPerTile = 1;
            wholeUnits = false;
            int width = (int) Math.min(wd, Math.max(lanes, INTERMEDIATE_FLOATS / ((long) MIN_ROWS * unitRows)));
            columnBands = columnBands(columnCut, width);
            int widest = 0;
            for (int k = 0; k + 1 < columnBands.length; k++) {
                widest = Math.max(widest, columnBands[k + 1] - columnBands[k]);
            }
            columns = widest;
            rowsPerChunk = (int) Math.max(2, Math.min(BLOCK, INTERMEDIATE_FLOATS / ((long) columns * unitRows)));
            bands = bands(span, hd, rowsPerChunk);
        }
        long tiles = (units + unitsPerTile - 1) / unitsPerTile;
        tasks = tiles * (bands.length - 1) * (columnBands.length - 1);
        if (order == Order.MAPS_OUTER) {
            columnStride = 1;
            unitStride = columns;
            hStride = (long) unitsPerTile * columns;
        } else {
            columnStride = unitRows;
            hStride = (long) columns * unitRows;
            unitStride = rowsPerChunk * hStride;
        }
    }

    /** Floats of one intermediate. */
    long intermediateFloats() {
        return (long) unitsPerTile * rowsPerChunk * columns * unitRows;
    }

    /** The W pass's view of the intermediate {@code t}: rows (unit, h, channel), positions the columns. */
    StridedTensor intermediateRows(MemorySegment t) {
        return view(t, DataType.FLOAT, 0, new long[] {unitsPerTile, rowsPerChunk, unitRows},
                new long[] {unitStride, hStride, 1}, columns, columnStride);
    }

    /** The H pass's view of the intermediate {@code t}: rows (unit, column, channel), positions h. */
    StridedTensor intermediateColumns(MemorySegment t) {
        return view(t, DataType.FLOAT, 0, new long[] {unitsPerTile, columns, unitRows},
                new long[] {unitStride, columnStride, 1}, rowsPerChunk, hStride);
    }

    /** A view of one map (n, c) of {@code t}, rows along {@code rowAxis}, positions along {@code posAxis}. */
    static StridedTensor mapRows(StridedTensor t, long map, int rowAxis, int posAxis) {
        long[] st = t.strides();
        long channels = t.shape()[1];
        long base = t.offset() + map / channels * st[0] + map % channels * st[1];
        return new StridedTensor(t.segment(), base, new long[] {1, t.shape()[rowAxis], t.shape()[posAxis]},
                new long[] {0, st[rowAxis], st[posAxis]}, t.dataType());
    }

    /** The view of {@code t}'s rows (n, c, rowAxis) in {@code order}, or null when no two of them merge. */
    private static StridedTensor rowsView(StridedTensor t, Order order, int rowAxis, int posAxis) {
        long[] sh = t.shape();
        long[] st = t.strides();
        long[] size = order == Order.MAPS_OUTER ? new long[] {sh[0], sh[1], sh[rowAxis]}
                : new long[] {sh[0], sh[rowAxis], sh[1]};
        long[] stride = order == Order.MAPS_OUTER ? new long[] {st[0], st[1], st[rowAxis]}
                : new long[] {st[0], st[rowAxis], st[1]};
        return view(t.segment(), t.dataType(), t.offset(), size, stride, sh[posAxis], st[posAxis]);
    }

    /** Rows (a, b, c) of the given sizes and strides as a 3-D view, merging (a, b) or else (b, c); or null. */
    private static StridedTensor view(MemorySegment seg, DataType type, long offset, long[] size, long[] stride,
                                      long positions, long positionStride) {
        long[] shape;
        long[] strides;
        if (size[0] == 1 || size[1] == 1 || stride[0] == size[1] * stride[1]) {
            shape = new long[] {size[0] * size[1], size[2], positions};
            strides = new long[] {size[1] == 1 ? stride[0] : stride[1], stride[2], positionStride};
        } else if (size[2] == 1 || stride[1] == size[2] * stride[2]) {
            shape = new long[] {size[0], size[1] * size[2], positions};
            strides = new long[] {stride[0], size[2] == 1 ? stride[1] : stride[2], positionStride};
        } else {
            return null;
        }
        return new StridedTensor(seg, offset, shape, strides, type);
    }

    /** Bands of dst rows: up to BLOCK rows whose src span fits a chunk (one row where a single row's does not). */
    private static int[] bands(java.util.function.BiFunction<Integer, Integer, int[]> span, int hd, int chunk) {
        IntList starts = new IntList();
        int i = 0;
        while (i < hd) {
            starts.add(i);
            int end = i + 1;
            int from = span.apply(i, i + 1)[0];
            while (end < hd && end - i < BLOCK && span.apply(end, end + 1)[1] - from <= chunk) {
                end++;
            }
            i = end;
        }
        starts.add(hd);
        return starts.toArray();
    }

    /** Bands of dst columns of up to {@code width}, each a run of whole blocks of {@code cut}. */
    private int[] columnBands(int[] cut, int width) {
        if (cut == null) {
            IntList starts = new IntList();
            for (int k = 0; k < wd; k += width) {
                starts.add(k);
            }
            starts.add(wd);
            return starts.toArray();
        }
        IntList starts = new IntList();
        starts.add(0);
        int bandStart = 0;
        for (int b = 1; b < cut.length; b++) {
            if (cut[b] - bandStart > width && cut[b - 1] > bandStart) {
                starts.add(cut[b - 1]);
                bandStart = cut[b - 1];
            }
        }
        starts.add(wd);
        return starts.toArray();
    }

    /** The forward's column blocks: up to BLOCK outputs whose inputs span at most BLOCK positions. */
    static int[] forwardCut(LinearTable t) {
        IntList starts = new IntList();
        int lout = t.lout();
        for (int j = 0; j < lout; ) {
            starts.add(j);
            int first = t.identity() ? j : t.x0(j);
            int end = j + 1;
            while (end < lout && end - j < BLOCK && (t.identity() ? end : t.x1(end)) + 1 - first <= BLOCK) {
                end++;
            }
            j = end;
        }
        starts.add(lout);
        return starts.toArray();
    }

    /** A growable int array. */
    static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
