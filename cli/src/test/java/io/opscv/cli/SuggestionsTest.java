package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A mistyped subcommand or option gets one line naming the nearest, and the usage exit code. */
class SuggestionsTest {

    private static String stderrOf(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OpscvCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(OpscvCli.EXIT_USAGE, code);
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.lines().count(), text);
        return text;
    }

    @Test
    void aMistypedSubcommandSuggestsTheNearest() {
        String err = stderrOf("linear1d-backwrd");
        assertTrue(err.contains("did you mean linear1d-backward"), err);
    }

    @Test
    void aMistypedOptionSuggestsTheNearest() {
        String err = stderrOf("linear1d-backward", "--grad-out", "g.npy", "--input-size", "1,1,6", "--out", "o.npy",
                "--align-corner");
        assertTrue(err.contains("did you mean --align-corners"), err);
    }
}
