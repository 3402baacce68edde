package io.opscv.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, item 6: an allocation failure while a plan runs is the runtime status (361001) with a message
 * saying what ran out and where, never a raw OutOfMemoryError (the CLI then exits 1, not 3).
 */
class OutOfMemoryStatusTest {

    /** A step whose run fails as a kernel does when its tables or buffers do not fit the heap. */
    private static final class ExhaustingStep implements PlanStep {
        @Override
        public String name() {
            return "Exhausting";
        }

        @Override
        public String describe() {
            return "throws OutOfMemoryError";
        }

        @Override
        public void run(MemorySegment workspace) {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void anOutOfMemoryErrorInAStepsRunIsReportedAs361001NamingTheStep() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Tensor t = Tensor.create(new long[] {1, 1, 4}, DataType.FLOAT, Format.ND, device.malloc(16));
            Executor executor = new Executor(UpsampleLinear1dBackward.NAME, Platform.CPU, List.of(new ExhaustingStep()),
                    List.of(t));
            UpsampleLinear1dBackward.run(null, 0, executor, stream);
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, e.status());
            assertEquals("aclnnUpsampleLinear1dBackward ran out of host memory in its step Exhausting (Java heap space):"
                    + " run the JVM with a larger heap (-Xmx) or call it on smaller tensors.", e.getMessage());
        }
    }
}
