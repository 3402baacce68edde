package io.opscv.kernel;

/**
 * Reads and writes one row of a tensor as a {@code float[]}: {@code count} groups of {@code group}
 * consecutive elements (a 5HD row is W groups of C0 channels; a plain row is groups of 1), the
 * groups {@code groupStride} elements apart.
 */
final class Rows {
    private Rows() {}

    static void read(StridedTensor t, long first, long groupStride, int group, int count, float[] dst) {
        if (group == 1 || groupStride == group) {
            long stride = group == 1 ? groupStride : 1;
            ElementCodec.decode(t.segment(), t.dataType(), first, stride, group * count, dst, 0);
            return;
        }
        for (int k = 0; k < count; k++) {
            ElementCodec.decode(t.segment(), t.dataType(), first + k * groupStride, 1, group, dst, k * group);
        }
    }

    static void write(StridedTensor t, long first, long groupStride, int group, int count, float[] src) {
        if (group == 1 || groupStride == group) {
            long stride = group == 1 ? groupStride : 1;
            ElementCodec.encode(src, 0, group * count, t.segment(), t.dataType(), first, stride);
            return;
        }
        for (int k = 0; k < count; k++) {
            ElementCodec.encode(src, k * group, group, t.segment(), t.dataType(), first + k * groupStride, 1);
        }
    }
}
