package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import io.opscv.testing.TestDevice;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every public PyTorch golden case of the backward, judged element by element (golden/README.md). */
class UpsampleLinear1dBackwardGoldenTest {

    static List<GoldenCase> cases() {
        return GoldenCase.of("upsample_linear1d_backward");
    }

    @Test
    void theGoldenSetCoversAllThreeDtypes() {
        Set<DataType> types = cases().stream().map(GoldenCase::dataType).collect(Collectors.toSet());
        assertEquals(Set.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16), types);
        assertTrue(cases().size() >= 14, "cases: " + cases().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorchWithinTheCriterion(GoldenCase c) {
        int n = c.intField("n");
        int ch = c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        DataType type = c.dataType();
        double[] got;
        try (TestDevice dev = new TestDevice();
             Tensor gradOut = dev.fromRaw(new long[] {n, ch, lout}, type, c.inputBytes());
             Tensor out = dev.tensor(new long[] {n, ch, lin}, type, new float[n * ch * lin]);
             IntArray outputSize = IntArray.of(lout);
             IntArray inputSize = IntArray.of(n, ch, lin)) {
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize,
                    c.alignCorners(), c.doubleField("scales"), out);
            assertEquals(0, p.workspaceSize());
            UpsampleLinear1dBackward.run(null, 0, p.executor(), dev.stream);
            dev.stream.synchronize();
            got = TestDevice.read(out);
        }
        double[] expected = c.expected();
        double[] bound = c.bound();
        assertEquals(expected.length, got.length);
        int bad = Criterion.firstFailure(got, expected, bound, c.terms(), type);
        assertEquals(-1, bad, () -> c.name() + ": element " + bad + " got " + got[bad] + ", expected " + expected[bad]
                + " (bound " + bound[bad] + ", error ratio "
                + Criterion.errorRatio(got[bad], expected[bad], bound[bad], c.terms(), type) + ")");
    }

    @Test
    void theNonFiniteCaseReallyHasNaNAndInfinities() {
        GoldenCase c = cases().stream().filter(k -> k.name().equals("bwd_nonfinite_f32")).findFirst().orElseThrow();
        double[] e = c.expected();
        boolean nan = false;
        boolean inf = false;
        for (double v : e) {
            nan |= Double.isNaN(v);
            inf |= Double.isInfinite(v);
        }
        assertTrue(nan, "expected NaN in the reference");
        assertTrue(inf, "expected an infinity in the reference");
    }
}
