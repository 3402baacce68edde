package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Pinned device memory: a plan runs on it, so a free waits for the plan ({@link DeviceMemory#pin}).
 */
class PinnedMemoryTest {

    @Test
    void pinsNestAndAnUnpinWithoutPinFails() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            DeviceMemory m = device.malloc(256);
            assertTrue(m.pin());
            assertTrue(m.pin());
            m.unpin();
            Thread free = Thread.ofPlatform().start(m::close);
            try {
                free.join(200);
                assertTrue(free.isAlive(), "one pin is left: the free must wait");
            } finally {
                m.unpin();
            }
            free.join();
            assertTrue(m.isFreed());
            assertThrows(IllegalStateException.class, m::unpin);
        }
    }

    @Test
    void aFreeWaitsForThePinsThenReleasesTheMemory() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            DeviceMemory m = device.malloc(64);
            MemorySegment segment = m.segment();
            assertTrue(m.pin());
            Thread free = Thread.ofPlatform().start(m::close);
            try {
                free.join(300);
                assertTrue(free.isAlive(), "aclrtFree returned while the memory was pinned");
                assertTrue(segment.scope().isAlive(), "the memory was released while pinned");
                assertTrue(m.isFreed(), "the memory is already unusable for new work");
                assertFalse(m.pin(), "freed memory cannot be pinned");
                assertEquals(AclnnStatus.ERR_PARAM_INVALID, assertThrows(AclnnException.class, m::segment).status());
            } finally {
                m.unpin();
            }
            free.join(10_000);
            assertFalse(free.isAlive());
            assertFalse(segment.scope().isAlive(), "the last unpin lets the free release the memory");
        }
    }
}
