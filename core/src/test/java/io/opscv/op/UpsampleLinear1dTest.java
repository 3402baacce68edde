package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.plan.PlanStep;
import io.opscv.plan.WorkspacePlan;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import io.opscv.testing.Phase2;
import io.opscv.testing.Reference;
import io.opscv.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code aclnnUpsampleLinear1d}: every golden case on every platform, the plans, non-contiguous tensors. */
class UpsampleLinear1dTest {

    static double[] run(Platform platform, GoldenCase c) {
        int n = c.intField("n");
        int ch = c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        try (TestDevice dev = new TestDevice(platform);
             Tensor self = dev.fromRaw(new long[] {n, ch, lin}, c.dataType(), c.inputBytes());
             Tensor out = dev.tensor(new long[] {n, ch, lout}, c.dataType(), new float[n * ch * lout])) {
            WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(lout), c.alignCorners(),
                    c.doubleField("scales"), out);
            Phase2.run(dev, p, UpsampleLinear1d::run);
            return TestDevice.read(out);
        }
    }

    static Stream<Arguments> goldenCasesOnEveryPlatform() {
        List<Arguments> args = new ArrayList<>();
        for (GoldenCase c : GoldenCase.of("upsample_linear1d")) {
            for (Platform p : Platform.values()) {
                args.add(Arguments.of(c, p));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("goldenCasesOnEveryPlatform")
    void everyGoldenCaseOnEveryPlatformMeetsTheCriterionBitIdenticallyToTheCpu(GoldenCase c, Platform platform) {
        if (!platform.supported() || !DtypeSupport.of(platform).contains(c.dataType())) {
            AclnnException e = assertThrows(AclnnException.class, () -> run(platform, c));
            assertEquals(161002, e.code());
            return;
        }
        double[] got = run(platform, c);
        UpsampleLinear1dBackwardPlansTest.assertMeetsCriterion(c, got);
        // Every forward plan computes SPEC §1 with the given scales, in the same float operations.
        assertArrayEquals(run(Platform.CPU, c), got, 0.0);
    }

    static List<String> steps(Platform platform, DataType type, long[] selfShape, long lout, boolean alignCorners,
                              double scales, boolean strided, List<Long> workspace) {
        try (TestDevice dev = new TestDevice()) {
            int numel = Math.toIntExact(selfShape[0] * selfShape[1] * selfShape[2]);
            Tensor self = strided
                    ? dev.strided(selfShape, type, new long[] {1, selfShape[0], selfShape[0] * selfShape[1]}, 0, new float[numel])
                    : dev.tensor(selfShape, type, new float[numel]);
            Tensor out = dev.tensor(new long[] {selfShape[0], selfShape[1], lout}, type,
                    new float[Math.toIntExact(selfShape[0] * selfShape[1] * lout)]);
            WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(platform, self, IntArray.of(lout), alignCorners,
                    scales, out);
            workspace.add(p.workspaceSize());
            return p.executor().steps().stream().map(PlanStep::name).toList();
        }
    }

    static long aligned(long bytes) {
        return WorkspacePlan.alignUp(bytes);
    }

    @Test
    void thePlansPerPlatform() {
        List<Long> ws = new ArrayList<>();
        assertEquals(List.of("UpsampleLinear1dFused"),
                steps(Platform.CPU, DataType.FLOAT16, new long[] {2, 3, 16}, 32, false, 2.0, true, ws));
        assertEquals(List.of("Contiguous", "ResizeLinear", "ViewCopy"),
                steps(Platform.ASCEND950, DataType.BF16, new long[] {2, 3, 16}, 32, false, 2.0, true, ws));
        assertEquals(List.of("Contiguous", "Unsqueeze(2)", "Cast(DT_FLOAT)", "UpsampleLinear1d", "Cast(DT_FLOAT16)",
                "View4dAs3d", "ViewCopy"), steps(Platform.ASCEND910B, DataType.FLOAT16, new long[] {2, 3, 16}, 32, false, 2.0,
                false, ws));
        assertEquals(List.of("Contiguous", "Unsqueeze(2)", "Cast(DT_FLOAT)", "ResizeD", "Cast(DT_BF16)", "View4dAs3d",
                "ViewCopy"), steps(Platform.ASCEND910B, DataType.BF16, new long[] {1, 2, 120}, 2, false, 0, false, ws));
        assertEquals(List.of("Contiguous", "Unsqueeze(2)", "ResizeD", "Cast(DT_FLOAT16)", "View4dAs3d", "ViewCopy"),
                steps(Platform.ASCEND910, DataType.FLOAT16, new long[] {2, 3, 16}, 32, false, 2.0, false, ws));
        assertEquals(List.of("ViewCopy"), steps(Platform.ASCEND910, DataType.FLOAT, new long[] {2, 3, 16}, 16, false, 1.0,
                true, ws));
        assertEquals(List.of(0L,
                aligned(2 * 3 * 16 * 2) + aligned(2 * 3 * 32 * 2),
                aligned(2 * 3 * 16 * 4) + aligned(2 * 3 * 32 * 4) + aligned(2 * 3 * 32 * 2),
                aligned(2 * 120 * 4) + aligned(2 * 2 * 4) + aligned(2 * 2 * 2),
                aligned(2 * 3 * 32 * 2),
                0L), ws);
    }

    @Test
    void a2LeavesTheKernelForResizeDOutsideItsSourceStepRange() {
        assertTrue(UpsampleLinear1d.sourceStepInKernelRange(16, 32, false, 2.0));
        assertTrue(UpsampleLinear1d.sourceStepInKernelRange(100, 2, false, 0.02)); // step exactly 50
        assertTrue(!UpsampleLinear1d.sourceStepInKernelRange(120, 2, false, 0));  // step 60
        assertTrue(!UpsampleLinear1d.sourceStepInKernelRange(5, 1, true, 0));     // alignCorners, one output: step 0
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910B", "ASCEND910"})
    void nonContiguousSelfAndOutMatchTheReference(Platform platform) {
        int n = 2;
        int c = 3;
        int lin = 120;
        int lout = 7;
        float[] x = TestDevice.randomValues(n * c * lin, 13);
        try (TestDevice dev = new TestDevice(platform);
             Tensor self = dev.strided(new long[] {n, c, lin}, DataType.FLOAT16, new long[] {1, n, n * c}, 0, x);
             Tensor out = dev.strided(new long[] {n, c, lout}, DataType.FLOAT16, new long[] {c * lout * 2, lout * 2, 2}, 1,
                     new float[n * c * lout])) {
            WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(lout), false, 0, out);
            Phase2.run(dev, p, UpsampleLinear1d::run);
            double[] got = TestDevice.read(out);
            double[] xd = new double[x.length];
            for (int k = 0; k < x.length; k++) {
                xd[k] = x[k];
            }
            double[] expected = Reference.linear1dForward(xd, n * c, lin, lout, false, 0);
            double[] bound = Reference.linear1dForward(Reference.abs(xd), n * c, lin, lout, false, 0);
            int bad = Criterion.firstFailure(got, expected, bound, 2, DataType.FLOAT16);
            assertEquals(-1, bad, () -> "element " + bad + ": " + got[bad] + " vs " + expected[bad]);
        }
    }

    @Test
    void anEmptyBatchSucceedsWithoutWorkspace() {
        try (TestDevice dev = new TestDevice()) {
            Tensor self = dev.tensor(new long[] {0, 3, 6}, DataType.FLOAT, new float[0]);
            Tensor out = dev.tensor(new long[] {0, 3, 12}, DataType.FLOAT, new float[0]);
            WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(12), false, 2.0, out);
            assertEquals(0, p.workspaceSize());
            assertTrue(p.executor().steps().isEmpty());
            Phase2.run(dev, p, UpsampleLinear1d::run);
        }
    }

    @Test
    void aNegativeScalesMeansNotGiven() {
        try (TestDevice dev = new TestDevice()) {
            Tensor self = dev.tensor(new long[] {1, 1, 4}, DataType.FLOAT, new float[] {0, 1, 2, 3});
            Tensor out = dev.tensor(new long[] {1, 1, 7}, DataType.FLOAT, new float[7]);
            WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(7), false, -3.0, out);
            Phase2.run(dev, p, UpsampleLinear1d::run);
            double[] expected = Reference.linear1dForward(new double[] {0, 1, 2, 3}, 1, 4, 7, false, 0);
            assertArrayEquals(expected, TestDevice.read(out), 1e-6);
        }
    }
}
