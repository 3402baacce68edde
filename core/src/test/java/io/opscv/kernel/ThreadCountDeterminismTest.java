package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same call gives the same bits with 1, 2, 3 and 8 threads and on a repeated run: each output
 * is summed by one task in the canonical order, whatever the split. The shapes are large enough to
 * be cut into many tasks (tiles, long rows cut along L, grouped short rows, leftover rows).
 */
class ThreadCountDeterminismTest {

    static List<KernelCase> cases() {
        DataType f = DataType.FLOAT;
        KernelCase.Layout cont = KernelCase.Layout.CONTIGUOUS;
        return List.of(
                new KernelCase("tiles_up2x", 3, 13, 1500, 3000, false, 0, f, cont, false),
                new KernelCase("tiles_frac_ac", 2, 20, 2100, 5111, true, 0, DataType.FLOAT16, cont, false),
                new KernelCase("long_rows_down", 1, 2, 30000, 7001, false, 0, f, cont, false),
                new KernelCase("long_row_up", 1, 1, 20000, 47000, true, 0, DataType.BF16, cont, false),
                new KernelCase("short_rows", 300, 7, 16, 64, false, 0, f, cont, false),
                new KernelCase("transposed", 2, 24, 900, 1800, false, 0, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                new KernelCase("transposed_fp16_3.7x", 3, 40, 300, 1111, true, 0, DataType.FLOAT16,
                        KernelCase.Layout.TRANSPOSED_GRAD_OUT, false),
                new KernelCase("uneven_batch", 5, 9, 700, 2100, true, 0, f, KernelCase.Layout.UNEVEN_BATCH, false),
                new KernelCase("nonfinite", 4, 17, 1000, 3700, false, 0, f, cont, true),
                // Periodic tables: few rows in stretches of lanes, whose tasks cut the rows along L.
                new KernelCase("long_row_2x", 1, 2, 40000, 80000, false, 0, f, cont, false),
                new KernelCase("long_row_2x_fp16", 1, 2, 40000, 80000, false, 0, DataType.FLOAT16, cont, false),
                new KernelCase("rows_2x_bf16", 3, 5, 9000, 18000, false, 0, DataType.BF16, cont, false),
                new KernelCase("long_row_down4x", 1, 3, 60000, 15000, false, 0, f, cont, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resultsAreIdenticalForEveryThreadCountAndRun(KernelCase kc) {
        LinearTable table = kc.table();
        // The cpu plan's deferred table too, built on first use.
        LinearTable deferred = LinearTable.deferred(kc.lin(), kc.lout(), kc.alignCorners(), kc.scales());
        try (Arena arena = Arena.ofShared()) {
            StridedTensor gradOut = kc.gradOut(arena);
            int[] reference = null;
            for (int threads : new int[] {1, 2, 3, 8}) {
                try (WorkerPool pool = new WorkerPool(threads)) {
                    for (int run = 0; run < 2; run++) {
                        StridedTensor out = kc.out(arena);
                        Linear1dBackwardKernel.run(gradOut, out, run == 0 ? table : deferred, KernelProviders.get(),
                                pool);
                        int[] bits = kc.nonFinite() ? KernelCase.bits(out) : rawBits(out);
                        if (reference == null) {
                            reference = bits;
                            // And the bits are the right ones.
                            int[] expected = KernelCase.scatterReference(kc, gradOut, table);
                            assertArrayEquals(expected, KernelCase.bits(out), "reference on " + kc);
                        } else {
                            assertArrayEquals(reference, bits, threads + " threads, run " + run + " on " + kc);
                        }
                    }
                }
            }
        }
    }

    /** Every element's bits exactly, NaN payloads included (for inputs without NaN). */
    private static int[] rawBits(StridedTensor t) {
        long[] shape = t.shape();
        long[] st = t.strides();
        int[] bits = new int[Math.toIntExact(shape[0] * shape[1] * shape[2])];
        int k = 0;
        for (long n = 0; n < shape[0]; n++) {
            for (long c = 0; c < shape[1]; c++) {
                for (long i = 0; i < shape[2]; i++) {
                    long e = t.offset() + n * st[0] + c * st[1] + i * st[2];
                    bits[k++] = t.dataType() == DataType.FLOAT
                            ? Float.floatToRawIntBits(t.segment().get(ElementCodec.F32, e * 4))
                            : t.segment().get(ElementCodec.U16, e * 2);
                }
            }
        }
        return bits;
    }
}
