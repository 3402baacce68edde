package io.opscv.perf.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The summary's statistics and groups, and the CSV's header and rows. */
class SweepSummaryTest {

    @Test
    void medianP90AndWorst() {
        SweepSummary.Stats odd = SweepSummary.Stats.of(new double[] {3, 1, 2});
        assertEquals(2, odd.median());
        assertEquals(3, odd.p90());
        assertEquals(3, odd.worst());
        double[] ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
        SweepSummary.Stats s10 = SweepSummary.Stats.of(ten);
        assertEquals(5.5, s10.median(), "the mean of the two middle values");
        assertEquals(9, s10.p90(), "nearest rank: the 9th of 10");
        assertEquals(10, s10.worst());
        double[] twenty = new double[20];
        for (int i = 0; i < 20; i++) {
            twenty[i] = 20 - i;
        }
        assertEquals(18, SweepSummary.Stats.of(twenty).p90(), "the 18th of 20");
        assertEquals(10.5, SweepSummary.Stats.of(twenty).median());
        double[] eleven = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100};
        assertEquals(10, SweepSummary.Stats.of(eleven).p90(), "the 10th of 11 (0.9 * 11 = 9.9, rounded up)");
        assertEquals(6, SweepSummary.Stats.of(eleven).median());
        assertEquals(1, SweepSummary.Stats.of(new double[] {1}).p90());
        assertThrows(IllegalArgumentException.class, () -> SweepSummary.Stats.of(new double[0]));
        assertEquals(3, ten[7], "the input is left as it was");
    }

    private static SweepResult result(SweepOp op, DataType dtype, boolean cache, double ratio) {
        SweepCase k = new SweepCase((cache ? "l2_" : "m") + "00_x", op, dtype, 1, 1, 1, 4, 1, 8, false, 0, 0,
                SweepLayout.CONTIGUOUS, "up_int", "tiny", cache);
        return new SweepResult(k, 2, ratio, 1);
    }

    @Test
    void theSummaryHasItsGroupsApart() {
        List<SweepResult> results = new ArrayList<>();
        results.add(result(SweepOp.LINEAR1D_BACKWARD, DataType.FLOAT, false, 1));
        results.add(result(SweepOp.LINEAR1D_BACKWARD, DataType.FLOAT, false, 3));
        results.add(result(SweepOp.LINEAR1D_BACKWARD, DataType.BF16, false, 8));
        results.add(result(SweepOp.LINEAR1D_BACKWARD, DataType.FLOAT16, true, 50));
        List<String> lines = SweepSummary.summaryLines(results);
        assertEquals(List.of(
                "summary of op / copy                     cases   median      p90    worst",
                "memory-bound, all                            3     3.00     8.00     8.00",
                "memory-bound, fp32                           2     2.00     3.00     3.00",
                "memory-bound, bf16                           1     8.00     8.00     8.00",
                "cache-resident (l2_), all                    1    50.00    50.00    50.00",
                "cache-resident (l2_), fp16                   1    50.00    50.00    50.00"), lines);
        results.add(result(SweepOp.BILINEAR2D, DataType.FLOAT, false, 2));
        lines = SweepSummary.summaryLines(results);
        assertTrue(lines.contains("memory-bound, linear1d_backward              3     3.00     8.00     8.00"), lines.toString());
        assertTrue(lines.contains("memory-bound, bilinear2d                     1     2.00     2.00     2.00"), lines.toString());
        assertTrue(lines.contains("memory-bound, all                            4     2.50     8.00     8.00"), lines.toString());
        assertTrue(lines.contains("cache-resident (l2_), linear1d_backward      1    50.00    50.00    50.00"), lines.toString());
    }

    @Test
    void csvHeaderAndRow() {
        assertEquals("case,op,dtype,in_shape,out_shape,align_corners,scales,layout,threads,op_ms,copy_ms,ratio,gbps",
                SweepResult.CSV_HEADER);
        SweepCase k = new SweepCase("m03_down_int_mid", SweepOp.LINEAR1D_BACKWARD, DataType.FLOAT16, 32, 64, 1, 16384, 1,
                4096, true, 0, 0.25, SweepLayout.TRANSPOSED, "down_int", "mid", false);
        SweepResult r = new SweepResult(k, 2, 3.0, 1.5);
        assertEquals("m03_down_int_mid,linear1d_backward,fp16,32x64x4096,32x64x16384,true,0.25,transposed,2,3.000000,"
                + "1.500000,2.0000," + String.format(java.util.Locale.ROOT, "%.3f", k.trafficBytes() / 3e6), r.csv());
        assertEquals(SweepResult.CSV_HEADER.split(",").length, r.csv().split(",").length);
    }
}
