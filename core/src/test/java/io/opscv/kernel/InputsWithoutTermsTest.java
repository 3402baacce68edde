package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An explicit scales ends the sources before the last inputs: no output's taps reach those, and a block of them
 * reads nothing. Through the API (Lout = floor(Lin · scales)) only a few last inputs can be such, e.g. (N, C, 32770)
 * at scales 0.25, whose last block of 2 inputs failed with IndexOutOfBoundsException before; the kernels are
 * also tried with scales the API refuses, where whole blocks read nothing. Their sums are +0, with every provider,
 * table (built, or deferred: built on first use in phase 2) and layout.
 */
class InputsWithoutTermsTest {

    static List<KernelCase> cases() {
        DataType f = DataType.FLOAT;
        KernelCase.Layout cont = KernelCase.Layout.CONTIGUOUS;
        return List.of(
                // Through the API, where Lout = floor(Lin · scales): the last two inputs, a block of their own
                // (32768 = 8 · 4096), get no terms.
                new KernelCase("api_long_rows", 1, 2, 32770, 8192, false, 0.25, f, cont, false),
                new KernelCase("api_many_rows", 8, 4, 32770, 8192, false, 0.25, f, cont, false),
                new KernelCase("api_fp16", 2, 3, 32770, 8192, false, 0.25, DataType.FLOAT16, cont, false),
                new KernelCase("long_rows", 1, 2, 40000, 80000, false, 2.5, f, cont, false),
                new KernelCase("long_rows_fp16", 1, 2, 40000, 80000, false, 2.5, DataType.FLOAT16, cont, false),
                new KernelCase("long_rows_bf16", 1, 3, 40000, 80000, false, 3.0, DataType.BF16, cont, false),
                new KernelCase("many_rows", 4, 8, 9000, 18000, false, 2.5, f, cont, false),
                new KernelCase("many_rows_3x", 2, 9, 9000, 27000, false, 4.0, f, cont, false),
                new KernelCase("short_rows", 64, 16, 16, 32, false, 4.0, f, cont, false),
                new KernelCase("transposed", 2, 24, 9000, 18000, false, 2.5, f, KernelCase.Layout.TRANSPOSED_GRAD_OUT,
                        false),
                new KernelCase("uneven_batch", 3, 5, 9000, 18000, false, 2.5, f, KernelCase.Layout.UNEVEN_BATCH, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void inputsThatNoTapReachesSumToZero(KernelCase kc) {
        LinearTable table = kc.table();
        LinearTable deferred = LinearTable.deferred(kc.lin(), kc.lout(), kc.alignCorners(), kc.scales());
        try (Arena arena = Arena.ofShared();
             WorkerPool pool = new WorkerPool(2)) {
            StridedTensor gradOut = kc.gradOut(arena);
            int[] expected = KernelCase.scatterReference(kc, gradOut, table);
            List<KernelProvider> providers = KernelProviders.vector() == null ? List.of(KernelProviders.scalar())
                    : List.of(KernelProviders.scalar(), KernelProviders.vector());
            for (KernelProvider provider : providers) {
                for (LinearTable t : new LinearTable[] {table, deferred}) {
                    StridedTensor out = kc.out(arena);
                    // A NaN pattern first, so that inputs left unwritten show.
                    out.segment().fill((byte) 0x7f);
                    Linear1dBackwardKernel.run(gradOut, out, t, provider, pool);
                    assertArrayEquals(expected, KernelCase.bits(out), provider.name() + (t == table ? " whole" : " deferred")
                            + " on " + kc);
                }
            }
        }
    }
}
