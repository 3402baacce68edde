package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.GoldenFiles;
import io.opscv.testing.TestDevice;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardware-result mode: a case's {@code actual} file is judged instead of running the operator. A faithful
 * result passes; the same result with one element moved by 1000 ulps of its dtype is caught, at that element.
 */
class ActualFileTest {
    private static final int ULPS = 1000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = DataType.class, names = {"FLOAT", "FLOAT16", "BF16"})
    void theOperatorsOwnResultPassesAndOneElementOff1000UlpsIsCaught(DataType type) throws IOException {
        for (ValueSpec values : List.of(ValueSpec.ONES, ValueSpec.STANDARD_NORMAL)) {
            CheckCase c = new CheckCase("hw_" + type + "_" + values.kind(), "upsample_linear1d_backward", 2, 3, new int[] {40},
                    new int[] {100}, false, new double[] {2.5}, type, null, new InputSource.Drawn(values, 99), null, null, null,
                    null, null, Standard.AUTO, null);
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

    static List<CheckCase> goldenCasesOfOperatorsNotInThisBuild() throws IOException {
        return CaseFiles.read(GoldenFiles.casesJson()).stream().filter(c -> !c.op().equals("upsample_linear1d_backward")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCasesOfOperatorsNotInThisBuild")
    void resultsOfOperatorsNotInThisBuildAreJudgedToo(CheckCase golden) throws IOException {
        // A result "produced elsewhere": PyTorch's float64 expected values rounded once to the dtype.
        OperatorAdapter adapter = OperatorAdapters.forOp(golden.op());
        double[] expected = CaseData.float64(golden.expected(), "expected", adapter.outputShape(golden));
        double[] rounded = CaseData.decode(encode(expected, golden.dataType()), golden.dataType(), expected.length);
        CaseResult pass = Checker.checkOne(TestCases.withActual(golden, write(golden, rounded, "rounded")));
        assertEquals(Verdict.PASS, pass.verdict(), pass.message());
        int k = largestMagnitude(rounded);
        rounded[k] += ULPS * ulp(rounded[k], golden.dataType());
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

    /** The operator's result for {@code c}, run directly (not through the harness), widened to float64. */
    private static double[] runOperator(CheckCase c) throws IOException {
        OperatorAdapter adapter = OperatorAdapters.forOp(c.op());
        try (Arena arena = Arena.ofShared();
             TestDevice dev = new TestDevice()) {
            MemorySegment input = CaseData.input(c, adapter.inputShape(c), arena);
            long[] outShape = adapter.outputShape(c);
            try (Tensor gradOut = dev.fromRaw(adapter.inputShape(c), c.dataType(), input);
                 Tensor out = dev.tensor(outShape, c.dataType(), new float[Math.toIntExact(CaseData.numel(outShape))]);
                 IntArray outputSize = IntArray.of(c.outSizes()[0]);
                 IntArray inputSize = IntArray.of(c.n(), c.c(), c.inSizes()[0])) {
                WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, c.alignCorners(),
                        c.scales()[0], out);
                UpsampleLinear1dBackward.run(null, 0, p.executor(), dev.stream);
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
