package io.opscv.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.HalfPixelTaps;
import io.opscv.kernel.TransDataKernel;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Layout2d;
import io.opscv.testing.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The l0 steps and the workspace layout, one behaviour at a time. */
class PlanStepsTest {

    static MemorySegment workspace(long bytes) {
        MemorySegment ws = Arena.ofAuto().allocate(Math.max(bytes, 1), WorkspacePlan.ALIGNMENT);
        ws.fill((byte) 0xFF);
        return ws;
    }

    @Test
    void intermediatesAreAlignedDisjointSlicesAndTheTotalIsTheirSum() {
        WorkspacePlan plan = new WorkspacePlan();
        Operand a = plan.allocate("a", new long[] {3}, DataType.FLOAT16, Format.ND);
        Operand b = plan.allocate("b", new long[] {2, 300}, DataType.FLOAT, Format.ND);
        Operand c = plan.allocate("c", new long[] {128}, DataType.FLOAT, Format.ND);
        assertEquals(List.of(0L, 512L, 512L + 2560L), List.of(a.workspaceOffset(), b.workspaceOffset(), c.workspaceOffset()));
        assertEquals(List.of(512L, 2560L, 512L), List.of(a.ownedWorkspaceBytes(), b.ownedWorkspaceBytes(),
                c.ownedWorkspaceBytes()));
        assertEquals(512 + 2560 + 512, plan.totalBytes());
        // A kernel sees only its slice.
        MemorySegment ws = workspace(plan.totalBytes());
        assertEquals(2560, b.resolve(ws).segment().byteSize());
        // Views share the slice but own nothing.
        assertEquals(0, b.unsqueeze("b", 1).ownedWorkspaceBytes());
    }

    @Test
    void contiguousAndCastWithNothingToDoAreViewsWithoutWorkspace() {
        try (TestDevice dev = new TestDevice()) {
            Operand x = Operand.of("x", dev.tensor(new long[] {2, 3}, DataType.FLOAT, new float[6]));
            PlanBuilder plan = new PlanBuilder();
            assertSame(x, plan.contiguous(x));
            assertSame(x, plan.cast(x, DataType.FLOAT));
            assertEquals(0, plan.workspaceBytes());
            assertEquals(List.of("Contiguous", "Cast(DT_FLOAT)"), plan.steps().stream().map(PlanStep::name).toList());
            assertTrue(plan.steps().get(0).describe().contains("already contiguous: no copy"));
            Operand strided = Operand.of("s", dev.strided(new long[] {2, 3}, DataType.FLOAT, new long[] {1, 2}, 0,
                    new float[6]));
            Operand copy = plan.contiguous(strided);
            assertTrue(copy.inWorkspace() && copy.isContiguous());
            assertEquals(WorkspacePlan.ALIGNMENT, plan.workspaceBytes());
        }
    }

    @Test
    void castRoundsOnceToNearestEven() {
        try (TestDevice dev = new TestDevice()) {
            // 1 + 2^-11 is halfway between two FLOAT16 values: ties to even gives 1; 1 + 3*2^-11 gives 1 + 2^-9.
            float[] v = {1f + 0x1p-11f, 1f + 3 * 0x1p-11f, 65520f, -0f};
            Tensor src = dev.tensor(new long[] {4}, DataType.FLOAT, v);
            PlanBuilder plan = new PlanBuilder();
            Operand half = plan.cast(Operand.of("src", src), DataType.FLOAT16);
            Operand bf16 = plan.cast(Operand.of("src", src), DataType.BF16);
            MemorySegment ws = workspace(plan.workspaceBytes());
            for (PlanStep step : plan.steps()) {
                step.run(ws);
            }
            MemorySegment h = half.resolve(ws).segment();
            assertEquals(1f, Float.float16ToFloat(h.getAtIndex(ValueLayout.JAVA_SHORT, 0)));
            assertEquals(1f + 0x1p-9f, Float.float16ToFloat(h.getAtIndex(ValueLayout.JAVA_SHORT, 1)));
            assertEquals(Float.POSITIVE_INFINITY, Float.float16ToFloat(h.getAtIndex(ValueLayout.JAVA_SHORT, 2)));
            assertEquals((short) 0x8000, h.getAtIndex(ValueLayout.JAVA_SHORT, 3));
            assertEquals(1f, io.opscv.kernel.ElementCodec.bf16ToFloat(bf16.resolve(ws).segment().getAtIndex(ValueLayout.JAVA_SHORT, 0)));
        }
    }

