package io.opscv.kernel;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Zero fills of off-heap memory by the C library's {@code memset}, which on large fills writes whole lines
 * without reading them first ({@code rep stosb}), where {@link MemorySegment#fill}'s vector stores read each
 * line before writing it. Used only where it can be used quietly: with native access enabled for this module
 * (as {@code HugePages} requires), a {@code memset} found, and a native segment, which the downcall keeps
 * alive for the call (a shared arena cannot close it meanwhile); heap segments and everything else take
 * {@code fill}.
 */
final class NativeFill {
    /** Fills from this many bytes on call {@code memset}; below, the call costs more than it saves. */
    static final long MIN_BYTES = 4096;
    private static final MethodHandle MEMSET;

    static {
        MethodHandle memset = null;
        if (NativeFill.class.getModule().isNativeAccessEnabled()) {
            try {
                Linker linker = Linker.nativeLinker();
                memset = linker.downcallHandle(linker.defaultLookup().find("memset").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG));
            } catch (RuntimeException | LinkageError e) {
                memset = null;
            }
        }
        MEMSET = memset;
    }

    private NativeFill() {}

    /** Whether large fills of native segments go to {@code memset} here. */
    static boolean available() {
        return MEMSET != null;
    }

    /** Zeros bytes {@code [offset, offset + bytes)} of {@code seg}, and nothing else. */
    static void zero(MemorySegment seg, long offset, long bytes) {
        MemorySegment slice = seg.asSlice(offset, bytes);
        // A read-only segment goes to fill, which refuses it: a downcall would write it regardless.
        if (MEMSET == null || bytes < MIN_BYTES || !seg.isNative() || seg.isReadOnly()) {
            slice.fill((byte) 0);
            return;
        }
        try {
            MemorySegment ignored = (MemorySegment) MEMSET.invokeExact(slice, 0, bytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("memset failed", e);
        }
    }
}
