package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * Each thread keeps the windows of the coordinate table it built ({@link LinearTable#window}) across calls, and
 * every call has a table of its own: a kept window serves an equal axis (the same inputs, outputs, source step
 * and shift), as it is or translated by whole periods, and never another axis.
 */
class HeldWindowsTest {

    /** Windows of an equal axis are taken without a fill; those of other axes are not. */
    @Test
    void aWindowIsHeldForAnEqualAxisOnly() {
        KernelProvider provider = KernelProviders.scalar();
        int lin = 1 << 16;
        LinearTable first = LinearTable.deferred(lin, 2 * lin, false, 0);
        LinearTable start = first.window(0, 4096, null, provider);
        LinearTable middle = first.window(8192, 12288, null, provider);
        LinearTable again = LinearTable.deferred(lin, 2 * lin, false, 0);
        assertTrue(again.windowHeld(0, 4096, start), "the same clamped window of an equal axis");
        assertTrue(again.windowHeld(8192, 12288, middle), "the same window");
        assertTrue(again.windowHeld(16384, 20480, middle), "a whole number of periods away");
        assertFalse(again.windowHeld(4096, 8192, start), "the clamped start does not translate");
        assertFalse(again.windowHeld(8192, 12000, middle), "another length");
        // scales 2.0 gives the derived step of 2x: an equal axis.
        assertTrue(LinearTable.deferred(lin, 2 * lin, false, 2.0).windowHeld(8192, 12288, middle));
        LinearTable[] others = {LinearTable.deferred(lin, 2 * lin, true, 0), LinearTable.deferred(lin, 2 * lin, false, 2.5),
            LinearTable.deferred(lin, 2 * lin + 1, false, 0), LinearTable.deferred(lin + 1, 2 * lin, false, 0)};
        for (LinearTable other : others) {
            assertFalse(other.windowHeld(0, 4096, start), "another axis");
            assertFalse(other.windowHeld(8192, 12288, middle), "another axis");
        }
        // The same step (0.5) with another shift: half-pixel with scales 2.0 against alignCorners, 40000 / 80000.
        LinearTable halfPixel = LinearTable.deferred(40001, 80001, false, 2.0);
        LinearTable halfPixelWindow = halfPixel.window(8000, 12000, null, provider);
        assertTrue(LinearTable.deferred(40001, 80001, false, 2.0).windowHeld(8000, 12000, halfPixelWindow));
        assertFalse(LinearTable.deferred(40001, 80001, true, 0).windowHeld(8000, 12000, halfPixelWindow),
                "the same step, another shift");
        // Without a period: the same window only.
        LinearTable ac = LinearTable.deferred(16384, 32768, true, 0);
        LinearTable acWindow = ac.window(1000, 2000, null, provider);
        LinearTable acAgain = LinearTable.deferred(16384, 32768, true, 0);
        assertTrue(acAgain.windowHeld(1000, 2000, acWindow));
        assertFalse(acAgain.windowHeld(2000, 3000, acWindow));
    }

    /**
     * Calls alternating between axes of the same lengths (half-pixel, alignCorners, another scale, 2x again), each
     * summing from windows that the pool's threads keep from the calls before: every result is the reference's.
     */
    @Test
    void callsOnOtherAxesOfTheSameLengthsSumFromTheirOwnWindows() {
        DataType f = DataType.FLOAT;
        KernelCase.Layout cont = KernelCase.Layout.CONTIGUOUS;
        KernelCase[] cases = {
            new KernelCase("2x", 1, 2, 40000, 80000, false, 0, f, cont, false),
            new KernelCase("2x_ac", 1, 2, 40000, 80000, true, 0, f, cont, false),
            new KernelCase("2x_scales", 1, 2, 40000, 80000, false, 2.5, f, cont, false),
            new KernelCase("2x_fp16", 1, 2, 40000, 80000, false, 0, DataType.FLOAT16, cont, false),
            new KernelCase("step_0.5", 1, 2, 40001, 80001, false, 2.0, f, cont, false),
            new KernelCase("step_0.5_ac", 1, 2, 40001, 80001, true, 0, f, cont, false),
            new KernelCase("down4x", 1, 3, 60000, 15000, false, 0, f, cont, false),
            new KernelCase("down4x_ac", 1, 3, 60000, 15000, true, 0, f, cont, false)};
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope());
             WorkerPool pool = new WorkerPool(2)) {
            for (int round = 0; round < 3; round++) {
                for (KernelCase kc : cases) {
                    LinearTable deferred = LinearTable.deferred(kc.lin(), kc.lout(), kc.alignCorners(), kc.scales());
                    StridedTensor gradOut = kc.gradOut(arena);
                    StridedTensor out = kc.out(arena);
                    Linear1dBackwardKernel.run(gradOut, out, deferred, KernelProviders.get(), pool);
                    assertArrayEquals(KernelCase.scatterReference(kc, gradOut, kc.table()), KernelCase.bits(out),
                            kc + ", round " + round);
                }
            }
        }
    }
}
