package io.opscv.reference;

/**
 * The taps of linear interpolation along one axis (SPEC §1), in double precision: for each output
 * position j, the input positions it reads and their weights. Written from SPEC §1 and PyTorch's
 * {@code area_pixel_compute_scale}, {@code area_pixel_compute_source_index} and
 * {@code compute_source_index_and_lambda} (aten/src/ATen/native/UpSample.h), on purpose without
 * reusing {@code io.opscv.kernel.LinearTable}: the reference must not share a bug with the kernels.
 *
 * <p>Every output position has two taps, {@code (x0, λ0)} and {@code (x1, λ1)}, both kept even when a
 * weight is 0 or {@code x0 == x1}: PyTorch adds both, so a 0-weight tap turns ±Inf into NaN. The one
 * exception is {@code lin == lout}, where the operators copy (SPEC §1): one tap {@code (j, 1)}.
 */
final class AxisTaps {
    private final int lin;
    private final int lout;
    private final boolean identity;
    private final int[] x0;
    private final int[] x1;
    private final double[] lambda0;
    private final double[] lambda1;

    private AxisTaps(int lin, int lout, boolean identity, int[] x0, int[] x1, double[] lambda0, double[] lambda1) {
        this.lin = lin;
        this.lout = lout;
        this.identity = identity;
        this.x0 = x0;
        this.x1 = x1;
        this.lambda0 = lambda0;
        this.lambda1 = lambda1;
    }

    /**
     * The taps for an axis of input length {@code lin} and output length {@code lout}.
     *
     * @param scales the forward multiplier of this axis (lout ≈ lin · scales); ≤ 0 means "not given"
     */
    static AxisTaps of(int lin, int lout, boolean alignCorners, double scales) {
        if (lin <= 0 || lout <= 0) {
            throw new IllegalArgumentException("lin (" + lin + ") and lout (" + lout + ") must be > 0");
        }
        int[] x0 = new int[lout];
        int[] x1 = new int[lout];
        double[] lambda0 = new double[lout];
        double[] lambda1 = new double[lout];
        if (lin == lout) {
            for (int j = 0; j < lout; j++) {
                x0[j] = j;
                x1[j] = j;
                lambda0[j] = 1.0;
            }
            return new AxisTaps(lin, lout, true, x0, x1, lambda0, lambda1);
        }
        double scale;
        if (alignCorners) {
            scale = lout > 1 ? (lin - 1.0) / (lout - 1.0) : 0.0;
        } else {
            scale = scales > 0 ? 1.0 / scales : (double) lin / lout;
        }
        for (int j = 0; j < lout; j++) {
            double src = alignCorners ? scale * j : Math.max(0.0, scale * (j + 0.5) - 0.5);
            int left = (int) Math.min(Math.floor(src), lin - 1.0);
            x0[j] = left;
            x1[j] = left < lin - 1 ? left + 1 : left;
            lambda1[j] = Math.min(Math.max(src - left, 0.0), 1.0);
            lambda0[j] = 1.0 - lambda1[j];
        }
        return new AxisTaps(lin, lout, false, x0, x1, lambda0, lambda1);
    }

    int lin() {
        return lin;
    }

    int lout() {
        return lout;
    }

    /** Taps per output position: 1 on an identity axis, else 2. */
    int tapCount() {
        return identity ? 1 : 2;
    }

    /** Input position of tap {@code k} (0 or 1) of output {@code j}. */
    int index(int j, int k) {
        return k == 0 ? x0[j] : x1[j];
    }

    /** Weight of tap {@code k} (0 or 1) of output {@code j}. */
    double weight(int j, int k) {
        return k == 0 ? lambda0[j] : lambda1[j];
    }

    /** The most taps of non-zero weight that read one output position (the forward's terms per element). */
    int maxGatherTerms() {
        int most = 0;
        for (int j = 0; j < lout; j++) {
            int count = 0;
            for (int k = 0; k < tapCount(); k++) {
                count += weight(j, k) != 0.0 ? 1 : 0;
            }
            most = Math.max(most, count);
        }
        return most;
    }

    /** The most taps of non-zero weight that land on one input position (the backward's terms per element). */
    int maxScatterTerms() {
        int[] count = new int[lin];
        for (int j = 0; j < lout; j++) {
            for (int k = 0; k < tapCount(); k++) {
                if (weight(j, k) != 0.0) {
                    count[index(j, k)]++;
                }
            }
        }
        int most = 0;
        for (int c : count) {
            most = Math.max(most, c);
        }
        return most;
    }
}
