/**
 * The library in one call per operation: {@link io.opscv.Upsample1d} (1-D linear interpolation of
 * (N, C, L) tensors and its gradient) and {@link io.opscv.Upsample2d} (bilinear interpolation of
 * NCHW or NHWC tensors and its gradient), on {@code float[]}, {@code short[]} (FLOAT16 / BF16 bits)
 * or {@link java.lang.foreign.MemorySegment}s, synchronous and thread-safe; {@link io.opscv.Kernels}
 * says which kernels run.
 *
 * <p>These classes are built on the ACL mirror of {@link io.opscv.runtime} and {@link io.opscv.op}
 * (runtime, device, streams, two-phase calls), which stays available for golden-model use.
 *
 * <p><b>JVM flags.</b> {@code --add-modules jdk.incubator.vector} enables the Vector API kernels
 * (without it the scalar kernels run, with one WARNING line); {@code --enable-native-access=io.opscv}
 * (or {@code =ALL-UNNAMED} on the class path) lets the library use huge pages without the JVM's
 * restricted-method warnings.
 *
 * <p><b>System properties.</b>
 * <ul>
 *   <li>{@code opscv.threads}: the number of worker threads the kernels use (default: the available
 *       processors). Results are bit-identical for every count.</li>
 *   <li>{@code opscv.kernels}: {@code scalar} forces the scalar kernels; {@code auto} (the default)
 *       takes the Vector API kernels when the module is present.</li>
 * </ul>
 */
package io.opscv;
