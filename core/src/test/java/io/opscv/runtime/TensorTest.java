package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** aclCreateTensor: views, strides, offsets, and the bounds every view must stay in. */
class TensorTest {
    private final AclRuntime acl = AclRuntime.init();
    private final Device device = acl.setDevice(0);

    @AfterEach
    void close() {
        acl.close();
    }

    private static void invalid(Runnable r, String text) {
        AclnnException e = assertThrows(AclnnException.class, r::run);
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    @Test
    void contiguousTensor() {
        Tensor t = Tensor.create(new long[] {2, 3, 4}, DataType.FLOAT, Format.NCL, device.malloc(96));
        assertArrayEquals(new long[] {12, 4, 1}, t.strides());
        assertEquals(24, t.numel());
        assertTrue(t.isContiguous());
        assertEquals(DataType.FLOAT, t.dataType());
        assertEquals(Format.NCL, t.format());
    }

    @Test
    void transposedViewIsNotContiguousButValid() {
        Tensor t = Tensor.create(new long[] {2, 3, 4}, DataType.FLOAT16, new long[] {1, 2, 6}, 0, Format.ND,
                new long[] {24}, device.malloc(48));
        assertFalse(t.isContiguous());
        assertEquals(6, t.stride(2));
    }

    @Test
    void viewReachingBeyondItsStorageIsRejected() {
        invalid(() -> Tensor.create(new long[] {2, 3}, DataType.FLOAT, new long[] {3, 1}, 1, Format.ND, new long[] {6},
                device.malloc(1024)), "reaches element 6, outside its storage of 6 elements");
    }

    @Test
    void storageBeyondItsMemoryIsRejected() {
        invalid(() -> Tensor.create(new long[] {4}, DataType.FLOAT, null, 0, Format.ND, new long[] {4}, device.malloc(15)),
                "does not fit in its device memory of 15 bytes");
    }

    @Test
    void overflowingViewsAreRejectedNotWrapped() {
        invalid(() -> Tensor.create(new long[] {3, 3}, DataType.FLOAT, new long[] {Long.MAX_VALUE / 2, 1}, 0, Format.ND,
                new long[] {4}, device.malloc(16)), "beyond 2^63");
        invalid(() -> Tensor.create(new long[] {1L << 32, 1L << 32}, DataType.FLOAT, null, 0, Format.ND, null,
                device.malloc(16)), "more than 2^63 elements");
        invalid(() -> Tensor.create(new long[] {1}, DataType.COMPLEX128, null, 0, Format.ND, new long[] {1L << 62},
                device.malloc(16)), "exceeds 2^63 bytes");
    }

    @Test
    void negativeDimensionsStridesAndOffsetsAreRejected() {
        invalid(() -> Tensor.create(new long[] {-1}, DataType.FLOAT, Format.ND, device.malloc(4)), "dimensions must be >= 0");
        invalid(() -> Tensor.create(new long[] {2}, DataType.FLOAT, new long[] {-1}, 1, Format.ND, new long[] {2},
                device.malloc(8)), "strides must be >= 0");
        invalid(() -> Tensor.create(new long[] {1}, DataType.FLOAT, null, -1, Format.ND, new long[] {1}, device.malloc(8)),
                "storageOffset must be >= 0");
        invalid(() -> Tensor.create(new long[] {2}, DataType.FLOAT, new long[] {1, 1}, 0, Format.ND, null,
                device.malloc(8)), "one entry per dimension");
        invalid(() -> Tensor.create(new long[9], DataType.FLOAT, Format.ND, device.malloc(8)), "at most 8 dimensions");
    }

    @Test
    void emptyTensorsNeedNoMemoryOthersDo() {
        Tensor empty = Tensor.create(new long[] {0, 1, 6}, DataType.FLOAT, Format.ND, null);
        assertTrue(empty.isEmpty());
        AclnnException e = assertThrows(AclnnException.class,
                () -> Tensor.create(new long[] {1}, DataType.FLOAT, Format.ND, null));
        assertEquals(AclnnStatus.ERR_PARAM_NULLPTR, e.status());
    }

    @Test
    void destroyedTensorCannotBeRead() {
        Tensor t = Tensor.create(new long[] {1}, DataType.FLOAT, Format.ND, device.malloc(4));
        t.close();
        assertFalse(t.isUsable());
        invalid(t::segment, "was destroyed");
    }

    @Test
    void broadcastViewNeedsOneElement() {
        Tensor t = Tensor.create(new long[] {1 << 20, 1 << 20}, DataType.FLOAT, new long[] {0, 0}, 0, Format.ND,
                new long[] {1}, device.malloc(4));
        assertEquals(1L << 40, t.numel());
    }
}
