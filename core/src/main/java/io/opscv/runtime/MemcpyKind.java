package io.opscv.runtime;

/** {@code aclrtMemcpyKind}: the direction of a copy. */
public enum MemcpyKind {
    HOST_TO_HOST,
    HOST_TO_DEVICE,
    DEVICE_TO_HOST,
    DEVICE_TO_DEVICE
}
