package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The arithmetic and data movement of the resize kernels, on {@code float[]} working buffers.
 * Implementations: {@link ScalarKernelProvider} (the reference, always available) and
 * {@code VectorKernelProvider} (Vector API), loaded by {@link KernelProviders} when
 * {@code jdk.incubator.vector} is present.
 *
 * <p>Every implementation gives bit-identical results: each output is a sum in the canonical order
 * defined by {@link #sumLanes}, of float products, without fused multiply-add, rounded once to the
 * output dtype. (Only the sign and payload of a NaN may differ: IEEE 754 and Java leave them
 * unspecified, and the JIT may swap the operands of an add. Tests compare every NaN as equal.)
 *
 * <p><em>Lane-major</em> buffers hold {@link #lanes()} rows side by side: element k of row l is at
 * {@code buffer[at + k·lanes + l]}, so that one vector holds one position of every row.
 */
public interface KernelProvider {

    /** A short name for logs and benchmarks: {@code scalar}, {@code vector-512}, ... */
    String name();

    /** Rows a lane-major buffer holds side by side: the vector length in floats, or 1. */
    int lanes();

    /**
     * The backward of linear interpolation, gather form, for the {@link #lanes()} rows of lane-major
     * buffers: for each input {@code i0 <= i < i1}, {@code sums[(i - iBase)·lanes + l]} is continued with
     * {@code Σ w(i, j) · g[(j - jBase)·lanes + l]} over the j in {@code [jFrom, jTo)} that reach i, in the
     * canonical order: ascending j, and for one j the left-tap term before the right-tap term (both
     * taps are i only at i = lin - 1). That is the order of a scatter over ascending j (PyTorch's
     * {@code upsample_linear1d_backward} loop), so sums started at 0 and continued over consecutive
     * ranges of j give the same bits as one range. Every j in range contributes, even with a 0 weight:
     * 0 · Inf is NaN, as in PyTorch.
     *
     * @param table a built table ({@link LinearTable#full})
     */
    void sumLanes(LinearTable table, int i0, int i1, int jFrom, int jTo, float[] g, int jBase, float[] sums,
                  int iBase);

    /**
     * Forward linear interpolation for the {@link #lanes()} rows of lane-major buffers: for outputs
     * {@code j0 <= j < j1}, {@code y[(j - j0)·lanes + l] = w0[j] · x[(x0[j] - xBase)·lanes + l]
     * + w1[j] · x[(x1[j] - xBase)·lanes + l]}, the left product first (the reference's order).
     *
     * @param table a built table ({@link LinearTable#full})
     */
    void interpolateLanes(LinearTable table, int j0, int j1, float[] x, int xBase, float[] y);

    /**
     * {@link #sumLanes} over whole lines of a lane-major buffer, from +0: for lines {@code q0 <= q < q1},
     * line q's positions j ({@code 0 <= j < table.lout()}) at {@code from[(q·lout + j)·lanes + l]}, its
     * sum for input i at {@code to[(i·outStride + q)·lanes + l]} (a pass of the 2-D maps in lanes, which
     * stores its lines transposed). Same bits as {@link #sumLanes} line by line.
     *
     * @param line scratch of at least {@code table.lin()·lanes} floats
     */
    default void sumLines(LinearTable table, int q0, int q1, float[] from, float[] to, int outStride, float[] line) {
        int n = lanes();
        int inLen = table.lout();
        int outLen = table.lin();
        for (int q = q0; q < q1; q++) {
            java.util.Arrays.fill(line, 0, outLen * n, 0f);
            sumLanes(table, 0, outLen, 0, inLen, from, -q * inLen, line, 0);
            for (int k = 0; k < outLen; k++) {
                System.arraycopy(line, k * n, to, (k * outStride + q) * n, n);
            }
        }
    }

    /**
     * {@link #interpolateLanes} over whole lines, laid out as in {@link #sumLines}: line q's inputs at
     * {@code from[(q·lin + i)·lanes + l]}, its output j at {@code to[(j·outStride + q)·lanes + l]}.
     *
     * @param line scratch of at least {@code table.lout()·lanes} floats
     */
    default void interpolateLines(LinearTable table, int q0, int q1, float[] from, float[] to, int outStride,
                                  float[] line) {
        int n = lanes();
        int inLen = table.lin();
        int outLen = table.lout();
        for (int q = q0; q < q1; q++) {
            interpolateLanes(table, 0, outLen, from, -q * inLen, line);
            for (int k = 0; k < outLen; k++) {
                System.arraycopy(line, k * n, to, (k * outStride + q) * n, n);
            }
        }
    }

    /**
     * Transposes {@code count} positions of {@link #lanes()} rows, row l at {@code rows[rowsAt + l·rowStride + k]},
     * into the lane-major {@code lanes[at + k·lanes + l]}. May read {@code rows} up to position
     * {@code roundUp(count, lanes)} of each row and write {@code lanes} as far (buffers have that slack).
     *
     * @param spare scratch of at least {@code 2·lanes²} floats
     */
    void toLanes(float[] rows, int rowsAt, int rowStride, int count, float[] lanes, int at, float[] spare);

    /**
     * The inverse of {@link #toLanes}: writes exactly {@code count} positions of each row
     * {@code rows[rowsAt + l·rowStride + k]} from {@code lanes[at + k·lanes + l]}; may read {@code lanes} up to
     * position {@code roundUp(count, lanes)}.
     *
     * @param spare scratch of at least {@code 2·lanes²} floats
     */
    void fromLanes(float[] lanes, int at, int count, float[] rows, int rowsAt, int rowStride, float[] spare);

    /**
     * Copies {@code rows} rows of {@code bytes} bytes (at most 64), row r from byte {@code fromAt + r·fromPitch}
     * of {@code from} to byte {@code toAt + r·toPitch} of {@code to}, bytes unchanged; writes nothing else.
     */
    default void copyRows(MemorySegment from, long fromAt, long fromPitch, MemorySegment to, long toAt, long toPitch,
                          long rows, int bytes) {
        StridedCopy.typedRows(from, fromAt, fromPitch, to, toAt, toPitch, rows, bytes);
    }

    /**
     * Sorts {@code count} positions of {@code ways} rows stored side by side ({@code src[k·ways + r]}: the
     * channels of a channels-last run) into {@code ways} rows of consecutive elements ({@code r·count + k}),
     * bits unchanged; returns the array that holds them ({@code src} or {@code dst}; the other is overwritten).
     */
    default short[] unzip(short[] src, short[] dst, int ways, int count) {
        for (int r = 0; r < ways; r++) {
            for (int k = 0; k < count; k++) {
                dst[r * count + k] = src[k * ways + r];
            }
        }
        return dst;
    }

    /** {@link #unzip(short[], short[], int, int)} for 32-bit elements. */
    default int[] unzip(int[] src, int[] dst, int ways, int count) {
        for (int r = 0; r < ways; r++) {
            for (int k = 0; k < count; k++) {
                dst[r * count + k] = src[k * ways + r];
            }
        }
        return dst;
    }

    /** The inverse of {@link #unzip(short[], short[], int, int)}: {@code src[r·count + k]} to {@code k·ways + r}. */
    default short[] zip(short[] src, short[] dst, int ways, int count) {
        for (int r = 0; r < ways; r++) {
            for (int k = 0; k < count; k++) {
                dst[k * ways + r] = src[r * count + k];
            }
        }
        return dst;
    }

    /** {@link #zip(short[], short[], int, int)} for 32-bit elements. */
    default int[] zip(int[] src, int[] dst, int ways, int count) {
        for (int r = 0; r < ways; r++) {
            for (int k = 0; k < count; k++) {
                dst[k * ways + r] = src[r * count + k];
            }
        }
        return dst;
    }

    /**
     * Copies {@code count} positions of a lane-major buffer, {@code step} apart from position {@code from} of
     * {@code src}, to consecutive positions from {@code to} of {@code dst}: position {@code from + k·step} to
     * {@code to + k} (a channel's positions of channels-last batches in lanes, sorted into a line of their own).
     */
    default void copyPositions(float[] src, int from, int step, int count, float[] dst, int to) {
        int n = lanes();
        for (int k = 0; k < count; k++) {
            System.arraycopy(src, (from + k * step) * n, dst, (to + k) * n, n);
        }
    }

    /**
     * Gathers {@code count} positions of the first {@code rows} of {@link #lanes()} rows from {@code src}
     * (position k of row l at {@code src[at[l] + k·step]}) into the lane-major {@code lanes[to + k·lanes + l]};
     * lanes from {@code rows} on hold unspecified values.
     */
    default void gatherLanes(float[] src, int[] at, int rows, int step, int count, float[] lanes, int to) {
        int n = lanes();
        for (int k = 0; k < count; k++) {
            for (int l = 0; l < rows; l++) {
                lanes[to + k * n + l] = src[at[l] + k * step];
            }
        }
    }

    /**
     * The inverse of {@link #gatherLanes}: {@code dst[at[l] + k·step] = lanes[from + k·lanes + l]} for the
     * first {@code rows} lanes and {@code count} positions.
     */
    default void scatterLanes(float[] lanes, int from, int rows, int step, int count, float[] dst, int[] at) {
        int n = lanes();
        for (int k = 0; k < count; k++) {
            for (int l = 0; l < rows; l++) {
                dst[at[l] + k * step] = lanes[from + k * n + l];
            }
        }
    }

    /**
     * Reads {@code count} consecutive elements of {@code type} from element {@code first} of
     * {@code seg} into {@code dst[dstOff..]}, widened exactly to float (the reference is
     * {@link ElementCodec#decode}; every provider gives the same floats).
     */
    default void decodeRun(MemorySegment seg, DataType type, long first, int count, float[] dst, int dstOff) {
        ElementCodec.decode(seg, type, first, 1, count, dst, dstOff);
    }

    /**
     * Writes {@code src[srcOff..srcOff+count)} to {@code count} consecutive elements of {@code type}
     * from element {@code first}, rounding once to nearest even (the reference is
     * {@link ElementCodec#encode}; every provider writes the same bits, NaN payloads aside).
     */
    default void encodeRun(float[] src, int srcOff, int count, MemorySegment seg, DataType type, long first) {
        ElementCodec.encode(src, srcOff, count, seg, type, first, 1);
    }

    /**
     * Reads {@code count} consecutive elements of each of {@code rows} rows, row l's from element
     * {@code starts[l] + from}, into row l of {@code tile} ({@code tile[l·tileStride ..]}), widened exactly
     * ({@link #decodeRun} row by row). Rows of the tile have room for {@code count} rounded up to
     * {@link #lanes()}.
     */
    default void decodeRows(MemorySegment seg, DataType type, long[] starts, long from, int rows, int count,
                            float[] tile, int tileStride) {
        for (int l = 0; l < rows; l++) {
            decodeRun(seg, type, starts[l] + from, count, tile, l * tileStride);
        }
    }

    /**
     * Reads {@code count} positions of the first {@code rows} of {@link #lanes()} rows of consecutive elements, row l
     * from element {@code starts[l] + from}, straight into the lane-major {@code lanes} from 0 (as {@link #decodeRows}
     * then {@link #toLanes}, with no tile between) where this provider moves rows in registers; false, nothing read,
     * where it does not. Lanes from {@code rows} on hold unspecified values; {@code starts} from {@code rows} on may be
     * overwritten. May write {@code lanes} up to position {@code roundUp(count, lanes())}.
     *
     * @param spare scratch of at least {@code 2·lanes²} floats
     */
    default boolean rowsToLanes(MemorySegment seg, DataType type, long[] starts, int rows, long from, int count,
                                float[] lanes, float[] spare) {
        return false;
    }

    /**
     * The inverse of {@link #rowsToLanes}: writes exactly {@code count} positions of each of the first {@code rows}
     * rows from the lane-major {@code lanes}, rounded once, where this provider moves rows in registers; false,
     * nothing written, where it does not. Lanes and {@code starts} from {@code rows} on may be overwritten.
     *
     * @param spare scratch of at least {@code 2·lanes²} floats
     */
    default boolean lanesToRows(float[] lanes, int count, MemorySegment seg, DataType type, long[] starts, int rows,
                                long from, float[] spare) {
        return false;
    }

    /**
     * The inverse of {@link #decodeRows}: row l of {@code tile} to {@code count} consecutive elements from
     * element {@code starts[l] + from}, rounded once ({@link #encodeRun} row by row); writes nothing else.
     */
    default void encodeRows(float[] tile, int tileStride, int rows, int count, MemorySegment seg, DataType type,
                            long[] starts, long from) {
        for (int l = 0; l < rows; l++) {
            encodeRun(tile, l * tileStride, count, seg, type, starts[l] + from);
        }
    }

    /**
     * Writes {@code rows} rows of {@code length} elements, end to end in {@code buf} from 0, to rows
     * {@code pitch} elements apart ({@code pitch >= length}) from element {@code first}, rounded once
     * ({@link #encodeRun} row by row); writes nothing between the rows. {@code buf} has room for
     * {@code rows·length + lanes()} floats; {@code halves} (room for {@code rows·length + lanes()}) is scratch.
     */
    default void encodePitched(float[] buf, short[] halves, int length, int rows, long pitch, MemorySegment seg,
                               DataType type, long first) {
        for (int r = 0; r < rows; r++) {
            encodeRun(buf, r * length, length, seg, type, first + r * pitch);
        }
    }

    /**
     * Reads {@code count} positions of {@link #lanes()} neighbouring rows (row l of position k is element
     * {@code first + k·stride + l}: rows side by side, as in a channels-last tensor) into the lane-major
     * {@code lanes[at + k·lanes + l]}.
     */
    default void decodeLanes(MemorySegment seg, DataType type, long first, long stride, int count, float[] lanes,
                             int at) {
        int n = lanes();
        for (int k = 0; k < count; k++) {
            decodeRun(seg, type, first + k * stride, n, lanes, at + k * n);
        }
    }

    /** The inverse of {@link #decodeLanes}: lane-major sums to rows side by side, rounded once. */
    default void encodeLanes(float[] lanes, int at, int count, MemorySegment seg, DataType type, long first,
                             long stride) {
        int n = lanes();
        for (int k = 0; k < count; k++) {
            encodeRun(lanes, at + k * n, n, seg, type, first + k * stride);
        }
    }

    /**
     * Forward linear interpolation of {@code rows} rows for outputs {@code j0 <= j < j1}: row k's
     * {@code y[k·yPitch + j - yBase] = w0[j] · x[k·xPitch + x0[j] - xBase] + w1[j] · x[k·xPitch + x1[j] - xBase]},
     * the left product first.
     *
     * @param x input values of row k for positions {@code xBase ..} from {@code k·xPitch}, covering
     *          {@code [x0[j0], x1[j1 - 1]]}
     */
    default void linearForward(LinearTable table, float[] x, int xBase, int xPitch, float[] y, int yBase, int yPitch,
                               int rows, int j0, int j1) {
        for (int k = 0; k < rows; k++) {
            ScalarKernelProvider.forward(table, x, xBase - k * xPitch, y, j0, j1, yBase - k * yPitch);
        }
    }

    /**
     * Interpolation of one row of pixels along W for output elements {@code e0 <= e < e1}:
     * {@code y[e - yBase] = w0[e] · x[left[e] - xBase] + w1[e] · x[right[e] - xBase]}, the left product first.
     *
     * @param x input values for elements {@code xBase ..}, covering every tap of the elements
     */
    default void interpolateRow(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        ScalarKernelProvider.interpolateRowScalar(taps, e0, e1, x, xBase, y, yBase);
    }

    /**
     * Interpolation along W of a row of pixels of {@code pix} consecutive elements (channels-last), element c of in
     * pixel i, x[i·pix + c], at element {@code first + i·pix + c} of {@code seg}: element c of out pixel j is
     * {@code y[j·pix + c] = w0[j] · x[x0[j]·pix + c] + w1[j] · x[x1[j]·pix + c]}, the left product first, for
     * every out pixel of {@code t}. Each pixel's taps are two runs, so no table per element. {@code x} has room
     * for the row's {@code lin·pix} floats, should the row be decoded first.
     */
    default void interpolatePixels(LinearTable t, int pix, MemorySegment seg, DataType type, long first, float[] x,
                                   float[] y) {
        decodeRun(seg, type, first, t.lin() * pix, x, 0);
        ScalarKernelProvider.interpolatePixelsScalar(t, pix, x, y);
    }

    /**
     * The 2-D forward's out row of channels-last pixels from two self rows, where this provider runs both passes in
     * one loop: element k of the row is {@code a·t0[k] + b·t1[k]} (the left product first), where t0 and t1 are
     * the self rows at elements {@code first0} and {@code first1} of {@code seg} interpolated along W as by {@link
     * #interpolatePixels} (W not an identity), rounded once to {@code type} at element {@code at} of {@code out};
     * false, nothing written, where it does not.
     */
    default boolean combinePixels(LinearTable w, int pix, float a, long first0, float b, long first1,
                                  MemorySegment seg, DataType type, MemorySegment out, long at) {
        return false;
    }

    /**
     * The 1-D backward's sums, channel by channel, of a row of pixels of {@code pix} consecutive elements
     * (channels-last), element c of gradOut pixel j, g[j·pix + c], at element {@code first + j·pix + c} of
     * {@code seg}: element c of in pixel i, {@code y[i·pix + c]}, is +0 continued with the terms of the gradOut
     * pixels j that reach i, {@code w0[j] · g[j·pix + c]} where i is j's left tap and {@code w1[j] · g[j·pix + c]}
     * where it is j's right tap, in ascending j, left before right: the canonical order of {@link #sumLanes}.
     * {@code g} has room for the row's {@code lout·pix} floats, should the row be decoded first.
     */
    default void sumPixels(LinearTable t, int pix, MemorySegment seg, DataType type, long first, float[] g,
                           float[] y) {
        decodeRun(seg, type, first, t.lout() * pix, g, 0);
        ScalarKernelProvider.sumPixelsScalar(t, pix, g, y);
    }

    /**
     * The 1-D backward's sums of one row for elements {@code e0 <= e < e1}: {@code y[e - yBase]} is +0
     * continued with {@code w[q] · g[at[q] - gBase]} for each slot k in turn where {@code has[q]}, q = k·stride + e
     * ({@link RowSums}: the canonical order of {@link #sumLanes}).
     *
     * @param g gradOut values for elements {@code gBase ..}, covering every slot of the elements
     */
    default void sumRow(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        ScalarKernelProvider.sumRowScalar(sums, e0, e1, g, gBase, y, yBase);
    }

    /**
     * The 2-D forward's H combination of two intermediate rows into out: element k is {@code a·u[k] + b·v[k]} (the
     * left product first), rounded once to {@code type} at element {@code first + k} of {@code seg}; {@code y} has
     * room for {@code count} floats.
     */
    default void combineRun(float a, float[] u, float b, float[] v, float[] y, int count, MemorySegment seg,
                            DataType type, long first) {
        for (int k = 0; k < count; k++) {
            y[k] = a * u[k] + b * v[k];
        }
        encodeRun(y, 0, count, seg, type, first);
    }

    /**
     * {@link #sumRow} from one tensor's run into another's: element e's slot at position j reads element
     * {@code gAt + j} of {@code g}, and its sum is stored, rounded once, at element {@code yAt + e} of {@code y}
     * (both tensors of {@code type}). Positions {@code jLo <= j < jHi} hold every term of the elements;
     * {@code gScratch} and {@code yScratch} have room for {@code jHi - jLo} and {@code e1 - e0} floats.
     */
    default void sumRowRun(RowSums sums, int e0, int e1, int jLo, int jHi, MemorySegment g, long gAt, MemorySegment y,
                           long yAt, DataType type, float[] gScratch, float[] yScratch) {
        decodeRun(g, type, gAt + jLo, jHi - jLo, gScratch, 0);
        sumRow(sums, e0, e1, gScratch, jLo, yScratch, e0);
        encodeRun(yScratch, 0, e1 - e0, y, type, yAt + e0);
    }

    /**
     * {@link #sumRow} on {@code rows} rows sharing the sums: row k's gradOut values for elements {@code gBase ..}
     * from {@code g[k·gPitch]}, its sums into {@code y[k]}.
     */
    default void sumRows(RowSums sums, int e0, int e1, float[] g, int gBase, int gPitch, float[][] y, int yBase,
                         int rows) {
        for (int k = 0; k < rows; k++) {
            sumRow(sums, e0, e1, g, gBase - k * gPitch, y[k], yBase);
        }
    }
}
