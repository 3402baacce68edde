package io.opscv.kernel;

/**
 * The coordinates of TensorFlow's {@code ResizeBilinear} / {@code ResizeBilinearGrad} along one axis,
 * as upstream's {@code ResizeBilinearV2} and {@code ResizeBilinearV2Grad5Hd} kernels take them: from
 * the two sizes only (no scales), with {@code halfPixelCenters = !alignCorners} (SPEC §6).
 *
 * <ul>
 *   <li>scale = (in − 1) / (out − 1) when alignCorners and out > 1, else in / out
 *       (TensorFlow's {@code CalculateResizeScale});</li>
 *   <li>source = (j + 0.5) · scale − 0.5 with half-pixel centres, j · scale otherwise; not clamped;</li>
 *   <li>taps top = max(floor(source), 0) and bottom = min(ceil(source), in − 1), weights
 *       1 − lerp and lerp with lerp = source − floor(source).</li>
 * </ul>
 *
 * <p>This gives the same interpolation as SPEC §1 with scales not given, up to rounding: where the
 * source falls left of 0 both taps are 0 and the two weights land on the same element. Coordinates
 * are computed in double precision and the weights rounded to float once, as {@link LinearTable}
 * does. When in == out the axis is the identity (SPEC §1: equal sizes copy).
 */
public final class HalfPixelTaps {
    private final int in;
    private final int out;
    private final boolean identity;
    private final int[] top;
    private final int[] bottom;
    private final float[] wTop;
    private final float[] wBottom;

    private HalfPixelTaps(int in, int out, boolean identity, int[] top, int[] bottom, float[] wTop, float[] wBottom) {
        this.in = in;
        this.out = out;
        this.identity = identity;
        this.top = top;
        this.bottom = bottom;
        this.wTop = wTop;
        this.wBottom = wBottom;
    }

    /** The taps of an axis resized from {@code in} to {@code out} elements (both ≥ 1). */
    public static HalfPixelTaps of(int in, int out, boolean alignCorners) {
        if (in <= 0 || out <= 0) {
            throw new IllegalArgumentException("in (" + in + ") and out (" + out + ") must be > 0");
        }
        int[] top = new int[out];
        int[] bottom = new int[out];
        float[] wTop = new float[out];
        float[] wBottom = new float[out];
        double scale = alignCorners && out > 1 ? (in - 1.0) / (out - 1.0) : (double) in / out;
        boolean halfPixelCenters = !alignCorners;
        for (int j = 0; j < out; j++) {
            double source = halfPixelCenters ? (j + 0.5) * scale - 0.5 : j * scale;
            double floor = Math.floor(source);
            top[j] = (int) Math.max(floor, 0);
            bottom[j] = (int) Math.min(Math.ceil(source), in - 1);
            double lerp = source - floor;
            wBottom[j] = (float) lerp;
            wTop[j] = (float) (1.0 - lerp);
        }
        return new HalfPixelTaps(in, out, in == out, top, bottom, wTop, wBottom);
    }

    public int in() {
        return in;
    }

    public int out() {
        return out;
    }

    /** True when in == out: the axis is copied. */
    public boolean identity() {
        return identity;
    }

    public int top(int j) {
        return top[j];
    }

    public int bottom(int j) {
        return bottom[j];
    }

    public float wTop(int j) {
        return wTop[j];
    }

    public float wBottom(int j) {
        return wBottom[j];
    }
}
