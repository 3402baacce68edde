package io.opscv.verify;

/**
 * Reorders row-major values between channels-first (N, C, spatial...) and channels-last
 * (N, spatial..., C), so that the float64 references, which work channels first, serve NHWC cases.
 */
final class ChannelsLast {
    private ChannelsLast() {}

    /** (N, spatial..., C) values, {@code spatial} elements per plane, as (N, C, spatial...). */
    static double[] toChannelsFirst(double[] values, int n, int c, int spatial) {
        double[] out = new double[values.length];
        for (int i = 0; i < n; i++) {
            for (int s = 0; s < spatial; s++) {
                for (int k = 0; k < c; k++) {
                    out[(i * c + k) * spatial + s] = values[(i * spatial + s) * c + k];
                }
            }
        }
        return out;
    }

    /** (N, C, spatial...) values as (N, spatial..., C). */
    static double[] toChannelsLast(double[] values, int n, int c, int spatial) {
        double[] out = new double[values.length];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < c; k++) {
                for (int s = 0; s < spatial; s++) {
                    out[(i * spatial + s) * c + k] = values[(i * c + k) * spatial + s];
                }
            }
        }
        return out;
    }
}
