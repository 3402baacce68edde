package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code opscv bench}: issue 4's CSV header and columns, progress on stderr, argument errors. */
class BenchCommandTest {

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OpscvCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void csvHasTheExactHeaderAndOneRowPerCase() {
        Run r = run("bench", "--quick", "--threads", "2", "--format", "csv", "--case", "tiny_call");
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(2, lines.length, r.out());
        assertEquals("case,dtype,n,c,l_in,l_out,align_corners,threads,op_ms,copy_ms,ratio,gbps", lines[0]);
        String[] f = lines[1].split(",");
        assertEquals(12, f.length, lines[1]);
        assertEquals("tiny_call", f[0]);
        assertEquals("fp32", f[1]);
        assertEquals("1", f[2]);
        assertEquals("1", f[3]);
        assertEquals("6", f[4]);
        assertEquals("3", f[5]);
        assertEquals("true", f[6]);
        assertEquals("2", f[7]);
        double opMs = Double.parseDouble(f[8]);
        double copyMs = Double.parseDouble(f[9]);
        double ratio = Double.parseDouble(f[10]);
        assertTrue(opMs > 0 && copyMs > 0, lines[1]);
        assertEquals(opMs / copyMs, ratio, ratio * 1e-3, "ratio is op_ms / copy_ms");
        // Progress goes to stderr, results to stdout.
        assertTrue(r.err().contains("opscv bench: tiny_call"), r.err());
        assertTrue(!r.out().contains("opscv bench:"), r.out());
    }

    @Test
    void badArgumentsAreUsageErrors() {
        Run format = run("bench", "--format", "xml");
        assertEquals(OpscvCli.EXIT_USAGE, format.code());
        assertTrue(format.err().startsWith("opscv: error: --format: expected table or csv, but got 'xml'"), format.err());
        Run threads = run("bench", "--threads", "0");
        assertEquals(OpscvCli.EXIT_USAGE, threads.code());
        assertTrue(threads.err().contains("--threads: expected K >= 1, but got 0"), threads.err());
        Run unknown = run("bench", "--case", "up9x");
        assertEquals(OpscvCli.EXIT_USAGE, unknown.code());
        assertTrue(unknown.err().contains("--case: no case 'up9x'"), unknown.err());
    }
}
