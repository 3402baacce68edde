package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.perf.BenchmarkCase;
import io.opscv.runtime.DataType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SettingsComparisonTest {
    @Test
    void settingsParseOverTheDefault() {
        assertEquals(Linear1dBackwardKernel.Settings.DEFAULT, SettingsComparison.settings("default"));
        Linear1dBackwardKernel.Settings s = SettingsComparison.settings("longRows=6,longBlock=4096,askProvider=false");
        assertEquals(6, s.longRows());
        assertEquals(4096, s.longBlock());
        assertFalse(s.askProvider());
        assertEquals(Linear1dBackwardKernel.Settings.DEFAULT.sideBySideBlock(), s.sideBySideBlock());
        assertEquals(2048, SettingsComparison.settings("shortBlock=2048").shortBlock());
        assertEquals(4096, SettingsComparison.settings("shortFormBlock=4096").shortFormBlock());
        assertEquals(16384, SettingsComparison.settings("fewRowsBlock=16384").fewRowsBlock());
        assertThrows(IllegalArgumentException.class, () -> SettingsComparison.settings("shortFormBlock=0"));
        assertThrows(IllegalArgumentException.class, () -> SettingsComparison.settings("rows=2"));
        assertThrows(IllegalArgumentException.class, () -> SettingsComparison.settings("longRows=0"));
    }

    @Test
    void casesAreBenchIdsOrShapes() {
        assertEquals("up2x", SettingsComparison.benchCase("up2x").name());
        BenchmarkCase c = SettingsComparison.benchCase("8,64,2100,4200,ac,t");
        assertEquals(2100, c.lin());
        assertTrue(c.alignCorners());
        assertTrue(c.transposed());
        assertEquals(DataType.FLOAT, c.dtype());
        assertEquals(DataType.FLOAT16, SettingsComparison.benchCase("4096,64,16,64,fp16").dtype());
        assertEquals(DataType.BF16, SettingsComparison.benchCase("4096,64,16,64,bf16").dtype());
    }

    /** Every setting writes the same bits (compare checks it before timing): long rows, wide, side by side, short. */
    @Test
    void differentSettingsSumTheSame() {
        Linear1dBackwardKernel.Settings[] settings = {
                SettingsComparison.settings("default"),
                SettingsComparison.settings("longRows=6,longBlock=4096"),
                SettingsComparison.settings("longRows=3,longBlock=8192,askProvider=false"),
                SettingsComparison.settings("inPlaceRows=2,inPlaceBlock=1024,sideBySideBlock=512"),
                SettingsComparison.settings("wideRows=5,wideBlock=700"),
                SettingsComparison.settings("shortBlock=1024"),
                SettingsComparison.settings("shortFormBlock=512"),
                SettingsComparison.settings("fewRowsBlock=2048,inPlaceBlock=1024")};
        for (String shape : new String[] {"64,8,4200,8400", "2,6,4500,8000", "4,10,2100,7000", "8,64,2100,4200,ac,t",
            "64,64,16,64", "32,64,300,500,bf16", "1,2,40000,80000"}) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            double[][] medians = SettingsComparison.compare(SettingsComparison.benchCase(shape), settings, 1, 0,
                    new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(settings.length + 1, medians.length, shape);
            for (double[] m : medians) {
                assertTrue(m[0] > 0, shape);
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).startsWith("round 1:"), shape);
        }
    }
}
