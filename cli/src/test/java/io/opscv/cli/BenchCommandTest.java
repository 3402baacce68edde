package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code opscv bench}: issue 4's CSV header and columns, progress on stderr, argument errors; {@code --sweep}
 * end to end at tiny sizes, its CSV header and columns, the summary, its option errors.
 */
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
        // The times are printed to 1 ns (6 decimals of a ms) and the ratio to 4 decimals: the tiny call's copy of a
        // few hundred ns carries a rounding of up to 0.3 % into op_ms / copy_ms.
        double rounding = ratio * (0.5e-6 / copyMs + 0.5e-6 / opMs) + 0.5e-4;
        assertEquals(opMs / copyMs, ratio, rounding + ratio * 1e-6, "ratio is op_ms / copy_ms");
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

    @Test
    void csvOfEveryOperator() {
        Run r = run("bench", "--sweep", "--op", "all", "--quick", "--count", "2", "--traffic", "0.02", "--threads", "2",
                "--format", "csv");
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals("case,op,dtype,in_shape,out_shape,align_corners,scales,layout,threads,op_ms,copy_ms,ratio,gbps", lines[0]);
        // 2 memory-bound and 1 cache-resident case per operator.
        assertEquals(1 + 4 * 3, lines.length, r.out());
        Set<String> ops = Stream.of(lines).skip(1).map(l -> l.split(",")[1]).collect(Collectors.toSet());
        assertEquals(Set.of("linear1d_backward", "linear1d", "bilinear2d", "bilinear2d_backward"), ops);
        for (String line : List.of(lines).subList(1, lines.length)) {
            String[] f = line.split(",");
            assertEquals(13, f.length, line);
            boolean twoD = f[1].startsWith("bilinear2d");
            assertEquals(twoD ? 4 : 3, f[3].split("x").length, line);
            assertEquals(twoD ? 4 : 3, f[4].split("x").length, line);
            assertTrue(f[0].startsWith("m") || f[0].startsWith("l2_"), line);
            assertTrue(Set.of("true", "false").contains(f[5]), line);
            assertTrue((twoD ? Set.of("nchw", "nhwc") : Set.of("contiguous", "transposed", "strided_out")).contains(f[7]), line);
            assertEquals("2", f[8]);
            double opMs = Double.parseDouble(f[9]);
            double copyMs = Double.parseDouble(f[10]);
            assertTrue(opMs > 0 && copyMs > 0, line);
            assertEquals(opMs / copyMs, Double.parseDouble(f[11]), Double.parseDouble(f[11]) * 1e-3, line);
        }
        assertTrue(r.err().contains("opscv bench --sweep:"), r.err());
        assertTrue(!r.out().contains("opscv bench"), "progress on stderr only");
        // Each case's progress line counts the bytes a call allocates (boxed vectors show there).
        assertEquals(12, r.err().lines().filter(l -> l.matches(".*ratio [0-9.]+, allocated [0-9.]+ MB a call.*"))
                .count(), r.err());
    }

    @Test
    void theTableEndsWithTheSummary() {
        Run r = run("bench", "--sweep", "--quick", "--count", "3", "--traffic", "0.02", "--threads", "1");
        assertEquals(0, r.code(), r.err());
        List<String> lines = List.of(r.out().strip().split("\n"));
        assertTrue(lines.get(0).startsWith("case "), lines.get(0));
        assertEquals(2 + 3 + 1 + 1, lines.indexOf(lines.stream().filter(l -> l.startsWith("summary of op / copy"))
                .findFirst().orElseThrow()), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("memory-bound, all ") && l.contains(" 3 ")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("cache-resident (l2_), all ")), r.out());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("memory-bound, linear1d")), "one operator: no per-op lines");
        assertTrue(lines.stream().skip(2).limit(3).allMatch(l -> l.contains("linear1d_backward")), "the default --op");
    }

    @Test
    void aSeedGivesTheSameCases() {
        Run a = run("bench", "--sweep", "--op", "bilinear2d", "--seed", "5", "--quick", "--count", "2", "--traffic",
                "0.02", "--format", "csv");
        Run b = run("bench", "--sweep", "--op", "bilinear2d", "--seed", "5", "--quick", "--count", "2", "--traffic",
                "0.02", "--format", "csv");
        assertEquals(0, a.code(), a.err());
        assertEquals(shapes(a.out()), shapes(b.out()));
    }

    @Test
    void caseSelectsDrawnCasesByNameOrIndex() {
        Run all = run("bench", "--sweep", "--op", "all", "--quick", "--count", "3", "--traffic", "0.02", "--format",
                "csv");
        Run some = run("bench", "--sweep", "--op", "all", "--quick", "--count", "3", "--traffic", "0.02", "--format",
                "csv", "--case", "m01", "--case", "l2_00");
        assertEquals(0, some.code(), some.err());
        List<String> expected = shapes(all.out()).stream()
                .filter(l -> l.startsWith("case,") || l.startsWith("m01_") || l.startsWith("l2_00_")).toList();
        assertEquals(1 + 4 * 2, expected.size(), all.out());
        assertEquals(expected, shapes(some.out()));
        String name = expected.get(1).split(",")[0];
        Run whole = run("bench", "--sweep", "--quick", "--count", "3", "--traffic", "0.02", "--format", "csv",
                "--case", name);
        assertEquals(List.of(expected.get(0), expected.get(1)), shapes(whole.out()));
    }

    /** The columns that describe a case (not its times). */
    private static List<String> shapes(String csv) {
        return Stream.of(csv.strip().split("\n")).map(l -> String.join(",", List.of(l.split(",")).subList(0, 8))).toList();
    }

    @Test
    void badOptionsAreOneLineUsageErrors() {
        String[][] bad = {
            {"bench", "--sweep", "--op", "conv2d"},
            {"bench", "--sweep", "--count", "0"},
            {"bench", "--sweep", "--traffic", "0"},
            {"bench", "--sweep", "--traffic", "NaN"},
            {"bench", "--sweep", "--seed", "x"},
            {"bench", "--sweep", "--format", "xml"},
            {"bench", "--sweep", "--threads", "0"},
            {"bench", "--sweep", "--case", "up2x"},
            {"bench", "--sweep", "--case", "m0"},
            {"bench", "--op", "linear1d"},
            {"bench", "--seed", "3"},
            {"bench", "--count", "3"},
            {"bench", "--traffic", "1"},
        };
        String[] expected = {
            "--op: expected linear1d_backward, linear1d, bilinear2d, bilinear2d_backward or all, but got 'conv2d'",
            "--count: expected K >= 1, but got 0",
            "--traffic: expected MIB in (0, 4096], but got 0.0",
            "--traffic: expected MIB in (0, 4096], but got NaN",
            "--seed",
            "--format: expected table or csv, but got 'xml'",
            "--threads: expected K >= 1, but got 0",
            "--case: no drawn case 'up2x'",
            "--case: no drawn case 'm0'",
            "--op: only with --sweep",
            "--seed: only with --sweep",
            "--count: only with --sweep",
            "--traffic: only with --sweep",
        };
        for (int i = 0; i < bad.length; i++) {
            Run r = run(bad[i]);
            String args = String.join(" ", bad[i]);
            assertEquals(OpscvCli.EXIT_USAGE, r.code(), args);
            assertEquals(1, r.err().strip().split("\n").length, args + ": " + r.err());
            assertTrue(r.err().startsWith("opscv: error: ") && r.err().contains(expected[i]), args + ": " + r.err());
            assertEquals("", r.out(), args);
        }
    }

    @Test
    void helpNamesTheSweep() {
        Run r = run("bench", "--help");
        assertEquals(0, r.code());
        for (String option : List.of("--sweep", "--op", "--seed", "--count", "--traffic", "in_shape")) {
            assertTrue(r.out().contains(option), option);
        }
    }
}
