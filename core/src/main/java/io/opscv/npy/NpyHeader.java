package io.opscv.npy;

import java.util.Arrays;

/**
 * The header of a .npy file: the NumPy dtype descriptor (e.g. {@code <f4}), the shape, and where
 * the data starts. Only C order is accepted, so the data is the elements in row-major order.
 *
 * @param descr      the descriptor as written, e.g. {@code <f4}, {@code |b1}
 * @param shape      the dimensions
 * @param dataOffset the byte offset of the data in the file
 */
public record NpyHeader(String descr, long[] shape, long dataOffset) {

    /** {@return the number of elements (validated to fit a long when the header was read)} */
    public long numel() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** {@return the bytes per element, from the descriptor's size digits} */
    public int itemSize() {
        return NpyDtype.itemSize(descr);
    }

    /** {@return the bytes of data: numel · itemSize} */
    public long dataBytes() {
        return Math.multiplyExact(numel(), (long) itemSize());
    }

    @Override
    public String toString() {
        return "NpyHeader[descr=" + descr + ", shape=" + Arrays.toString(shape) + ", dataOffset=" + dataOffset + "]";
    }
}
