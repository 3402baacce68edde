package io.opscv.reliability;

import static io.opscv.reliability.Expectation.word;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import java.util.List;

/**
 * What the 2-D operators' fuzz oracles share: the NCHW / NHWC orders (docs/PLANS.md §2: a view shape, and the
 * backward's inputSize, follow the format; ND is read as NCHW), the format rules and the dtype lists.
 */
final class TwoD {
    private TwoD() {}

    /** The longest axis a fuzzed 2-D call may interpolate (see the operators' knownGap()). */
    static final long MAX_TABLE_AXIS = 1L << 24;

    /** (N, C, H, W) given in NCHW order, in {@code layout}'s order. */
    static long[] inLayout(long[] nchw, Format layout) {
        return layout == Format.NHWC ? new long[] {nchw[0], nchw[2], nchw[3], nchw[1]} : nchw.clone();
    }

    /** A 4-element shape in {@code layout}'s order, as (N, C, H, W). */
    static long[] toNchw(long[] shape, Format layout) {
        return layout == Format.NHWC ? new long[] {shape[0], shape[3], shape[1], shape[2]} : shape.clone();
    }

    /** The position of NCHW dimension {@code nchwAxis} in {@code layout}'s order. */
    static int axis(int nchwAxis, Format layout) {
        return layout == Format.NHWC ? new int[] {0, 3, 1, 2}[nchwAxis] : nchwAxis;
    }

    /** Row-major values of a view of {@code shape} in {@code layout}'s order, reordered as NCHW. */
    static double[] nchwValues(double[] values, long[] shape, Format layout) {
        if (layout != Format.NHWC) {
            return values;
        }
        int n = (int) shape[0];
        int h = (int) shape[1];
        int w = (int) shape[2];
        int c = (int) shape[3];
        double[] nchw = new double[values.length];
        for (int i = 0; i < n; i++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    for (int k = 0; k < c; k++) {
                        nchw[((i * c + k) * h + y) * w + x] = values[((i * h + y) * w + x) * c + k];
                    }
                }
            }
        }
        return nchw;
    }

    /**
     * The format rules, in order: the input's format is NCHW, NHWC or ND, then out's, then both have one layout
     * (both NHWC or neither); {@code null} when they hold.
     */
    static Expectation formatRules(Tensor input, String inputName, Tensor out) {
        List<Format> formats = List.of(Format.NCHW, Format.NHWC, Format.ND);
        if (!formats.contains(input.format())) {
            return Expectation.invalid(inputName + " format", word(inputName));
        }
        if (!formats.contains(out.format())) {
            return Expectation.invalid("out format", word("out"));
        }
        if ((input.format() == Format.NHWC) != (out.format() == Format.NHWC)) {
            return Expectation.invalid("one layout", word(inputName) + ".*" + word("out"));
        }
        return null;
    }

    /** SPEC §6 and §10: every platform takes FLOAT16, FLOAT and BF16, but the training series has no BF16. */
    static List<DataType> dtypes(Platform platform) {
        return platform == Platform.ASCEND910 ? List.of(DataType.FLOAT16, DataType.FLOAT)
                : List.of(DataType.FLOAT16, DataType.FLOAT, DataType.BF16);
    }
}
