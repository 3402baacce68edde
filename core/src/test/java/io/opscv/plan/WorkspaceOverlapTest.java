package io.opscv.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream.Builder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23, item 2: a workspace that shares memory with an operand of the call is refused (161002) on
 * every operator and NPU platform, before anything is written. The scenario of the issue: the input is
 * transposed, so that the plan's first step (Contiguous) writes into the workspace, and the workspace
 * is the input's own memory; without the check the plan overwrote gradOut and returned wrong results.
 */
class WorkspaceOverlapTest {
    /** Each operand lies at the start of a block this large, larger than any workspace below. */
    private static final long BLOCK = 64 * 1024;

    enum Op { LINEAR1D_BACKWARD, LINEAR1D, BILINEAR2D_BACKWARD, BILINEAR2D }

    static java.util.stream.Stream<Object[]> cases() {
        Builder<Object[]> cases = java.util.stream.Stream.builder();
        for (Op op : Op.values()) {
            for (Platform p : List.of(Platform.ASCEND950, Platform.ASCEND910_93, Platform.ASCEND910B, Platform.ASCEND910)) {
                for (DataType t : List.of(DataType.FLOAT, DataType.FLOAT16)) {
                    cases.add(new Object[] {op, p, t});
                }
            }
        }
        return cases.build();
    }

    /** An operand at the start of a fresh block of its own, its bytes a fixed pattern. */
    private static Tensor operand(Device device, long[] shape, long[] strides, DataType type) {
        DeviceMemory memory = device.malloc(BLOCK);
        MemorySegment seg = memory.segment();
        for (long k = 0; k < BLOCK / 2; k++) {
            // Small finite values in both FP32 (as halves of words) and FP16.
            seg.setAtIndex(ValueLayout.JAVA_SHORT, k, (short) (0x3000 + (k * 37 % 1024)));
        }
        Format format = shape.length == 4 ? Format.NCHW : Format.ND;
        return Tensor.create(shape, type, strides, 0, format, null, memory);
    }

