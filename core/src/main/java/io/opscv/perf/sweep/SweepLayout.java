package io.opscv.perf.sweep;

/**
 * How a sweep case lays its tensors out in memory (the CSV's {@code layout} column). The shapes in the CSV
 * are always the logical ones, (N, C, L) or (N, C, H, W); the layout says how they are stored.
 */
public enum SweepLayout {
    /** 1-D: both tensors contiguous (N, C, L). */
    CONTIGUOUS("contiguous"),
    /**
     * 1-D: the operator's input (gradOut for the backward, self for the forward) is channels-last storage
     * (N, L, C) viewed as (N, C, L) (strides L·C, 1, C); out contiguous.
     */
    TRANSPOSED("transposed"),
    /**
     * 1-D: the input contiguous; out a view whose rows lie {@link #stridedOutPitch} elements apart in a wider
     * storage (N, C, pitch), as when out is a slice of a larger buffer.
     */
    STRIDED_OUT("strided_out"),
    /** 2-D: both tensors NCHW, contiguous. */
    NCHW("nchw"),
    /** 2-D: both tensors NHWC (format NHWC, views (N, H, W, C)), contiguous. */
    NHWC("nhwc");

    private final String label;

    SweepLayout(String label) {
        this.label = label;
    }

    /** The name in the CSV. */
    public String label() {
        return label;
    }

    /** The row pitch of the strided out: an eighth wider than a row, and at least one element. */
    public static long stridedOutPitch(long rowLength) {
        return rowLength + Math.max(1, rowLength / 8);
    }
}
