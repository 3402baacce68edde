package io.opscv.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The runtime, as {@code aclInit} / {@code aclFinalize} bracket it: it hands out devices
 * ({@code aclrtSetDevice}), which hand out streams and device memory.
 *
 * <pre>{@code
 * try (AclRuntime acl = AclRuntime.init();              // aclInit
 *      Device device = acl.setDevice(0);                // aclrtSetDevice
 *      Stream stream = device.createStream()) {         // aclrtCreateStream
 *     ...
 * }                                                     // aclrtDestroyStream, aclrtResetDevice, aclFinalize
 * }</pre>
 *
 * <p>"Device memory" is off-heap host memory ({@code java.lang.foreign}); the platform a runtime is
 * initialised with decides which product's rules and plans the operators follow (SPEC §6).
 */
public final class AclRuntime implements AutoCloseable {
    /** How many devices this runtime exposes: device ids 0 .. DEVICE_COUNT - 1. */
    public static final int DEVICE_COUNT = 8;

    private final Platform platform;
    private final List<Device> devices = new ArrayList<>();
    private boolean closed;

    private AclRuntime(Platform platform) {
        this.platform = platform;
    }

    /** {@return a runtime whose devices behave as the default platform ({@link Platform#CPU})}, as {@code aclInit} */
    public static AclRuntime init() {
        return init(Platform.defaultPlatform());
    }

    /**
     * {@code aclInit}, with every device of this runtime behaving as {@code platform}.
     *
     * @param platform the product whose rules and plans the operators follow (161001 when null)
     * @return the runtime; closing it is {@code aclFinalize}
     */
    public static AclRuntime init(Platform platform) {
        if (platform == null) {
            throw AclnnException.nullptr("Expected a proper Platform but got null for argument platform.");
        }
        return new AclRuntime(platform);
    }

    /** {@return the platform this runtime's devices behave as} */
    public Platform platform() {
        return platform;
    }

    /**
     * {@code aclrtSetDevice}: opens device {@code deviceId}; closing the device resets it.
     *
     * @param deviceId 0 .. {@link #DEVICE_COUNT} - 1 (161002 otherwise)
     * @return the open device
     */
    public synchronized Device setDevice(int deviceId) {
        ensureOpen();
        if (deviceId < 0 || deviceId >= DEVICE_COUNT) {
            throw AclnnException.invalid("Invalid device id " + deviceId + ", expected 0 <= deviceId < " + DEVICE_COUNT + ".");
        }
        Device device = new Device(this, deviceId, platform);
        devices.add(device);
        return device;
    }

    /**
     * {@code aclGetRecentErrMsg}: reading the message clears it.
     *
     * @return the message of the last failure on this thread, or {@code null}
     */
    public static String getRecentErrMsg() {
        return RecentError.takeAndClear();
    }

    synchronized void forget(Device device) {
        devices.remove(device);
    }

    private void ensureOpen() {
        if (closed) {
            throw AclnnException.invalid("The runtime was finalized (aclFinalize) and cannot be used.");
        }
    }

    /** {@code aclFinalize}: resets every device still open (waiting for their streams). */
    @Override
    public void close() {
        List<Device> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open = new ArrayList<>(devices);
        }
        AclnnException first = null;
        for (Device device : open) {
            try {
                device.close();
            } catch (AclnnException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "AclRuntime[platform=" + Objects.toString(platform) + (closed ? ", finalized]" : "]");
    }
}
