package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Device allocations beyond what the machine can give (issue 6, item 4): 361001 with a message,
 * never an OutOfMemoryError, and never an allocation that the kernel's out-of-memory killer would
 * end (the available-memory check is exercised with a fake figure, not by exhausting the machine).
 */
class DeviceMemoryLimitsTest {
    private final AclRuntime acl = AclRuntime.init();
    private final Device device = acl.setDevice(0);

    @AfterEach
    void close() {
        AvailableMemory.override(null);
        acl.close();
    }

    private AclnnException runtimeError(long size) {
        AclnnException e = assertThrows(AclnnException.class, () -> device.malloc(size));
        assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, e.status(), e.getMessage());
        assertTrue(e.getMessage().startsWith("aclrtMalloc could not allocate " + size + " bytes"), e.getMessage());
        return e;
    }

    @Test
    void allocationsBeyondTheMachineAreRuntimeErrors() {
        runtimeError(1L << 50);
        runtimeError(Long.MAX_VALUE);
        runtimeError(Long.MAX_VALUE - DeviceMemory.ALIGNMENT);
    }

    @Test
    void theJdkRefusalIsARuntimeErrorTooWhenTheCheckLetsItThrough() {
        AvailableMemory.override(() -> Long.MAX_VALUE);
        runtimeError(1L << 50);
    }

    @Test
    void aLargeAllocationAboveTheAvailableMemoryIsRefusedBeforeAnyPageIsTouched() {
        AvailableMemory.override(() -> 100L << 20);
        AclnnException e = runtimeError(200L << 20);
        assertTrue(e.getMessage().contains("(104857600 available to this process: a test's figure)"), e.getMessage());
        // At the figure itself it is granted; below the large-allocation threshold the figure is not consulted.
        device.malloc(100L << 20).close();
        AvailableMemory.override(() -> 0);
        device.malloc(DeviceMemory.LARGE_ALLOCATION_BYTES - 1).close();
    }

    @Test
    void theAvailableMemoryIsMeasured() {
        long available = AvailableMemory.bytes();
        assertTrue(available > 0 && available < Long.MAX_VALUE, "available " + available);
    }

    @Test
    void mallocAfterItsDeviceWasResetIsRefused() {
        Device other = acl.setDevice(1);
        other.close();
        AclnnException e = assertThrows(AclnnException.class, () -> other.malloc(64));
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
    }
}