    /** Phase 1 of {@code op} with a transposed input and a contiguous out; tensors[0] is the input. */
    private static WorkspaceAndExecutor phase1(Op op, Platform platform, Device device, DataType type, Tensor[] tensors) {
        return switch (op) {
            case LINEAR1D_BACKWARD -> {
                tensors[0] = operand(device, new long[] {2, 3, 8}, new long[] {24, 1, 3}, type);
                tensors[1] = operand(device, new long[] {2, 3, 4}, null, type);
                yield UpsampleLinear1dBackward.getWorkspaceSize(platform, tensors[0], IntArray.of(8), IntArray.of(2, 3, 4),
                        false, 0, tensors[1]);
            }
            case LINEAR1D -> {
                tensors[0] = operand(device, new long[] {2, 3, 4}, new long[] {12, 1, 3}, type);
                tensors[1] = operand(device, new long[] {2, 3, 8}, null, type);
                yield UpsampleLinear1d.getWorkspaceSize(platform, tensors[0], IntArray.of(8), false, 0, tensors[1]);
            }
            case BILINEAR2D_BACKWARD -> {
                tensors[0] = operand(device, new long[] {1, 2, 4, 6}, new long[] {48, 1, 12, 2}, type);
                tensors[1] = operand(device, new long[] {1, 2, 2, 3}, null, type);
                yield UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, tensors[0], IntArray.of(4, 6),
                        IntArray.of(1, 2, 2, 3), false, 0, 0, tensors[1]);
            }
            case BILINEAR2D -> {
                tensors[0] = operand(device, new long[] {1, 2, 2, 3}, new long[] {12, 1, 6, 2}, type);
                tensors[1] = operand(device, new long[] {1, 2, 4, 6}, null, type);
                yield UpsampleBilinear2d.getWorkspaceSize(platform, tensors[0], IntArray.of(4, 6), false, 0, 0, tensors[1]);
            }
        };
    }

    private static void run(Op op, DeviceMemory workspace, long size, Executor executor, Stream stream) {
        switch (op) {
            case LINEAR1D_BACKWARD -> UpsampleLinear1dBackward.run(workspace, size, executor, stream);
            case LINEAR1D -> UpsampleLinear1d.run(workspace, size, executor, stream);
            case BILINEAR2D_BACKWARD -> UpsampleBilinear2dBackwardV2.run(workspace, size, executor, stream);
            case BILINEAR2D -> UpsampleBilinear2d.run(workspace, size, executor, stream);
        }
    }

    private static byte[] bytes(Tensor t) {
        return t.memory().segment().toArray(ValueLayout.JAVA_BYTE);
    }

    @ParameterizedTest(name = "{0} on {1}, {2}")
    @MethodSource("cases")
    void aWorkspaceInAnOperandsMemoryIsRefusedAndNothingIsWritten(Op op, Platform platform, DataType type) {
        try (AclRuntime acl = AclRuntime.init(platform); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Tensor[] tensors = new Tensor[2];
            WorkspaceAndExecutor p = phase1(op, platform, device, type, tensors);
            assertTrue(p.workspaceSize() > 0 && p.workspaceSize() <= BLOCK, "workspace " + p.workspaceSize());
            String input = op == Op.LINEAR1D || op == Op.BILINEAR2D ? "self" : "gradOut";
            List<DeviceMemory> overlapping = new ArrayList<>();
            overlapping.add(tensors[0].memory());
            // Another DeviceMemory over the same bytes: the check compares addresses, not objects.
            overlapping.add(device.wrap(tensors[0].memory().segment().asSlice(16, BLOCK - 16)));
            overlapping.add(tensors[1].memory());
            for (DeviceMemory workspace : overlapping) {
                byte[] in = bytes(tensors[0]);
                byte[] out = bytes(tensors[1]);
                AclnnException e = assertThrows(AclnnException.class,
                        () -> run(op, workspace, p.workspaceSize(), p.executor(), stream));
                assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status(), e.getMessage());
                String name = workspace == tensors[1].memory() ? "out" : input;
                assertTrue(e.getMessage().startsWith("The workspace shares memory with " + name + ": "), e.getMessage());
                stream.synchronize();
                assertArrayEquals(in, bytes(tensors[0]), "the input was written");
                assertArrayEquals(out, bytes(tensors[1]), "out was written");
                assertFalse(p.executor().isLaunched());
            }
            // The refused executor still runs with a workspace of its own; the input stays as it was.
            byte[] in = bytes(tensors[0]);
            try (DeviceMemory own = device.malloc(p.workspaceSize())) {
                run(op, own, p.workspaceSize(), p.executor(), stream);
                stream.synchronize();
            }
            assertArrayEquals(in, bytes(tensors[0]));
        }
    }

    @ParameterizedTest(name = "{0} on {1}, {2}")
    @MethodSource("cases")
    void aWorkspaceInTheSameBlockPastTheOperandsViewIsAccepted(Op op, Platform platform, DataType type) {
        try (AclRuntime acl = AclRuntime.init(platform); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Tensor[] tensors = new Tensor[2];
            WorkspaceAndExecutor p = phase1(op, platform, device, type, tensors);
            MemorySegment spanned = tensors[0].spannedBytes();
            // The first byte after the input's last element: adjacent, not shared.
            DeviceMemory after = device.wrap(tensors[0].memory().segment().asSlice(spanned.byteSize()));
            byte[] in = bytes(tensors[0]);
            run(op, after, p.workspaceSize(), p.executor(), stream);
            stream.synchronize();
            assertArrayEquals(java.util.Arrays.copyOf(in, (int) spanned.byteSize()),
                    java.util.Arrays.copyOf(bytes(tensors[0]), (int) spanned.byteSize()));
        }
    }
}
