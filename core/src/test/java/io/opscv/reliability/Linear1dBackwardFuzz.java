package io.opscv.reliability;

import static io.opscv.reliability.Expectation.word;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reliability.TensorRecipe.Defect;
import io.opscv.reliability.TensorRecipe.Layout;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Reference;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * The fuzz of {@code aclnnUpsampleLinear1dBackward}: a generator of calls (a consistent core, then
 * up to four mutations of its arguments), the oracle of SPEC §4-§5 (plus the memory rule) in SPEC's
 * order, and the float64 reference of SPEC §1 for the calls that succeed.
 */
final class Linear1dBackwardFuzz {
    private Linear1dBackwardFuzz() {}

    /** The largest gradOut whose values the fuzz writes and reads back for the reference. */
    static final long MAX_FILLED_ELEMENTS = 1 << 22;

    /** What a mutation changes in the consistent core. */
    enum Mutation {
        PLATFORM_ANY, PLATFORM_NULL,
        GRAD_OUT_NULL, OUT_NULL, OUTPUT_SIZE_NULL, INPUT_SIZE_NULL,
        OUTPUT_SIZE_DESTROYED, INPUT_SIZE_DESTROYED,
        GRAD_OUT_DEFECT, OUT_DEFECT,
        GRAD_OUT_RANK, OUT_RANK, OUTPUT_SIZE_LENGTH, INPUT_SIZE_LENGTH,
        GRAD_OUT_DTYPE, OUT_DTYPE,
        OUTPUT_SIZE_VALUE, INPUT_SIZE_VALUE, GRAD_OUT_DIM, OUT_DIM,
        SCALES_SPECIAL, FORMATS,
        OUT_OVERLAPS_ITSELF, OUT_ALIASES_GRAD_OUT,
        HUGE_SIZES, PLACEHOLDERS, SHRINK_RATIO_500
    }

    /** How scales is chosen for the core. */
    enum ScalesKind { NOT_GIVEN, CONSISTENT, SPECIAL }

    /** Sizes, dtype and mode of a consistent call, before mutations. */
    record Core(int n, int c, int lin, int lout, DataType dtype, boolean alignCorners, ScalesKind scalesKind,
                Platform platform) {}

