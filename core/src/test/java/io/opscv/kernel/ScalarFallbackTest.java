package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Runs only in the {@code scalar-fallback} Surefire execution (core/pom.xml), a JVM started
 * without {@code --add-modules jdk.incubator.vector}: the library must choose the scalar
 * provider there and still compute the right results.
 */
class ScalarFallbackTest {

    @Test
    void withoutTheVectorModuleTheScalarProviderIsChosen() {
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty(),
                "this test must run in a JVM without jdk.incubator.vector (the scalar-fallback execution)");
        assertNull(KernelProviders.vector());
        assertEquals("scalar", KernelProviders.get().name());
    }

    @Test
    void theFallbackKernelsMatchTheScatterReference() {
        for (KernelCase base : KernelProviderEquivalenceTest.shapes()) {
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
                KernelCase kc = base.with(type).withNonFinite();
                LinearTable table = kc.table();
                try (Arena arena = Arena.ofShared(); WorkerPool pool = new WorkerPool(2)) {
                    StridedTensor gradOut = kc.gradOut(arena);
                    StridedTensor out = kc.out(arena);
                    Linear1dBackwardKernel.run(gradOut, out, table, KernelProviders.get(), pool);
                    assertArrayEquals(KernelCase.scatterReference(kc, gradOut, table), KernelCase.bits(out), kc.toString());
                }
            }
        }
    }

    @Test
    void theSampleCallGivesPyTorchsValues() {
        // SPEC §8: gradOut [1, 2, 3] to length 6, alignCorners, scales 0.5 -> 1, 0, 1, 1, 0, 3.
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Stream stream = device.createStream();
             DeviceMemory gradOutMemory = device.malloc(12);
             DeviceMemory outMemory = device.malloc(24)) {
            gradOutMemory.segment().copyFrom(Arena.global().allocateFrom(ValueLayout.JAVA_FLOAT, 1f, 2f, 3f));
            try (Tensor gradOut = Tensor.create(new long[] {1, 1, 3}, DataType.FLOAT, null, 0, Format.ND, null, gradOutMemory);
                 Tensor out = Tensor.create(new long[] {1, 1, 6}, DataType.FLOAT, null, 0, Format.ND, null, outMemory);
                 IntArray outputSize = IntArray.of(3);
                 IntArray inputSize = IntArray.of(1, 1, 6)) {
                WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize,
                        true, 0.5, out);
                UpsampleLinear1dBackward.run(null, phase1.workspaceSize(), phase1.executor(), stream);
                stream.synchronize();
                float[] result = outMemory.segment().toArray(ValueLayout.JAVA_FLOAT);
                assertArrayEquals(new float[] {1, 0, 1, 1, 0, 3}, result);
            }
        }
    }
}
