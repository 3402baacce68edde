package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The inner loops of the resize kernels, on {@code float[]} working buffers. Implementations:
 * {@link ScalarKernelProvider} (the reference, always available) and {@code VectorKernelProvider}
 * (Vector API), loaded by {@link KernelProviders} when {@code jdk.incubator.vector} is present.
 *
 * <p>Every implementation must give bit-identical results: each output is a sum in the canonical
 * order defined below, of float products, without fused multiply-add, rounded once to the output
 * dtype. (Only the sign and payload of a NaN may differ: IEEE 754 and Java leave them unspecified,
 * and the JIT may swap the operands of an add. Tests compare every NaN as equal.)
 */
public interface KernelProvider {

    /** A short name for logs and benchmarks: {@code scalar}, {@code vector-512}, ... */
    String name();

    /**
     * Floats of {@code work} that the block form of {@code linearBackward} needs for up to {@code rows} rows of a block of up to {@code inputs} inputs whose gather range
     * has up to {@code span} positions.
     */
    default int backwardWorkFloats(int inputs, int span, int rows) {
        return 0;
    }

    /**
     * Backward of linear interpolation, gather form, for inputs {@code i0 <= i < i1} of {@code rows}
     * rows: {@code acc[accOffset + r·accRowStride + (i - i0)] =
     * Σ_j w(i, j) · g[gOffset + r·gRowStride + (j - jLo)]}
     * with {@code jLo = table.gatherFrom(i0)}, summed from 0f in the canonical order — ascending j,
     * and for one j the left-tap term before the right-tap term (both taps are i only at
     * i = lin - 1). That is the order in which a scatter over ascending j would add them (and the
     * order of PyTorch's {@code upsample_linear1d_backward} loop), so the result does not depend on
     * how the inputs are split into blocks, rows or threads. Every j in range contributes, even with
     * a 0 weight: 0 · Inf is NaN, as in PyTorch.
     *
     * @param g    gradOut values; row r holds positions {@code [table.gatherFrom(i0), table.gatherTo(i1))}
     *             from index {@code gOffset + r·gRowStride}
     * @param work scratch of at least {@link #backwardWorkFloats(int, int, int)} floats ({@code null}
     *             when that is 0)
     */
    void linearBackward(LinearTable table, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                        float[] acc, int accOffset, int accRowStride, float[] work);

