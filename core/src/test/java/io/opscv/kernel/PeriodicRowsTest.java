package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 1-D backward along long rows of a periodic table ({@link PeriodicRows}): which calls take it, and that
 * they give the scatter reference's bits with both providers, every dtype, NaN, infinities and -0 in gradOut,
 * rows a pitch apart either side, segments cut across the row with a partial last one, and the clamped inputs
 * before and after the periodic run.
 */
class PeriodicRowsTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();
    private static final DataType F = DataType.FLOAT;
    private static final KernelCase.Layout CONTIGUOUS = KernelCase.Layout.CONTIGUOUS;

    /** Calls the form takes: periods of up to 1024 inputs (whole vectors), at most four terms an input. */
    static List<KernelCase> taken() {
        return List.of(
                // Upsampling by 2 (one input a period), a row of several segments and a partial last one.
                new KernelCase("up2x", 2, 3, 5000, 10000, false, 0, F, CONTIGUOUS, false),
                // Downsampling by 2 and by 4 (two and four inputs a period), by 16 (inputs no position reaches).
                new KernelCase("down2x", 2, 2, 4100, 2050, false, 0, F, CONTIGUOUS, false),
                new KernelCase("down4x", 1, 3, 8192, 2048, false, 0, F, CONTIGUOUS, false),
                new KernelCase("down16x", 1, 2, 16000, 1000, false, 0, F, CONTIGUOUS, false),
                // Upsampling by 1.5 (two inputs to three positions) and by 1.25 (four to five).
                new KernelCase("up1.5x", 3, 1, 2000, 3000, false, 0, F, CONTIGUOUS, false),
                new KernelCase("up1.25x", 1, 2, 4000, 5000, false, 0, F, CONTIGUOUS, false),
                // Periods of several vectors: 7 inputs to 8 positions (7 vectors at 512 bits), 3 inputs to 1.
                new KernelCase("period7", 1, 2, 7000, 8000, false, 0, F, CONTIGUOUS, false),
                new KernelCase("down3x", 2, 3, 3000, 1000, false, 0, F, CONTIGUOUS, false),
                // Seven rows, rows a segment and a vector long.
                new KernelCase("odd_rows", 1, 7, 2064, 4128, false, 0, F, CONTIGUOUS, false),
                // A row just long enough, and exactly one segment.
                new KernelCase("short", 3, 5, 512, 1024, false, 0, F, CONTIGUOUS, false),
                new KernelCase("one_segment", 1, 3, 2049, 4098, false, 0, F, CONTIGUOUS, false));
    }

    /**
     * Calls the vector provider takes where the period is one vector of its: five to eight terms an input, summed
     * four slots at a time (the scalar provider leaves them to rows in lanes).
     */
    static List<KernelCase> held() {
        return List.of(
                new KernelCase("up2.5x", 1, 3, 2000, 5000, false, 0, F, CONTIGUOUS, false),
                new KernelCase("up3x", 2, 2, 3000, 9000, false, 0, F, CONTIGUOUS, false));
    }

    static Stream<KernelCase> cases() {
        List<KernelCase> all = new ArrayList<>();
        for (KernelCase base : Stream.concat(taken().stream(), held().stream()).toList()) {
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
                all.add(base.with(type));
                all.add(base.with(type).withNonFinite());
                all.add(base.with(type).with(KernelCase.Layout.PADDED_OUT));
            }
            all.add(base.with(KernelCase.Layout.UNEVEN_BATCH));
        }
        return all.stream();
    }

    @Test
    void takesLongRowsOfPeriodicTables() {
        try (Arena arena = Arena.ofConfined()) {
            for (KernelCase kc : taken()) {
                for (KernelCase.Layout layout : new KernelCase.Layout[] {CONTIGUOUS, KernelCase.Layout.PADDED_OUT,
                        KernelCase.Layout.UNEVEN_BATCH}) {
                    KernelCase c = kc.with(layout);
                    for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                        assertNotNull(PeriodicRows.backwardSums(c.table(), c.gradOut(arena), c.out(arena), provider),
                                c + " on " + provider.name());
                    }
                }
            }
        }
    }

    @Test
    void leavesOtherCallsToTheOtherForms() {
        List<KernelCase> others = List.of(
                // Rows shorter than the form's, a period of 67 inputs (1072 at 16 lanes), five terms an input on a
                // period of several vectors (up 2.08), taps beyond the permute windows (up 4), a table that does not
                // repeat (alignCorners), and gradOut or out not of L stride 1.
                new KernelCase("short_rows", 2, 3, 500, 1000, false, 0, F, CONTIGUOUS, false),
                new KernelCase("period67", 1, 2, 6700, 6800, false, 0, F, CONTIGUOUS, false),
                new KernelCase("period37", 1, 2, 3700, 7700, false, 0, F, CONTIGUOUS, false),
                new KernelCase("up4x", 1, 2, 2000, 8000, false, 0, F, CONTIGUOUS, false),
                new KernelCase("corners", 1, 2, 5000, 10000, true, 0, F, CONTIGUOUS, false),
                new KernelCase("transposed", 1, 2, 5000, 10000, false, 0, F, KernelCase.Layout.TRANSPOSED_GRAD_OUT,
                        false),
                new KernelCase("strided", 1, 2, 5000, 10000, false, 0, F, KernelCase.Layout.STRIDED, false));
        try (Arena arena = Arena.ofConfined()) {
            for (KernelCase kc : others) {
                if (kc.name().equals("period67") && VECTOR.lanes() < 16) {
                    continue;
                }
                assertNull(PeriodicRows.backwardSums(kc.table(), kc.gradOut(arena), kc.out(arena), VECTOR), kc.name());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesTheScatterReferenceBitForBit(KernelCase kc) {
        LinearTable table = kc.table();
        try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
            StridedTensor gradOut = kc.gradOut(arena);
            int[] expected = KernelCase.scatterReference(kc, gradOut, table);
            for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                StridedTensor out = kc.out(arena);
                PeriodicRows.Sums sums = PeriodicRows.backwardSums(table, gradOut, out, provider);
                if (provider == SCALAR && held().stream().anyMatch(h -> h.name().equals(kc.name()))) {
                    continue;
                }
                assertNotNull(sums, kc.name() + " on " + provider.name());
                PeriodicRows.backward(gradOut, out, table, sums, provider, pool);
                String where = provider.name() + " on " + kc;
                assertArrayEquals(expected, KernelCase.bits(out), where);
                assertEquals(-1, KernelCase.firstWriteOutside(out), where + ": a byte outside out's view changed");
            }
        }
    }
}
