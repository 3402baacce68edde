package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Pinned device memory: kernels read and write it at raw addresses while a plan runs on it, so it
 * must not be freed meanwhile ({@link DeviceMemory#pin}, {@link PinnedScopes}).
 */
class PinnedMemoryTest {

    @Test
    void allocatedMemoryIsHeldExactlyWhilePinned() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            DeviceMemory m = device.malloc(256);
            MemorySegment slice = m.segment().asSlice(64, 64);
            assertFalse(PinnedScopes.isHeld(slice));
            assertTrue(m.pin());
            try {
                assertTrue(m.pin());
                try {
                    assertTrue(PinnedScopes.isHeld(slice), "a slice shares its memory's scope");
                } finally {
                    m.unpin();
                }
                assertTrue(PinnedScopes.isHeld(slice), "pins nest");
            } finally {
                // (Unpinned in finally: a pin left behind would make the device's close wait for ever.)
                m.unpin();
            }
            assertFalse(PinnedScopes.isHeld(slice));
            assertThrows(IllegalStateException.class, m::unpin);
        }
    }

    @Test
    void wrappedMemoryIsNeverHeldItsOwnerMayCloseIt() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Arena arena = Arena.ofShared()) {
            DeviceMemory m = device.wrap(arena.allocate(64));
            assertTrue(m.pin());
            assertFalse(PinnedScopes.isHeld(m.segment()));
            m.unpin();
            // Heap memory cannot be held either (no raw address).
            try (PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
                assertTrue(PinnedScopes.isHeld(arena.allocate(4)));
                assertFalse(PinnedScopes.isHeld(MemorySegment.ofArray(new float[4])));
            }
        }
    }

    @Test
    void aClosedScopeCannotBeHeld() {
        Arena arena = Arena.ofShared();
        arena.close();
        assertThrows(IllegalStateException.class, () -> PinnedScopes.hold(arena.scope()));
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
            assertFalse(PinnedScopes.isHeld(segment));
        }
    }
}