    /**
     * The backward for {@code rows} rows stored side by side, position-major: row r's position j
     * is {@code g[(j - table.gatherFrom(i0))·rows + r]} (the layout of a transposed gradOut, read a
     * position at a time); the sums go row-major to {@code acc[accOffset + r·accRowStride + (i - i0)]}.
     * Same sums, same canonical order as the row-major form.
     *
     * @param work scratch of at least {@code 16·(i1 - i0)} floats
     */
    default void linearBackwardSideBySide(LinearTable table, int i0, int i1, int rows, float[] g, float[] acc,
                                          int accOffset, int accRowStride, float[] work) {
        ScalarKernelProvider.sideBySide(table, i0, i1, rows, 0, g, acc, accOffset, accRowStride);
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
     * {@link ElementCodec#decodeRows}: {@code rows} runs of {@code count} elements, run r from
     * element {@code first + r·rowStride}, its elements {@code stride} apart, into
     * {@code dst[dstOff + r·dstRowStride ..]}; every provider gives the same floats.
     */
    default void decodeRows(MemorySegment seg, DataType type, long first, long stride, long rowStride, int rows,
                            int count, float[] dst, int dstOff, int dstRowStride) {
        ElementCodec.decodeRows(seg, type, first, stride, rowStride, rows, count, dst, dstOff, dstRowStride);
    }

    /**
     * Reads {@code count} positions of {@code rows} neighbouring rows (row r of position k is
     * element {@code first + k·stride + r}) into the position-major layout
     * {@code dst[k·rows + r]} of {@link #linearBackwardSideBySide}; every provider gives the same floats.
     */
    default void decodeSideBySide(MemorySegment seg, DataType type, long first, long stride, int rows, int count,
                                  float[] dst) {
        for (int k = 0; k < count; k++) {
            ElementCodec.decode(seg, type, first + k * stride, 1, rows, dst, k * rows);
        }
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
     * Whether {@link #linearBackwardInPlace} handles this table and dtype.
     */
    default boolean backwardInPlace(LinearTable table, DataType type) {
        return false;
    }

    /**
     * Whether {@link #linearBackwardInPlace} runs best on few rows per call, each in a long block, for
     * this (built) table and dtype: true where its forms' per-group set-up is light or shared by
     * neighbouring groups, so that it need not be spread over many rows. The driver then gives calls
     * of many long rows two rows each.
     */
    default boolean fewRowsPerCall(LinearTable table, DataType type) {
        return false;
    }

    /**
     * Whether {@link #linearBackwardInPlace} takes whole rows of this table and dtype (rows of few inputs)
     * through a form whose set-up is made once per call and whose per-row cost is small, so that the driver
     * should give it many rows per call ({@code Linear1dBackwardKernel.SHORT_FORM_BLOCK}).
     */
    default boolean shortRowsForm(LinearTable table, DataType type) {
        return false;
    }

    /**
     * The backward for inputs {@code i0 <= i < i1} of {@code rows} rows whose elements are
     * contiguous in both tensors, read from and written to device memory directly, with no buffer
     * in between: in row r, gradOut position {@code j} is element
     * {@code gFirst + r·gRowStride + (j - table.gatherFrom(i0))} of {@code gradOut}, and input i
     * goes to element {@code oFirst + r·oRowStride + (i - i0)} of {@code out}, both of {@code type}.
     * Same sums, same canonical order, same rounding as the buffered form. Called only when
     * {@link #backwardInPlace} said yes, on native segments whose scopes are
     * {@linkplain io.opscv.runtime.PinnedScopes#isHeld held} for the call (a provider may access them
     * at raw addresses, having checked the call's bounds once).
     */
    default void linearBackwardInPlace(LinearTable table, int i0, int i1, int rows, MemorySegment gradOut,
                                       long gFirst, long gRowStride, MemorySegment out, long oFirst, long oRowStride,
                                       DataType type) {
        throw new UnsupportedOperationException(name() + " has no in-place backward");
    }

    /**
     * Whether {@link #linearBackwardSideBySideInPlace} is available (FLOAT rows only).
     */
    default boolean sideBySideInPlace() {
        return false;
    }

    /** Floats of scratch {@link #linearBackwardSideBySideInPlace} needs for a block of {@code inputs} inputs. */
    default int sideBySideWorkFloats(int inputs) {
        return 0;
    }

    /**
     * {@link #linearBackwardSideBySide} straight from and to device memory, FLOAT only, with no
     * buffer in between: position {@code j} of row r is element
     * {@code gFirst + (j - table.gatherFrom(i0))·gStride + r} of {@code gradOut} (the rows side by side,
     * as in a transposed view), and input i of row r goes to element
     * {@code oFirst + r·oRowStride + (i - i0)} of {@code out}. Same sums, same canonical order.
     * Called only when {@link #sideBySideInPlace} said yes, on native segments whose scopes are
     * {@linkplain io.opscv.runtime.PinnedScopes#isHeld held} for the call, as for
     * {@link #linearBackwardInPlace}.
     *
     * @param work scratch of at least {@link #sideBySideWorkFloats}{@code (i1 - i0)} floats
     */
    default void linearBackwardSideBySideInPlace(LinearTable table, int i0, int i1, int rows, MemorySegment gradOut,
                                                 long gFirst, long gStride, MemorySegment out, long oFirst,
                                                 long oRowStride, float[] work) {
        throw new UnsupportedOperationException(name() + " has no in-place side-by-side backward");
    }

    /**
     * Taps and weights of outputs {@code first .. first + count - 1} of an axis with {@code lin} inputs and
     * source index {@code src = max(scale·(j + half) - half, 0)}, into {@code x0[at .. at + count)} (the tap
     * less {@code tapBase}), {@code w0}, {@code w1}: exactly the values of {@link LinearTable#fillTaps}, the
     * reference, whose double-precision steps every provider repeats one for one.
     */
    default void fillTaps(int[] x0, float[] w0, float[] w1, int at, int first, int count, int lin, double scale,
                          double half, int tapBase) {
        LinearTable.fillTaps(x0, w0, w1, at, first, count, lin, scale, half, tapBase);
    }

    /**
     * The gather bounds of a window from its taps: {@code starts[0] = 0} and, for {@code 1 <= k < length},
     * {@code starts[k]} = the first m whose {@code taps[m] + 1 >= k}, or {@code count} if none. The taps
     * {@code taps[0 .. count)} never decrease and are at least -1. The reference is
     * {@link LinearTable#firstReaching}; every provider gives the same bounds.
     */
    default void firstReaching(int[] taps, int count, int[] starts, int length) {
        LinearTable.firstReaching(taps, count, starts, length);
    }

    /**
     * How many rows this provider sums at once (its vector length in floats), or 1: the driver
     * hands it groups of rows that are multiples of this where it can.
     */
    default int rowsPerVector() {
        return 1;
    }

    /**
     * One row of {@link #linearBackward(LinearTable, int, int, int, float[], int, int, float[], int, int, float[])}:
     * {@code acc[i - i0] = Σ w(i, j) · g[j - jBase]}.
     *
     * @param g gradOut values for positions {@code jBase ..}, covering
     *          {@code [table.gatherFrom(i0), table.gatherTo(i1))}
     */
    default void linearBackward(LinearTable table, float[] g, int jBase, float[] acc, int i0, int i1) {
        int jLo = table.gatherFrom(i0);
        int span = table.gatherTo(i1) - jLo;
        int need = backwardWorkFloats(i1 - i0, span, 1);
        linearBackward(table, i0, i1, 1, g, jLo - jBase, span, acc, 0, i1 - i0, need == 0 ? null : new float[need]);
    }

    /**
     * Forward linear interpolation for outputs {@code j0 <= j < j1}:
     * {@code y[j - j0] = w0[j] · x[x0[j] - xBase] + w1[j] · x[x1[j] - xBase]}.
     *
     * @param x input values for positions {@code xBase ..}, covering {@code [x0[j0], x1[j1 - 1]]}
     */
    void linearForward(LinearTable table, float[] x, int xBase, float[] y, int j0, int j1);
}