    @Test
    void transDataBuildsTheBlockedLayoutWithZeroPaddingAndBack() {
        int n = 2;
        int c = 11;
        int h = 3;
        int w = 4;
        float[] x = TestDevice.randomValues(n * c * h * w, 1);
        for (Format layout : List.of(Format.NCHW, Format.NHWC)) {
            try (TestDevice dev = new TestDevice()) {
                boolean nhwc = layout == Format.NHWC;
                long[] shape = nhwc ? new long[] {n, h, w, c} : new long[] {n, c, h, w};
                Tensor src = dev.tensor(shape, DataType.FLOAT, nhwc ? Layout2d.nchwToNhwc(x, n, c, h, w) : x, layout);
                PlanBuilder plan = new PlanBuilder();
                Operand blocked = plan.toBlocked(Operand.of("x", src));
                assertArrayEquals(new long[] {n, 2, h, w, 8}, blocked.shape());
                Operand back = plan.fromBlocked(blocked, c, layout);
                assertArrayEquals(shape, back.shape());
                MemorySegment ws = workspace(plan.workspaceBytes());
                for (PlanStep step : plan.steps()) {
                    step.run(ws);
                }
                MemorySegment b = blocked.resolve(ws).segment();
                for (int i = 0; i < n; i++) {
                    for (int ch = 0; ch < 16; ch++) {
                        for (int y = 0; y < h; y++) {
                            for (int xx = 0; xx < w; xx++) {
                                long at = (((i * 2L + ch / 8) * h + y) * w + xx) * 8 + ch % 8;
                                float expected = ch < c ? x[((i * c + ch) * h + y) * w + xx] : 0f;
                                assertEquals(expected, b.getAtIndex(ValueLayout.JAVA_FLOAT, at), layout + " " + at);
                            }
                        }
                    }
                }
                float[] roundTrip = back.resolve(ws).segment().asSlice(0, 4L * x.length).toArray(ValueLayout.JAVA_FLOAT);
                assertArrayEquals(nhwc ? Layout2d.nchwToNhwc(x, n, c, h, w) : x, roundTrip);
            }
        }
        assertEquals(16, TransDataKernel.c0(DataType.FLOAT16));
        assertEquals(16, TransDataKernel.c0(DataType.BF16));
    }

    @Test
    void transposeMaterialisesThePermutation() {
        try (TestDevice dev = new TestDevice()) {
            float[] x = TestDevice.randomValues(2 * 3 * 4 * 5, 2);
            Tensor nhwc = dev.tensor(new long[] {2, 4, 5, 3}, DataType.FLOAT, Layout2d.nchwToNhwc(x, 2, 3, 4, 5), Format.NHWC);
            PlanBuilder plan = new PlanBuilder();
            Operand nchw = plan.transpose(Operand.of("x", nhwc), new int[] {0, 3, 1, 2}, Format.NCHW);
            assertArrayEquals(new long[] {2, 3, 4, 5}, nchw.shape());
            MemorySegment ws = workspace(plan.workspaceBytes());
            plan.steps().get(0).run(ws);
            assertArrayEquals(x, nchw.resolve(ws).segment().asSlice(0, 4L * x.length).toArray(ValueLayout.JAVA_FLOAT));
            assertEquals("Transpose(0,3,1,2)", plan.steps().get(0).name());
        }
    }

    @Test
    void halfPixelTapsFollowTensorFlowsRule() {
        // in 12, out 30 (scale 0.4): output 0 maps to -0.3, both taps on 0 with weights 0.3 and 0.7.
        HalfPixelTaps t = HalfPixelTaps.of(12, 30, false);
        assertEquals(0, t.top(0));
        assertEquals(0, t.bottom(0));
        assertEquals(0.3f, t.wTop(0), 1e-7f);
        assertEquals(0.7f, t.wBottom(0), 1e-7f);
        // The last output maps to 11.3: taps 11 and min(12, 11) = 11.
        assertEquals(11, t.top(29));
        assertEquals(11, t.bottom(29));
        // alignCorners: source j * (in - 1) / (out - 1), an integer source has both taps on it.
        HalfPixelTaps a = HalfPixelTaps.of(5, 9, true);
        assertEquals(1, a.top(2));
        assertEquals(1, a.bottom(2));
        assertEquals(1f, a.wTop(2));
        assertTrue(HalfPixelTaps.of(7, 7, false).identity());
        assertThrows(IllegalArgumentException.class, () -> HalfPixelTaps.of(0, 3, false));
    }

    @Test
    void theBuilderRefusesAWorkspaceItsStepsDoNotAccountFor() {
        PlanBuilder plan = new PlanBuilder();
        plan.allocate("orphan", new long[] {4}, DataType.FLOAT, Format.ND);
        io.opscv.runtime.AclnnException e = assertThrows(io.opscv.runtime.AclnnException.class,
                () -> plan.build("aclnnTest", Platform.CPU, List.of()));
        assertEquals(561000, e.code());
    }
}
