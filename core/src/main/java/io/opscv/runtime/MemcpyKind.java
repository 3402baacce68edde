package io.opscv.runtime;

/** {@code aclrtMemcpyKind}: the direction of a copy. */
public enum MemcpyKind {
    /** {@code ACL_MEMCPY_HOST_TO_HOST}. */
    HOST_TO_HOST,
    /** {@code ACL_MEMCPY_HOST_TO_DEVICE}. */
    HOST_TO_DEVICE,
    /** {@code ACL_MEMCPY_DEVICE_TO_HOST}. */
    DEVICE_TO_HOST,
    /** {@code ACL_MEMCPY_DEVICE_TO_DEVICE}. */
    DEVICE_TO_DEVICE
}
