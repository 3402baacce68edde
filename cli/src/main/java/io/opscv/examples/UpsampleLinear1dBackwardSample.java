package io.opscv.examples;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.MemcpyKind;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * The upstream sample program of {@code aclnnUpsampleLinear1dBackward} (SPEC §8), step for step:
 * gradOut = [1, 2, 3] of shape {1, 1, 3}, out of shape {1, 1, 6}, alignCorners = true,
 * scales = 0.5. It prints {@code result[i] is: %f} for the six values of out (1, 0, 1, 1, 0, 3).
 */
public final class UpsampleLinear1dBackwardSample {
    private UpsampleLinear1dBackwardSample() {}

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the sample, printing to {@code printer}; returns the six result values. */
    public static float[] run(PrintStream printer) {
        long[] gradOutShape = {1, 1, 3};
        long[] outShape = {1, 1, 6};
        float[] gradOutHost = {1, 2, 3};
        float[] result = new float[6];
        // aclInit, aclrtSetDevice(0), aclrtCreateStream
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Stream stream = device.createStream();
             Arena host = Arena.ofConfined()) {
            long gradOutBytes = gradOutHost.length * 4L;
            long outBytes = result.length * 4L;
            // aclrtMalloc + aclrtMemcpy host -> device
            try (DeviceMemory gradOutDevice = device.malloc(gradOutBytes);
                 DeviceMemory outDevice = device.malloc(outBytes)) {
                MemorySegment gradOutHostSeg = host.allocateFrom(ValueLayout.JAVA_FLOAT, gradOutHost);
                device.memcpy(gradOutDevice, gradOutBytes, gradOutHostSeg, gradOutBytes, MemcpyKind.HOST_TO_DEVICE);

                // aclCreateTensor, aclCreateIntArray
                try (Tensor gradOut = Tensor.create(gradOutShape, DataType.FLOAT, Tensor.contiguousStrides(gradOutShape), 0,
                             Format.ND, gradOutShape, gradOutDevice);
                     Tensor out = Tensor.create(outShape, DataType.FLOAT, Tensor.contiguousStrides(outShape), 0,
                             Format.ND, outShape, outDevice);
                     IntArray outputSize = IntArray.of(3);
                     IntArray inputSize = IntArray.of(1, 1, 6)) {
                    boolean alignCorners = true;
                    double scales = 0.5;

                    // Phase 1: aclnnUpsampleLinear1dBackwardGetWorkspaceSize
                    WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(
                            gradOut, outputSize, inputSize, alignCorners, scales, out);
                    long workspaceSize = phase1.workspaceSize();
                    DeviceMemory workspace = workspaceSize > 0 ? device.malloc(workspaceSize) : null;
                    try {
                        // Phase 2: aclnnUpsampleLinear1dBackward, then aclrtSynchronizeStream
                        UpsampleLinear1dBackward.run(workspace, workspaceSize, phase1.executor(), stream);
                        stream.synchronize();
                    } finally {
                        if (workspace != null) {
                            workspace.close();
                        }
                    }

                    // aclrtMemcpy device -> host, print
                    MemorySegment resultHost = host.allocate(outBytes, 4);
                    device.memcpy(resultHost, outBytes, outDevice, outBytes, MemcpyKind.DEVICE_TO_HOST);
                    for (int i = 0; i < result.length; i++) {
                        result[i] = resultHost.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                        printer.println(String.format(Locale.ROOT, "result[%d] is: %f", i, result[i]));
                    }
                }   // aclDestroyTensor, aclDestroyIntArray
            }       // aclrtFree
        }           // aclrtDestroyStream, aclrtResetDevice, aclFinalize
        return result;
    }
}
