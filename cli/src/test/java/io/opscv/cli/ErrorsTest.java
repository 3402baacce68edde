package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Errors that reach the CLI's top level: running out of heap is a status (exit 1), anything else exit 3; one line each. */
class ErrorsTest {

    private static String[] report(Error e, int expectedCode) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(expectedCode, OpscvCli.reportError(e, err));
        return bytes.toString(StandardCharsets.UTF_8).split("\n");
    }

    @Test
    void runningOutOfHeapIsTheRuntimeStatusInOneLine() {
        String[] lines = report(new OutOfMemoryError("Java heap space"), OpscvCli.EXIT_STATUS);
        assertEquals(1, lines.length);
        assertTrue(lines[0].startsWith("ACLNN_ERR_RUNTIME_ERROR (361001): opscv ran out of host memory (Java heap space)"),
                lines[0]);
    }

    @Test
    void otherErrorsAreInternalInOneLine() {
        String[] lines = report(new StackOverflowError(), OpscvCli.EXIT_INTERNAL);
        assertEquals(1, lines.length);
        assertTrue(lines[0].startsWith("opscv: internal error: java.lang.StackOverflowError"), lines[0]);
    }
}
