package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The ACL runtime mirror: devices, memory, copies, streams, options and the recent-error text. */
class RuntimeTest {

    @Test
    void memcpyRoundTripsThroughDeviceMemory() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Arena host = Arena.ofConfined()) {
            MemorySegment src = host.allocateFrom(ValueLayout.JAVA_FLOAT, 1f, 2f, 3f, 4f);
            DeviceMemory a = device.malloc(16);
            DeviceMemory b = device.malloc(16);
            device.memcpy(a, 16, src, 16, MemcpyKind.HOST_TO_DEVICE);
            device.memcpy(b, 16, a, 16, MemcpyKind.DEVICE_TO_DEVICE);
            MemorySegment dst = host.allocate(16);
            device.memcpy(dst, 16, b, 16, MemcpyKind.DEVICE_TO_HOST);
            assertArrayEquals(new float[] {1, 2, 3, 4}, dst.toArray(ValueLayout.JAVA_FLOAT));
        }
    }

    @Test
    void memcpyChecksSizesAndKind() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Arena host = Arena.ofConfined()) {
            MemorySegment src = host.allocate(32);
            DeviceMemory d = device.malloc(16);
            AclnnException tooMuch = assertThrows(AclnnException.class,
                    () -> device.memcpy(d, 16, src, 32, MemcpyKind.HOST_TO_DEVICE));
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, tooMuch.status());
            assertTrue(tooMuch.getMessage().contains("count (32) > destMax (16)"), tooMuch.getMessage());
            assertThrows(AclnnException.class, () -> device.memcpy(d, 32, src, 32, MemcpyKind.HOST_TO_DEVICE));
            AclnnException kind = assertThrows(AclnnException.class,
                    () -> device.memcpy(d, 16, src, 16, MemcpyKind.DEVICE_TO_HOST));
            assertTrue(kind.getMessage().contains("does not match"), kind.getMessage());
            AclnnException nul = assertThrows(AclnnException.class,
                    () -> device.memcpy((DeviceMemory) null, 16, src, 16, MemcpyKind.HOST_TO_DEVICE));
            assertEquals(AclnnStatus.ERR_PARAM_NULLPTR, nul.status());
        }
    }

    @Test
    void mallocRejectsNonPositiveSizesAndReportsExhaustionAsRuntimeError() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0)) {
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, assertThrows(AclnnException.class, () -> device.malloc(0)).status());
            AclnnException huge = assertThrows(AclnnException.class, () -> device.malloc(1L << 60));
            assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, huge.status());
        }
    }

    @Test
    void freedMemoryCannotBeUsed() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0)) {
            DeviceMemory m = device.malloc(64);
            m.close();
            assertTrue(m.isFreed());
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, assertThrows(AclnnException.class, m::segment).status());
            assertThrows(AclnnException.class, () -> Tensor.create(new long[] {4}, DataType.FLOAT, Format.ND, m));
            m.close(); // idempotent
        }
    }

    @Test
    void streamRunsTasksInOrderAndAsynchronously() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch gate = new CountDownLatch(1);
            stream.launch(() -> {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                order.add(0);
            });
            for (int k = 1; k <= 100; k++) {
                int v = k;
                stream.launch(() -> order.add(v));
            }
            // launch returned while the first task is still blocked: the stream is asynchronous.
            assertTrue(order.isEmpty());
            gate.countDown();
            stream.synchronize();
            assertEquals(101, order.size());
            for (int k = 0; k <= 100; k++) {
                assertEquals(k, order.get(k));
            }
        }
    }

    @Test
    void synchronizeReportsTheFirstFailureOnceAndTheStreamGoesOn() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            stream.launch(() -> {
                throw AclnnException.invalid("first");
            });
            stream.launch(() -> {
                throw new IllegalStateException("second");
            });
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals("first", e.getMessage());
            assertEquals("first", AclRuntime.getRecentErrMsg());
            stream.synchronize(); // cleared
            int[] ran = {0};
            stream.launch(() -> ran[0]++);
            stream.synchronize();
            assertEquals(1, ran[0]);
        }
    }

    @Test
    void destroyedStreamTakesNoWork() {
        try (AclRuntime acl = AclRuntime.init();
             Device device = acl.setDevice(0)) {
            Stream stream = device.createStream();
            int[] ran = {0};
            stream.launch(() -> ran[0]++);
            stream.close(); // drains first
            assertEquals(1, ran[0]);
            assertFalse(stream.isOpen());
            assertThrows(AclnnException.class, () -> stream.launch(() -> ran[0]++));
        }
    }

    @Test
    void resetDeviceFreesItsMemoryAndFinalizeResetsDevices() {
        AclRuntime acl = AclRuntime.init();
        Device device = acl.setDevice(0);
        DeviceMemory m = device.malloc(8);
        Stream s = device.createStream();
        acl.close();
        assertTrue(m.isFreed());
        assertFalse(s.isOpen());
        assertThrows(AclnnException.class, () -> device.malloc(8));
        assertThrows(AclnnException.class, () -> acl.setDevice(0));
    }

    @Test
    void deviceIdsAreChecked() {
        try (AclRuntime acl = AclRuntime.init()) {
            assertThrows(AclnnException.class, () -> acl.setDevice(-1));
            assertThrows(AclnnException.class, () -> acl.setDevice(AclRuntime.DEVICE_COUNT));
            acl.setDevice(AclRuntime.DEVICE_COUNT - 1).close();
        }
    }

    @Test
    void determinismSwitch() {
        try (AclRuntime a950 = AclRuntime.init(Platform.ASCEND950);
             Device d = a950.setDevice(0);
             AclRuntime a2 = AclRuntime.init(Platform.ASCEND910B);
             Device d2 = a2.setDevice(0)) {
            assertEquals(0, d.getSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC), "Ascend950 defaults to non-deterministic");
            d.setSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC, 1);
            assertTrue(d.deterministic());
            d.setSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC, 0);
            assertFalse(d.deterministic());
            assertEquals(1, d2.getSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC), "A2 is deterministic by default");
            assertThrows(AclnnException.class, () -> d.setSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC, 2));
        }
    }

    @Test
    void platformsByName() {
        assertEquals(Platform.CPU, Platform.defaultPlatform());
        assertEquals(Platform.ASCEND910_93, Platform.byName("ascend910_93"));
        assertEquals(Platform.ASCEND910B, Platform.byName("Ascend910B"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Platform.byName("tpu"));
        assertTrue(e.getMessage().contains("known: cpu, ascend950"), e.getMessage());
        assertFalse(Platform.ASCEND310B.supported());
    }

    @Test
    void statusCodes() {
        assertEquals(161001, AclnnStatus.ERR_PARAM_NULLPTR.code());
        assertEquals(161002, AclnnStatus.ERR_PARAM_INVALID.code());
        assertEquals(361001, AclnnStatus.ERR_RUNTIME_ERROR.code());
        assertEquals(561103, AclnnStatus.ERR_INNER_NULLPTR.code());
        assertEquals("ACLNN_ERR_PARAM_INVALID (161002): bad", AclnnException.invalid("bad").toString());
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, AclnnStatus.ofCode(161002));
    }
}
