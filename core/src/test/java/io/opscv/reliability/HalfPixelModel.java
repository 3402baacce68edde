package io.opscv.reliability;

import io.opscv.plan.Executor;
import io.opscv.plan.PlanStep;
import io.opscv.plan.ResizeBilinearV2Grad5HdStep;
import io.opscv.plan.ResizeBilinearV2Step;

/**
 * A float64 model of what the fallback plans compute (SPEC §6, docs/PLANS.md "The fallback's faithful exception"):
 * TensorFlow's half-pixel bilinear resize and its gradient from the sizes only, whatever scales says. For finite
 * values it is SPEC §1 with scales not given, up to rounding; NaN and ±Inf land where TensorFlow's taps put them.
 * Per axis: scale = (in − 1) / (out − 1) with alignCorners and out > 1, else in / out; source (j + 0.5)·scale − 0.5
 * (j·scale with alignCorners), not clamped; taps max(floor, 0) and min(ceil, in − 1) with weights 1 − lerp and
 * lerp; both taps applied; an axis of equal sizes copies. The 1-D operators are the 2-D ones with H = 1.
 */
final class HalfPixelModel {
    private HalfPixelModel() {}

    /** Whether the plan phase 1 built takes the sizes only (a ResizeBilinearV2Grad5Hd or ResizeBilinearV2 step). */
    static boolean sizesOnly(Executor executor) {
        for (PlanStep step : executor.steps()) {
            if (step instanceof ResizeBilinearV2Grad5HdStep || step instanceof ResizeBilinearV2Step) {
                return true;
            }
        }
        return false;
    }

    /** Forward: (planes, hin, win) → (planes, hout, wout). */
    static double[] forward(double[] self, int planes, int hin, int win, int hout, int wout, boolean alignCorners) {
        Axis h = new Axis(hin, hout, alignCorners);
        Axis w = new Axis(win, wout, alignCorners);
        double[] out = new double[planes * hout * wout];
        for (int p = 0; p < planes; p++) {
            for (int y = 0; y < hout; y++) {
                for (int x = 0; x < wout; x++) {
                    double sum = 0;
                    for (int a = 0; a < h.taps(); a++) {
                        for (int b = 0; b < w.taps(); b++) {
                            sum += h.weight(y, a) * w.weight(x, b) * self[(p * hin + h.index(y, a)) * win + w.index(x, b)];
                        }
                    }
                    out[(p * hout + y) * wout + x] = sum;
                }
            }
        }
        return out;
    }

    /** Backward: gradOut (planes, hout, wout) → gradInput (planes, hin, win). */
    static double[] backward(double[] gradOut, int planes, int hin, int win, int hout, int wout, boolean alignCorners) {
        Axis h = new Axis(hin, hout, alignCorners);
        Axis w = new Axis(win, wout, alignCorners);
        double[] out = new double[planes * hin * win];
        for (int p = 0; p < planes; p++) {
            for (int y = 0; y < hout; y++) {
                for (int x = 0; x < wout; x++) {
                    double g = gradOut[(p * hout + y) * wout + x];
                    for (int a = 0; a < h.taps(); a++) {
                        for (int b = 0; b < w.taps(); b++) {
                            out[(p * hin + h.index(y, a)) * win + w.index(x, b)] += h.weight(y, a) * w.weight(x, b) * g;
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Terms of the forward: at most 2 per axis. */
    static int forwardTerms(int hin, int hout, int win, int wout) {
        return (hin == hout ? 1 : 2) * (win == wout ? 1 : 2);
    }

    /** Terms of the backward: the most taps landing on one input position, multiplied over the axes. */
    static int backwardTerms(int hin, int hout, int win, int wout, boolean alignCorners) {
        return new Axis(hin, hout, alignCorners).maxScatter() * new Axis(win, wout, alignCorners).maxScatter();
    }

    private static final class Axis {
        final int in;
        final int out;
        final int[] top;
        final int[] bottom;
        final double[] lerp;

        Axis(int in, int out, boolean alignCorners) {
            this.in = in;
            this.out = out;
            top = new int[out];
            bottom = new int[out];
            lerp = new double[out];
            double scale = alignCorners && out > 1 ? (in - 1.0) / (out - 1.0) : (double) in / out;
            for (int j = 0; j < out; j++) {
                double source = alignCorners ? j * scale : (j + 0.5) * scale - 0.5;
                top[j] = (int) Math.max(Math.floor(source), 0);
                bottom[j] = (int) Math.min(Math.ceil(source), in - 1);
                lerp[j] = source - Math.floor(source);
            }
        }

        int taps() {
            return in == out ? 1 : 2;
        }

        int index(int j, int tap) {
            return in == out ? j : tap == 0 ? top[j] : bottom[j];
        }

        double weight(int j, int tap) {
            return in == out ? 1.0 : tap == 0 ? 1.0 - lerp[j] : lerp[j];
        }

        int maxScatter() {
            int[] count = new int[in];
            for (int j = 0; j < out; j++) {
                for (int tap = 0; tap < taps(); tap++) {
                    count[index(j, tap)]++;
                }
            }
            return java.util.Arrays.stream(count).max().orElse(1);
        }
    }
}