    /** The generator: cores of small consistent calls, then 0-4 mutations drawn with a seed for their details. */
    static Arbitrary<Call> calls() {
        Arbitrary<Integer> batch = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(29, Arbitraries.integers().between(1, 3)));
        Arbitrary<Integer> length = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(12, Arbitraries.integers().between(1, 24)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(25, 300)));
        Arbitrary<DataType> dtype = Arbitraries.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16);
        Arbitrary<Platform> platform = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(Platform.CPU)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(Platform.class)));
        Arbitrary<Core> core = Combinators.combine(batch, batch, length, length, dtype, Arbitraries.of(true, false),
                Arbitraries.of(ScalesKind.class), platform).as(Core::new);
        Arbitrary<List<Mutation>> mutations = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.just(List.<Mutation>of())),
                net.jqwik.api.Tuple.of(5, Arbitraries.of(Mutation.class).list().ofMinSize(1).ofMaxSize(2)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(Mutation.class).list().ofMinSize(3).ofMaxSize(4)));
        Arbitrary<Boolean> identity = Arbitraries.integers().between(0, 5).map(k -> k == 0);
        return Combinators.combine(core, identity, mutations, Arbitraries.longs()).as(Call::generate);
    }

    /** One generated call: its specification (immutable) and, once built, its live arguments. */
    static final class Call implements FuzzCall {
        // The specification.
        final Platform platform;
        final boolean implicitPlatform;
        final TensorRecipe gradOutRecipe;
        final TensorRecipe outRecipe;
        final boolean outAliasesGradOut;
        final long[] outputSizeValues;
        final boolean outputSizeDestroyed;
        final long[] inputSizeValues;
        final boolean inputSizeDestroyed;
        final boolean alignCorners;
        final double scales;
        final long seed;
        final String description;
        // The arguments, once built.
        private Tensor gradOut;
        private Tensor out;
        private IntArray outputSize;
        private IntArray inputSize;
        private double[] gradOutValues;
        private FuzzArguments args;

        private Call(Platform platform, boolean implicitPlatform, TensorRecipe gradOutRecipe, TensorRecipe outRecipe,
                     boolean outAliasesGradOut, long[] outputSizeValues, boolean outputSizeDestroyed, long[] inputSizeValues,
                     boolean inputSizeDestroyed, boolean alignCorners, double scales, long seed, String description) {
            this.platform = platform;
            this.implicitPlatform = implicitPlatform;
            this.gradOutRecipe = gradOutRecipe;
            this.outRecipe = outRecipe;
            this.outAliasesGradOut = outAliasesGradOut;
            this.outputSizeValues = outputSizeValues;
            this.outputSizeDestroyed = outputSizeDestroyed;
            this.inputSizeValues = inputSizeValues;
            this.inputSizeDestroyed = inputSizeDestroyed;
            this.alignCorners = alignCorners;
            this.scales = scales;
            this.seed = seed;
            this.description = description;
        }

        /** The core's consistent call, then each mutation applied in turn (their details drawn from {@code seed}). */
        static Call generate(Core core, boolean identity, List<Mutation> mutations, long seed) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int lin = core.lin();
            int lout = identity ? lin : core.lout();
            Platform platform = core.platform();
            double scales = switch (core.scalesKind()) {
                case NOT_GIVEN -> 0.0;
                case CONSISTENT -> (lout + rnd.nextDouble() * 0.999) / lin;
                case SPECIAL -> FuzzMutations.hostileScales(rnd);
            };
            long[] gradOutShape = {core.n(), core.c(), lout};
            long[] outShape = {core.n(), core.c(), lin};
            Layout[] inputLayouts = FuzzMutations.INPUT_LAYOUTS;
            Layout[] outputLayouts = FuzzMutations.OUTPUT_LAYOUTS;
            Format[] formats = {Format.NCL, Format.ND};
            var g = new FuzzMutations.RecipeBuilder(gradOutShape, core.dtype(), formats[rnd.nextInt(2)],
                    inputLayouts[rnd.nextInt(inputLayouts.length)], rnd.nextInt(4));
            var o = new FuzzMutations.RecipeBuilder(outShape, core.dtype(), formats[rnd.nextInt(2)],
                    outputLayouts[rnd.nextInt(outputLayouts.length)], rnd.nextInt(4));
            long[] outputSize = {lout};
            long[] inputSize = {core.n(), core.c(), lin};
            boolean gradOutNull = false;
            boolean outNull = false;
            boolean outputSizeNull = false;
            boolean inputSizeNull = false;
            boolean outputSizeDestroyed = false;
            boolean inputSizeDestroyed = false;
            boolean alias = false;
            for (Mutation m : mutations) {
                switch (m) {
                    case PLATFORM_ANY -> platform = Platform.values()[rnd.nextInt(Platform.values().length)];
                    case PLATFORM_NULL -> platform = null;
                    case GRAD_OUT_NULL -> gradOutNull = true;
                    case OUT_NULL -> outNull = true;
                    case OUTPUT_SIZE_NULL -> outputSizeNull = true;
                    case INPUT_SIZE_NULL -> inputSizeNull = true;
                    case OUTPUT_SIZE_DESTROYED -> outputSizeDestroyed = true;
                    case INPUT_SIZE_DESTROYED -> inputSizeDestroyed = true;
                    case GRAD_OUT_DEFECT -> g.defect(rnd);
                    case OUT_DEFECT -> o.defect(rnd);
                    case GRAD_OUT_RANK -> g.shape = FuzzMutations.randomShape(rnd, gradOutShape);
                    case OUT_RANK -> o.shape = FuzzMutations.randomShape(rnd, outShape);
                    case OUTPUT_SIZE_LENGTH -> outputSize = FuzzMutations.resized(rnd, outputSize, new int[] {0, 2, 3});
                    case INPUT_SIZE_LENGTH -> inputSize = FuzzMutations.resized(rnd, inputSize, new int[] {0, 1, 2, 4, 5});
                    case GRAD_OUT_DTYPE -> g.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUT_DTYPE -> o.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUTPUT_SIZE_VALUE -> outputSize = FuzzMutations.withHostileValue(rnd, outputSize);
                    case INPUT_SIZE_VALUE -> inputSize = FuzzMutations.withHostileValue(rnd, inputSize);
                    case GRAD_OUT_DIM -> g.shape = FuzzMutations.withHostileValue(rnd, g.shape);
                    case OUT_DIM -> o.shape = FuzzMutations.withHostileValue(rnd, o.shape);
                    case SCALES_SPECIAL -> scales = FuzzMutations.hostileScales(rnd);
                    case FORMATS -> {
                        g.format = Format.values()[rnd.nextInt(Format.values().length)];
                        o.format = Format.values()[rnd.nextInt(Format.values().length)];
                    }
                    case OUT_OVERLAPS_ITSELF -> o.layout = rnd.nextBoolean() ? Layout.BROADCAST : Layout.OVERLAPPING_ROWS;
                    case OUT_ALIASES_GRAD_OUT -> {
                        alias = true;
                        o.layout = Layout.CONTIGUOUS;
                        o.offset = rnd.nextInt(2 * lout + 2);
                        o.defect = Defect.NONE;
                    }
                    case HUGE_SIZES -> {
                        long n = FuzzMutations.pick(rnd, 0, 1, 2, 1L << 10, 1L << 15, 1L << 16, 1L << 20, (1L << 20) + 1, 1L << 31);
                        long c = FuzzMutations.pick(rnd, 1, 3, 1L << 11, 1L << 15, 1L << 16, 1L << 20, (1L << 20) + 1);
                        long hugeLin = FuzzMutations.pick(rnd, 1, 2, 1L << 10, 1L << 20, (1L << 20) + 1, 1L << 30);
                        long hugeLout = rnd.nextBoolean() ? hugeLin : FuzzMutations.pick(rnd, 1, 7, 1L << 19, 1L << 20, (1L << 20) + 1);
                        g.shape = new long[] {n, c, hugeLout};
                        o.shape = new long[] {n, c, hugeLin};
                        outputSize = new long[] {hugeLout};
                        inputSize = new long[] {n, c, hugeLin};
                        g.layout = Layout.ALL_BROADCAST;
                        g.defect = Defect.NONE;
                        o.defect = Defect.PLACEHOLDER;
                        scales = rnd.nextBoolean() ? 0.0 : (double) hugeLout / hugeLin;
                    }
                    case SHRINK_RATIO_500 -> {
                        // SPEC §5: Lout / Lin <= 500; at 500 exactly the call computes, one more is refused.
                        long smallLin = 1 + rnd.nextInt(3);
                        long ratioLout = 500 * smallLin + rnd.nextInt(2);
                        g.shape = new long[] {g.shape.length > 0 ? g.shape[0] : 1, 1, ratioLout};
                        o.shape = new long[] {g.shape[0], 1, smallLin};
                        outputSize = new long[] {ratioLout};
                        inputSize = new long[] {g.shape[0], 1, smallLin};
                        scales = 0.0;
                    }
                    case PLACEHOLDERS -> {
                        g.defect = rnd.nextBoolean() ? Defect.PLACEHOLDER : g.defect;
                        o.defect = Defect.PLACEHOLDER;
                    }
                }
            }
            // Now and then the overload that takes the platform from gradOut's device (the test device is a CPU).
            boolean implicitPlatform = platform == Platform.CPU && rnd.nextInt(4) == 0;
            return new Call(platform, implicitPlatform, gradOutNull ? null : g.build(rnd), outNull ? null : o.build(rnd), alias,
                    outputSizeNull ? null : outputSize, outputSizeDestroyed, inputSizeNull ? null : inputSize,
                    inputSizeDestroyed, core.alignCorners(), scales, rnd.nextLong(),
                    core + (identity ? " identity" : "") + " mutations=" + mutations);
        }

        @Override
        public String operator() {
            return UpsampleLinear1dBackward.NAME;
        }

        @Override
        public void build(FuzzArguments arguments) {
            this.args = arguments;
            gradOut = arguments.tensor(gradOutRecipe, "gradOut");
            if (outAliasesGradOut && gradOut != null && gradOut.memory() != null) {
                out = arguments.tensor(outRecipe, "out", gradOut.memory());
            } else {
                out = arguments.tensor(outRecipe, "out");
            }
            outputSize = arguments.intArray(outputSizeValues, outputSizeDestroyed);
            inputSize = arguments.intArray(inputSizeValues, inputSizeDestroyed);
            // Only calls whose out has memory can compute, and then gradOut is small (out fits in MEMORY_CAP, the ratio
            // rule bounds Lout); huge broadcast gradOuts keep the sentinel and are never computed.
            if (gradOut != null && gradOut.isUsable() && gradOut.memory() != null && gradOut.dataType().isComputeType()
                    && gradOut.numel() <= MAX_FILLED_ELEMENTS) {
                gradOutValues = arguments.fillInput(gradOut);
            }
        }

        /** SPEC §4 steps 1-8 and §5, in that order, then the memory rule (Checks.outputMemoryDisjoint). */
        @Override
        public Expectation expected() {
            if (platform == null) {
                return Expectation.nullptr("platform null", word("platform"));
            }
            if (gradOut == null) {
                return Expectation.nullptr("§4.1 gradOut null", word("gradOut"));
            }
            if (outputSize == null) {
                return Expectation.nullptr("§4.1 outputSize null", word("outputSize"));
            }
            if (inputSize == null) {
                return Expectation.nullptr("§4.1 inputSize null", word("inputSize"));
            }
            if (out == null) {
                return Expectation.nullptr("§4.1 out null", word("out"));
            }
            if (!gradOut.isUsable()) {
                return Expectation.invalid("§4.1 gradOut destroyed or freed", word("gradOut"));
            }
            if (outputSizeDestroyed) {
                return Expectation.invalid("§4.1 outputSize destroyed", word("outputSize"));
            }
            if (inputSizeDestroyed) {
                return Expectation.invalid("§4.1 inputSize destroyed", word("inputSize"));
            }
            if (!out.isUsable()) {
                return Expectation.invalid("§4.1 out destroyed or freed", word("out"));
            }
            if (gradOut.dim() != 3) {
                return Expectation.invalid("§4.2 gradOut rank", word("gradOut"));
            }
            if (out.dim() != 3) {
                return Expectation.invalid("§4.2 out rank", word("out"));
            }
            if (outputSizeValues.length != 1) {
                return Expectation.invalid("§4.2 outputSize length", word("output_size"));
            }
            if (inputSizeValues.length != 3) {
                return Expectation.invalid("§4.2 inputSize length", word("input_size"));
            }
            if (!platform.supported()) {
                return Expectation.invalid("§6 unsupported platform", word("npuArch"));
            }
            List<DataType> supported = platform == Platform.ASCEND910
                    ? List.of(DataType.FLOAT16, DataType.FLOAT) : List.of(DataType.FLOAT16, DataType.FLOAT, DataType.BF16);
            if (!supported.contains(gradOut.dataType())) {
                return Expectation.invalid("§4.3 gradOut dtype", word("gradOut"));
            }
            if (out.dataType() != gradOut.dataType()) {
                return Expectation.invalid("§4.3 out dtype", word("out"));
            }
            if (gradOut.dataType() == DataType.BF16 && platform.arch() == Platform.Arch.DAV_2201
                    && !Arrays.equals(gradOut.shape(), inputSizeValues)) {
                return Expectation.invalid("§6 BF16 on DAV_2201 needs equal shapes", word("gradOut"));
            }
            long n = inputSizeValues[0];
            long c = inputSizeValues[1];
            long lin = inputSizeValues[2];
            long lout = outputSizeValues[0];
            if (lin <= 0 || lout <= 0) {
                return Expectation.invalid("§4.4 lengths > 0",
                        "input \\(L: " + lin + "\\), output \\(L: " + lout + "\\)");
            }
            if (n < 0 || c < 0) {
                return Expectation.invalid("§4.4 N, C not negative", "inputSize should not have negative sizes, but got N \\(" + n
                        + "\\) and C \\(" + c + "\\)");
            }
            if (!Arrays.equals(gradOut.shape(), new long[] {n, c, lout})) {
                return Expectation.invalid("§4.4 gradOut shape", word("grad_output"));
            }
            if (!Arrays.equals(out.shape(), new long[] {n, c, lin})) {
                return Expectation.invalid("§4.5 out shape", word("out"));
            }
            long maxDim = 1L << 20;
            if (Arrays.stream(gradOut.shape()).anyMatch(d -> d > maxDim)) {
                return Expectation.invalid("§5 gradOut dimension <= 2^20", word("gradOut"));
            }
            if (Arrays.stream(out.shape()).anyMatch(d -> d > maxDim)) {
                return Expectation.invalid("§5 out dimension <= 2^20", word("out"));
            }
            BigInteger nc = BigInteger.valueOf(n).multiply(BigInteger.valueOf(c));
            if (nc.compareTo(BigInteger.ONE.shiftLeft(31)) >= 0) {
                return Expectation.invalid("§5 N*C < 2^31", word("N") + ".*" + word("C"));
            }
            BigInteger bytes = BigInteger.valueOf(lout + 2 * lin).multiply(nc)
                    .multiply(BigInteger.valueOf(gradOut.dataType().byteSize()));
            if (bytes.compareTo(BigInteger.valueOf(60L << 30)) >= 0) {
                return Expectation.invalid("§5 memory < 60 GiB", "60 GiB");
            }
            if (n == 0 || c == 0) {
                return Expectation.success("§4.7 empty");
            }
            if (Double.isNaN(scales)) {
                return Expectation.invalid("scales NaN", word("scales"));
            }
            if (scales > 500) {
                return Expectation.invalid("§5 scales <= 500", word("scales"));
            }
            if (lout > 500 * lin) {
                return Expectation.invalid("§5 ratio <= 500", "outputSize / inputSize");
            }
            if (Math.abs(scales) > 1e-9 && Math.floor(lin * scales) != lout) {
                return Expectation.invalid("§5 floor rule", "outputSize\\[0\\].*scales");
            }
            Expectation memory = FuzzMutations.memoryRule(out, outRecipe, gradOut, gradOutRecipe, "gradOut");
            if (memory != null) {
                return memory;
            }
            return Expectation.success(lin == lout ? "success, copy" : "success, interpolation");
        }

        @Override
        public WorkspaceAndExecutor phase1() {
            if (implicitPlatform) {
                return UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, alignCorners, scales, out);
            }
            return UpsampleLinear1dBackward.getWorkspaceSize(platform, gradOut, outputSize, inputSize, alignCorners, scales, out);
        }

        @Override
        public void phase2(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
            UpsampleLinear1dBackward.run(workspace, workspaceSize, executor, stream);
        }

        @Override
        public List<Tensor> inputs() {
            return List.of(gradOut);
        }

        @Override
        public Tensor output() {
            return out;
        }

        @Override
        public boolean runnable() {
            return (gradOut.memory() != null || gradOut.isEmpty()) && (out.memory() != null || out.isEmpty());
        }

        /**
         * golden/README.md's criterion against {@link Reference}; a plan that takes the sizes only (SPEC §6's fallback:
         * the training series, or A2/A3 from Lout 1,000,000) is also judged against {@link HalfPixelModel}, since it
         * ignores a given scales and places NaN/±Inf by TensorFlow's taps.
         */
        @Override
        public void checkResult(Executor executor) {
            if (out.isEmpty()) {
                return;
            }
            assertTrue(gradOutValues != null, () -> "computed a gradOut too large for the reference: " + this);
            int rows = Math.toIntExact(out.size(0) * out.size(1));
            int lin = Math.toIntExact(out.size(2));
            int lout = Math.toIntExact(gradOut.size(2));
            double[] got = FuzzArguments.read(out);
            double[] abs = Reference.abs(gradOutValues);
            String mismatch = FuzzHarness.firstMismatch(got, Reference.linear1dBackward(gradOutValues, rows, lin, lout, alignCorners,
                    scales), Reference.linear1dBackward(abs, rows, lin, lout, alignCorners, scales),
                    Reference.maxTerms(lin, lout, alignCorners, scales), out.dataType());
            if (mismatch != null && FuzzHarness.sizesOnlyFallback(platform, executor)) {
                mismatch = FuzzHarness.firstMismatch(got, HalfPixelModel.backward(gradOutValues, rows, 1, lin, 1, lout, alignCorners),
                        HalfPixelModel.backward(abs, rows, 1, lin, 1, lout, alignCorners),
                        HalfPixelModel.backwardTerms(1, 1, lin, lout, alignCorners), out.dataType());
                if (mismatch == null) {
                    FuzzStatistics.increment(operator(), "checked against the sizes-only model (SPEC §6 fallback)");
                }
            }
            String failure = mismatch;
            assertTrue(failure == null, () -> failure + " for " + this);
        }

        @Override
        public String toString() {
            return "Linear1dBackward call [" + description + "]: platform " + platform + (implicitPlatform ? " (implicit)" : "")
                    + ", gradOut " + gradOutRecipe + ", out " + outRecipe + (outAliasesGradOut ? " in gradOut's memory" : "")
                    + ", outputSize " + Arrays.toString(outputSizeValues) + (outputSizeDestroyed ? " destroyed" : "")
                    + ", inputSize " + Arrays.toString(inputSizeValues) + (inputSizeDestroyed ? " destroyed" : "")
                    + ", alignCorners " + alignCorners + ", scales " + scales;
        }
    }

    /** Names of the mutations, for documentation. */
    static List<String> mutationNames() {
        List<String> names = new ArrayList<>();
        for (Mutation m : Mutation.values()) {
            names.add(m.name());
        }
        return names;
    }
}
