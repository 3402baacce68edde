package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.kernel.KernelProviders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's own process, which makes one operator call, runs the scalar kernels up to
 * {@link Phase2Runner#SCALAR_CALL_BYTES} moved, unless {@code opscv.kernels} names kernels; the commands run inside
 * another program leave its kernels alone.
 */
class OneCallKernelsTest {
    @TempDir
    Path tmp;

    @Test
    void scalarUpToTheBoundWhereNoKernelsAreNamed() {
        assertEquals("scalar", Phase2Runner.kernelsFor(null, 0));
        assertEquals("scalar", Phase2Runner.kernelsFor(null, Phase2Runner.SCALAR_CALL_BYTES));
        assertNull(Phase2Runner.kernelsFor(null, Phase2Runner.SCALAR_CALL_BYTES + 1));
        assertNull(Phase2Runner.kernelsFor("auto", 100));
        assertNull(Phase2Runner.kernelsFor("scalar", Phase2Runner.SCALAR_CALL_BYTES + 1));
    }

    @Test
    void aOneCallProcessRunsTheScalarKernelsUnlessToldOtherwise() throws Exception {
        Path in = CliProcess.floats(tmp.resolve("g.npy"), 2, 3, 8);
        String[] args = {"linear1d-backward", "--grad-out", in.toString(), "--input-size", "2,3,4", "--explain", "--out",
                tmp.resolve("o.npy").toString()};
        CliProcess.Finished plain = CliProcess.run(CliProcess.Setting.PLAIN, args);
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.out().contains("\n  kernels: scalar\n"), plain.out());

        CliProcess.Finished told = CliProcess.run(CliProcess.Setting.jvm("-Dopscv.kernels=auto"), args);
        assertEquals(0, told.code(), told.err());
        assertTrue(told.out().contains("\n  kernels: vector-"), told.out());
    }

    @Test
    void commandsRunInsideAnotherProgramLeaveItsKernelsAlone() throws IOException {
        assumeTrue(System.getProperty(KernelProviders.PROPERTY) == null, "this JVM names no kernels");
        Path in = CliProcess.floats(tmp.resolve("g.npy"), 1, 1, 6);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = OpscvCli.execute(new String[] {"linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,3",
                "--out", tmp.resolve("o.npy").toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        assertNull(System.getProperty(KernelProviders.PROPERTY));
    }
}
