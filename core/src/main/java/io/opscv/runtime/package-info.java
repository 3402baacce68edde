/**
 * The ACL runtime mirror: {@link io.opscv.runtime.AclRuntime} ({@code aclInit}), devices
 * ({@code aclrtSetDevice}), {@link io.opscv.runtime.DeviceMemory} (off-heap, {@code aclrtMalloc}, or a
 * wrapped {@link java.lang.foreign.MemorySegment}), ordered asynchronous
 * {@link io.opscv.runtime.Stream}s, {@link io.opscv.runtime.Tensor} views ({@code aclCreateTensor}),
 * data types, formats, platforms, and {@link io.opscv.runtime.AclnnException}, which carries the ACLNN
 * status of every failure. Everything that holds resources is {@link java.lang.AutoCloseable}.
 */
package io.opscv.runtime;
