package io.opscv.perf;

import io.opscv.runtime.DataType;
import java.util.List;
import java.util.Optional;

/** The benchmark cases of issue 4, in its order; names are the JMH {@code @Param} values. */
public final class BenchmarkCases {
    private static final List<BenchmarkCase> ALL = List.of(
            fp32("up2x", 32, 64, 16384, 32768, false, 0, 1.25),
            fp32("up2x_ac", 32, 64, 16384, 32768, true, 0, 1.25),
            fp32("down4x", 32, 64, 32768, 8192, false, 0, 1.25),
            // Scales not given: the scale is derived from the sizes (7000 / 25900).
            fp32("up3.7x", 8, 128, 7000, 25900, false, 0, 1.25),
            fp32("long_row", 1, 2, 1 << 19, 1 << 20, false, 0, 1.5),
            fp32("short_rows", 4096, 64, 16, 64, false, 0, 1.5),
            new BenchmarkCase("up2x", DataType.FLOAT16, 32, 64, 16384, 32768, false, 0, false, 1.5, false),
            new BenchmarkCase("up2x", DataType.BF16, 32, 64, 16384, 32768, false, 0, false, 1.5, false),
            new BenchmarkCase("up2x_transposed", DataType.FLOAT, 32, 64, 16384, 32768, false, 0, true, 3, false),
            // The upstream sample (SPEC §8): gradOut [1, 2, 3] to length 6, alignCorners, scales 0.5.
            new BenchmarkCase("tiny_call", DataType.FLOAT, 1, 1, 6, 3, true, 0.5, false, 10, true));

    private BenchmarkCases() {}

    private static BenchmarkCase fp32(String name, int n, int c, int lin, int lout, boolean alignCorners, double scales,
                                      double target) {
        return new BenchmarkCase(name, DataType.FLOAT, n, c, lin, lout, alignCorners, scales, false, target, false);
    }

    /** Every case, in the order. */
    public static List<BenchmarkCase> all() {
        return ALL;
    }

    /** The case called {@code id}: {@code name} or {@code name:dtype} (e.g. {@code up2x:fp16}; fp32 by default). */
    public static Optional<BenchmarkCase> byId(String id) {
        String name = id;
        String dtype = "fp32";
        int colon = id.indexOf(':');
        if (colon >= 0) {
            name = id.substring(0, colon);
            dtype = id.substring(colon + 1);
        }
        for (BenchmarkCase c : ALL) {
            if (c.name().equals(name) && c.dtypeLabel().equals(dtype)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The id {@link #byId} accepts for {@code c}. */
    public static String id(BenchmarkCase c) {
        return c.dtype() == DataType.FLOAT ? c.name() : c.name() + ":" + c.dtypeLabel();
    }
}
