package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.GoldenFiles;
import io.opscv.testing.TestDevice;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardware-result mode: a case's {@code actual} file is judged instead of running the operator. For every
 * operator and dtype, a faithful result passes; the same result with one element moved by 1000 ulps of its dtype
 * is caught, at that element (the perturbation test of issue 5).
 */
class ActualFileTest {
    private static final int ULPS = 1000;

    @TempDir
    Path dir;

    /** A case of every operator and dtype, 1-D or 2-D (NCHW and NHWC), up- and downsampling, with drawn values. */
    static Stream<Arguments> everyOperatorAndDtype() {
        List<Arguments> cases = new ArrayList<>();
        for (OperatorAdapter adapter : OperatorAdapters.all()) {
            for (DataType type : List.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16)) {
                boolean twoD = adapter.spatialAxes() == 2;
                Format format = twoD && type == DataType.FLOAT16 ? Format.NHWC : null;
                cases.add(Arguments.of(adapter.op(), type, twoD ? new int[] {7, 12} : new int[] {40},
                        twoD ? new int[] {16, 5} : new int[] {100}, twoD ? new double[] {0.0, 0.0} : new double[] {2.5}, format));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyOperatorAndDtype")
    void theOperatorsOwnResultPassesAndOneElementOff1000UlpsIsCaught(String op, DataType type, int[] in, int[] out, double[] scales,
                                                                      Format format) throws IOException {
        for (ValueSpec values : List.of(ValueSpec.ONES, ValueSpec.STANDARD_NORMAL)) {
            CheckCase c = new CheckCase("hw_" + op + "_" + type + "_" + values.kind(), op, 2, 3, in, out, false, scales, type,
                    format, null, new InputSource.Drawn(values, 99), null, null, null, null, null, Standard.AUTO, null);
            double[] got = runOperator(c);
            Path faithful = write(c, got, "faithful");
            CaseResult pass = Checker.checkOne(TestCases.withActual(c, faithful));
            assertEquals(Verdict.PASS, pass.verdict(), pass.message());
            assertEquals("actual", pass.judged());
            assertEquals(-1, pass.workspaceSize(), "the operator did not run");

            int k = largestMagnitude(got);
            double[] perturbed = got.clone();
            perturbed[k] = got[k] + ULPS * ulp(got[k], type);
            CaseResult fail = Checker.checkOne(TestCases.withActual(c, write(c, perturbed, "perturbed")));
            assertEquals(Verdict.FAIL, fail.verdict(), values.describe());
            assertEquals(k, fail.worstElement(), "the perturbed element is the worst");
            assertTrue(fail.maxErrorRatio() > 1.0);
            assertTrue(fail.message().startsWith("element " + k + ": got "), fail.message());
        }
    }

    static List<CheckCase> goldenCases() throws IOException {
        return CaseFiles.read(GoldenFiles.casesJson());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void resultsProducedElsewhereAreJudgedForEveryOperator(CheckCase golden) throws IOException {
        // A result "produced elsewhere": PyTorch's float64 expected values rounded once to the dtype.
        OperatorAdapter adapter = OperatorAdapters.forOp(golden.op());
        double[] expected = CaseData.float64(golden.expected(), "expected", adapter.outputShape(golden));
        double[] rounded = CaseData.decode(encode(expected, golden.dataType()), golden.dataType(), expected.length);
        CaseResult pass = Checker.checkOne(TestCases.withActual(golden, write(golden, rounded, "rounded")));
        assertEquals(Verdict.PASS, pass.verdict(), pass.message());
        int k = largestMagnitude(rounded);
        // 1000 ulps at the element's magnitude, or at its bound where cancellation left the value small (the criterion
        // admits (terms + 2)·2^-24·B: 504·2^-24·B for the 502-term sums of bwd_ratio500_f32).
        double bound = CaseData.float64(golden.bound(), "bound", adapter.outputShape(golden))[k];
        rounded[k] += ULPS * ulp(Math.max(Math.abs(rounded[k]), bound), golden.dataType());
        CaseResult fail = Checker.checkOne(TestCases.withActual(golden, write(golden, rounded, "perturbed")));
        assertEquals(Verdict.FAIL, fail.verdict());
        assertEquals(k, fail.worstElement());
    }

    @Test
    void aFileInTheWrongEncodingOrShapeIsAnErrorThatSaysWhy() throws IOException {
        CheckCase c = TestCases.linear1dBackward("enc", DataType.FLOAT16, Standard.AUTO);
        long[] shape = OperatorAdapters.forOp(c.op()).outputShape(c);
        try (Arena arena = Arena.ofConfined()) {
            Path f32 = dir.resolve("f32.npy");
            Npy.write(f32, "<f4", shape, arena.allocate(4 * 12));
            CaseResult wrongType = Checker.checkOne(TestCases.withActual(c, f32));
            assertEquals(Verdict.ERROR, wrongType.verdict());
            assertEquals("actual " + f32 + ": holds '<f4' (DT_FLOAT), but the case's dtype float16 is stored as '<f2'",
                    wrongType.message());
            Path flat = dir.resolve("flat.npy");
            Npy.write(flat, "<f2", new long[] {12}, arena.allocate(2 * 12));
            CaseResult wrongShape = Checker.checkOne(TestCases.withActual(c, flat));
            assertEquals(Verdict.ERROR, wrongShape.verdict());
            assertEquals("actual " + flat + ": has shape [12], but the case needs [1, 2, 6]", wrongShape.message());
        }
        CheckCase bf16 = TestCases.linear1dBackward("bf16", DataType.BF16, Standard.AUTO);
        try (Arena arena = Arena.ofConfined()) {
            Path f2 = dir.resolve("f2.npy");
            Npy.write(f2, "<f2", shape, arena.allocate(2 * 12));
            CaseResult r = Checker.checkOne(TestCases.withActual(bf16, f2));
            assertEquals("actual " + f2 + ": holds '<f2' (DT_FLOAT16), but the case's dtype bfloat16 is stored as '<u2' "
                    + "(bfloat16 bits)", r.message());
        }
    }

    /**
     * The operator's result for {@code c}, run through the adapter's two phases directly (not through the checker),
     * widened to float64, row-major in the case's layout.
     */
    private static double[] runOperator(CheckCase c) throws IOException {
        OperatorAdapter adapter = OperatorAdapters.forOp(c.op());
        try (Arena arena = Arena.ofShared();
             TestDevice dev = new TestDevice()) {
            MemorySegment input = CaseData.input(c, adapter.inputShape(c), arena);
            long[] outShape = adapter.outputShape(c);
            try (Tensor in = dev.fromRaw(adapter.inputShape(c), c.dataType(), input, c.layout());
                 Tensor out = dev.tensor(outShape, c.dataType(), new float[Math.toIntExact(CaseData.numel(outShape))], c.layout())) {
                WorkspaceAndExecutor p = adapter.getWorkspaceSize(Platform.CPU, c, in, out);
                assertEquals(0, p.workspaceSize(), "the cpu plans need no workspace");
                adapter.run(null, 0, p.executor(), dev.stream);
                dev.stream.synchronize();
                return TestDevice.read(out);
            }
        }
    }

    private Path write(CheckCase c, double[] values, String tag) throws IOException {
        Path file = dir.resolve(c.name() + "." + tag + ".npy");
        Npy.write(file, NpyDtype.toDescr(c.dataType()), OperatorAdapters.forOp(c.op()).outputShape(c), encode(values, c.dataType()));
        return file;
    }

    private static MemorySegment encode(double[] values, DataType type) {
        MemorySegment bytes = Arena.ofAuto().allocate((long) values.length * type.byteSize());
        CaseData.encode(values, type, bytes);
        return bytes;
    }

    /** One unit in the last place of {@code v} in {@code type} (v normal and finite). */
    static double ulp(double v, DataType type) {
        return switch (type) {
            case FLOAT -> Math.ulp((float) v);
            case FLOAT16 -> Math.scalb(1.0, Math.getExponent(v) - 10);
            case BF16 -> Math.scalb(1.0, Math.getExponent(v) - 7);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** The finite element of largest magnitude (normal, so that its ulp is well defined). */
    private static int largestMagnitude(double[] values) {
        int best = -1;
        for (int k = 0; k < values.length; k++) {
            if (Double.isFinite(values[k]) && (best < 0 || Math.abs(values[k]) > Math.abs(values[best]))) {
                best = k;
            }
        }
        assertTrue(best >= 0 && Math.abs(values[best]) >= 0x1.0p-14, "a normal element to perturb");
        return best;
    }
}
