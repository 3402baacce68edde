package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Numbers on the command line: Python's ASCII decimal syntax, nothing of Java's wider one. */
class NumbersTest {
    @TempDir
    Path dir;

    @Test
    void acceptsWhatPythonsFloatAndIntAcceptInAsciiDecimal() {
        assertEquals(0.5, Numbers.parseDouble("0.5"));
        assertEquals(0.5, Numbers.parseDouble(".5"));
        assertEquals(5.0, Numbers.parseDouble("5."));
        assertEquals(-2.5e-3, Numbers.parseDouble("-2.5E-3"));
        assertEquals(1e10, Numbers.parseDouble("+1e10"));
        assertEquals(Double.POSITIVE_INFINITY, Numbers.parseDouble("inf"));
        assertEquals(Double.NEGATIVE_INFINITY, Numbers.parseDouble("-Infinity"));
        assertTrue(Double.isNaN(Numbers.parseDouble("NaN")));
        assertEquals(Double.POSITIVE_INFINITY, Numbers.parseDouble("1e999"), "as float('1e999')");
        assertEquals(-7L, Numbers.parseLong("-7"));
        assertEquals(7L, Numbers.parseLong("+007"), "as int('+007')");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.5f", "0.5F", "1d", "0x1p-1", "0X10", "\u0661", "\u0661.5", "1e", ".", "e5", "1_0", "", " ",
        "Infinityx", "1.5.2", "\u0665e1", "\uff11"})
    void refusesJavasOtherSpellings(String text) {
        assertThrows(NumberFormatException.class, () -> Numbers.parseDouble(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0663", "\u0661\u0662", "0x10", "1.0", "1e3", "1_000", "", "+", "99999999999999999999", "\uff13"})
    void refusesWhatIsNotAPlainDecimalInteger(String text) {
        assertThrows(NumberFormatException.class, () -> Numbers.parseLong(text), text);
    }

    @Test
    void theCommandsRefuseThemWithOneLineAndExitCode2() throws IOException {
        Path in = CliProcess.floats(dir.resolve("g.npy"), 1, 1, 3);
        Path out = dir.resolve("out.npy");
        List<List<String>> bad = List.of(
                List.of("--input-size", "1,1,\u0666"),
                List.of("--input-size", "1,1,6", "--output-size", "\u0663"),
                List.of("--input-size", "1,1,6", "--scales", "0.5f"),
                List.of("--input-size", "1,1,6", "--scales", "0x1p-1"),
                List.of("--input-size", "1,1,6", "--scales", "\u0662"));
        for (List<String> extra : bad) {
            List<String> argv = new java.util.ArrayList<>(List.of("linear1d-backward", "--grad-out", in.toString(),
                    "--out", out.toString()));
            argv.addAll(extra);
            HostileNpyFilesTest.Result r = HostileNpyFilesTest.run(argv.toArray(new String[0]));
            assertEquals(2, r.code(), extra + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("opscv: error: "), r.err());
        }
        HostileNpyFilesTest.Result seed = HostileNpyFilesTest.run("gradcheck", "--input-size", "1,1,3", "--output-size", "6",
                "--seed", "\u0663");
        assertEquals(2, seed.code(), seed.err());
        assertTrue(seed.err().contains("'\u0663' is not an integer"), seed.err());
        HostileNpyFilesTest.Result scales = HostileNpyFilesTest.run("gradcheck", "--input-size", "1,1,3", "--output-size", "6",
                "--scales", "2.0d");
        assertEquals(2, scales.code(), scales.err());
        assertTrue(scales.err().contains("'2.0d' is not a decimal number"), scales.err());
        assertTrue(!Files.exists(out));
        // And the ordinary spellings still work.
        HostileNpyFilesTest.Result ok = HostileNpyFilesTest.run("linear1d-backward", "--grad-out", in.toString(), "--out",
                out.toString(), "--input-size", "1, 1, +6", "--output-size", "3", "--scales", "5e-1");
        assertEquals(0, ok.code(), ok.err());
    }
}
