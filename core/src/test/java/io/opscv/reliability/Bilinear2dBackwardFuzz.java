package io.opscv.reliability;

import static io.opscv.reliability.Expectation.word;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Bilinear2dReference;
import io.opscv.reliability.FuzzMutations.RecipeBuilder;
import io.opscv.reliability.TensorRecipe.Defect;
import io.opscv.reliability.TensorRecipe.Layout;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * The fuzz of {@code aclnnUpsampleBilinear2dBackwardV2} (SPEC §10, docs/PLANS.md §2): a generator of calls in NCHW,
 * NHWC or ND (a consistent core, then up to four mutations), the oracle of its validation chain in its order (plus
 * the memory rule), and the float64 reference of {@code io.opscv.reference} for the calls that succeed.
 */
final class Bilinear2dBackwardFuzz {
    private Bilinear2dBackwardFuzz() {}

    /** SPEC §10: every dimension ≤ INT32_MAX. */
    static final long MAX_DIM = Integer.MAX_VALUE;

    /** What a mutation changes in the consistent core. */
    enum Mutation {
        PLATFORM_ANY, PLATFORM_NULL,
        GRAD_OUT_NULL, OUT_NULL, OUTPUT_SIZE_NULL, INPUT_SIZE_NULL, OUTPUT_SIZE_DESTROYED, INPUT_SIZE_DESTROYED,
        GRAD_OUT_DEFECT, OUT_DEFECT,
        GRAD_OUT_RANK, OUT_RANK, OUTPUT_SIZE_LENGTH, INPUT_SIZE_LENGTH,
        GRAD_OUT_DTYPE, OUT_DTYPE,
        OUTPUT_SIZE_VALUE, INPUT_SIZE_VALUE, GRAD_OUT_DIM, OUT_DIM,
        SCALES_SPECIAL, FORMATS, LAYOUTS_DIFFER,
        OUT_OVERLAPS_ITSELF, OUT_ALIASES_GRAD_OUT,
        HUGE_SIZES, PLACEHOLDERS, EMPTY
    }

    /** How each axis' scales is chosen for the core. */
    enum ScalesKind { NOT_GIVEN, CONSISTENT, SPECIAL }

    /**
     * Sizes, dtype, layout and mode of a consistent call, before mutations.
     *
     * @param sizes {Hin, Win, Hout, Wout}
     */
    record Core(int n, int c, List<Integer> sizes, DataType dtype, boolean alignCorners, List<ScalesKind> scalesKinds,
                Format layout, Platform platform) {}

    /** The generator: cores of small consistent calls, then 0-4 mutations drawn with a seed for their details. */
    static Arbitrary<Call> calls() {
        Arbitrary<Integer> batch = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0)),
                Tuple.of(29, Arbitraries.integers().between(1, 2)));
        Arbitrary<Integer> channels = Arbitraries.integers().between(1, 3);
        Arbitrary<Integer> length = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.integers().between(1, 12)),
                Tuple.of(1, Arbitraries.integers().between(13, 64)));
        Arbitrary<DataType> dtype = Arbitraries.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16);
        Arbitrary<Platform> platform = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(Platform.CPU)),
                Tuple.of(2, Arbitraries.of(Platform.class)));
        Arbitrary<Core> core = Combinators.combine(batch, channels, length.list().ofSize(4), dtype, Arbitraries.of(true, false),
                Arbitraries.of(ScalesKind.class).list().ofSize(2), Arbitraries.of(Format.NCHW, Format.NHWC, Format.ND), platform)
                .as(Core::new);
        Arbitrary<List<Mutation>> mutations = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.<Mutation>of())),
                Tuple.of(5, Arbitraries.of(Mutation.class).list().ofMinSize(1).ofMaxSize(2)),
                Tuple.of(1, Arbitraries.of(Mutation.class).list().ofMinSize(3).ofMaxSize(4)));
        return Combinators.combine(core, mutations, Arbitraries.longs()).as(Call::generate);
    }

    /** One generated call: its specification (immutable) and, once built, its live arguments. */
    static final class Call implements FuzzCall {
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
        final double scalesH;
        final double scalesW;
        final long seed;
        final String description;
        private Tensor gradOut;
        private Tensor out;
        private IntArray outputSize;
        private IntArray inputSize;
        private double[] gradOutValues;

        private Call(Platform platform, boolean implicitPlatform, TensorRecipe gradOutRecipe, TensorRecipe outRecipe,
                     boolean outAliasesGradOut, long[] outputSizeValues, boolean outputSizeDestroyed, long[] inputSizeValues,
                     boolean inputSizeDestroyed, boolean alignCorners, double scalesH, double scalesW, long seed,
                     String description) {
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
            this.scalesH = scalesH;
            this.scalesW = scalesW;
            this.seed = seed;
            this.description = description;
        }

        /** The core's consistent call (an axis kept at its size one time in five), then each mutation in turn. */
        static Call generate(Core core, List<Mutation> mutations, long seed) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int hin = core.sizes().get(0);
            int win = core.sizes().get(1);
            int hout = rnd.nextInt(5) == 0 ? hin : core.sizes().get(2);
            int wout = rnd.nextInt(5) == 0 ? win : core.sizes().get(3);
            double scalesH = scales(core.scalesKinds().get(0), hin, hout, rnd);
            double scalesW = scales(core.scalesKinds().get(1), win, wout, rnd);
            Format layout = core.layout();
            Platform platform = core.platform();
            long[] gradOutShape = TwoD.inLayout(new long[] {core.n(), core.c(), hout, wout}, layout);
            long[] outShape = TwoD.inLayout(new long[] {core.n(), core.c(), hin, win}, layout);
            var g = new RecipeBuilder(gradOutShape, core.dtype(), layout,
                    FuzzMutations.INPUT_LAYOUTS[rnd.nextInt(FuzzMutations.INPUT_LAYOUTS.length)], rnd.nextInt(4));
            var o = new RecipeBuilder(outShape, core.dtype(), layout,
                    FuzzMutations.OUTPUT_LAYOUTS[rnd.nextInt(FuzzMutations.OUTPUT_LAYOUTS.length)], rnd.nextInt(4));
            long[] outputSize = {hout, wout};
            long[] inputSize = outShape.clone();
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
                    case OUTPUT_SIZE_LENGTH -> outputSize = FuzzMutations.resized(rnd, outputSize, new int[] {0, 1, 3});
                    case INPUT_SIZE_LENGTH -> inputSize = FuzzMutations.resized(rnd, inputSize, new int[] {0, 3, 5});
                    case GRAD_OUT_DTYPE -> g.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUT_DTYPE -> o.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUTPUT_SIZE_VALUE -> outputSize = FuzzMutations.withHostileValue(rnd, outputSize);
                    case INPUT_SIZE_VALUE -> inputSize = FuzzMutations.withHostileValue(rnd, inputSize);
                    case GRAD_OUT_DIM -> g.shape = FuzzMutations.withHostileValue(rnd, g.shape);
                    case OUT_DIM -> o.shape = FuzzMutations.withHostileValue(rnd, o.shape);
                    case SCALES_SPECIAL -> {
                        if (rnd.nextBoolean()) {
                            scalesH = FuzzMutations.hostileScales(rnd);
                        } else {
                            scalesW = FuzzMutations.hostileScales(rnd);
                        }
                    }
                    case FORMATS -> {
                        g.format = Format.values()[rnd.nextInt(Format.values().length)];
                        o.format = Format.values()[rnd.nextInt(Format.values().length)];
                    }
                    case LAYOUTS_DIFFER -> {
                        // One NHWC, the other NCHW or ND (the shapes stay as they were).
                        boolean gradOutNhwc = rnd.nextBoolean();
                        g.format = gradOutNhwc ? Format.NHWC : Format.NCHW;
                        o.format = gradOutNhwc ? Format.ND : Format.NHWC;
                    }
                    case OUT_OVERLAPS_ITSELF -> o.layout = rnd.nextBoolean() ? Layout.BROADCAST : Layout.OVERLAPPING_ROWS;
                    case OUT_ALIASES_GRAD_OUT -> {
                        alias = true;
                        o.layout = Layout.CONTIGUOUS;
                        o.offset = rnd.nextInt(2 * hout * wout + 2);
                        o.defect = Defect.NONE;
                    }
                    case HUGE_SIZES -> {
                        // N and C up to and beyond INT32_MAX; H and W too where both axes are copied, else small or beyond
                        // INT32_MAX (refused before the plan): a plan that interpolates a huge axis is a known gap
                        // (docs/RELIABILITY.md).
                        long n = FuzzMutations.pick(rnd, 0, 1, 2, 1L << 16, MAX_DIM, MAX_DIM + 1, 1L << 40);
                        long c = FuzzMutations.pick(rnd, 1, 3, 1L << 16, MAX_DIM, MAX_DIM + 1);
                        boolean copy = rnd.nextBoolean();
                        long h = copy ? FuzzMutations.pick(rnd, 1, 5, 1L << 16, MAX_DIM, MAX_DIM + 1)
                                : FuzzMutations.pick(rnd, 1, 5, 64, MAX_DIM + 1);
                        long w = copy ? FuzzMutations.pick(rnd, 1, 7, 1L << 16, MAX_DIM, MAX_DIM + 1)
                                : FuzzMutations.pick(rnd, 1, 7, 64, MAX_DIM + 1);
                        long ho = copy ? h : 1 + rnd.nextInt(64);
                        long wo = copy ? w : 1 + rnd.nextInt(64);
                        g.shape = TwoD.inLayout(new long[] {n, c, ho, wo}, layout);
                        o.shape = TwoD.inLayout(new long[] {n, c, h, w}, layout);
                        inputSize = o.shape.clone();
                        outputSize = new long[] {ho, wo};
                        g.layout = Layout.ALL_BROADCAST;
                        g.defect = Defect.NONE;
                        o.defect = Defect.PLACEHOLDER;
                        scalesH = 0.0;
                        scalesW = 0.0;
                    }
                    case PLACEHOLDERS -> {
                        g.defect = rnd.nextBoolean() ? Defect.PLACEHOLDER : g.defect;
                        o.defect = Defect.PLACEHOLDER;
                    }
                    case EMPTY -> {
                        // N = 0 or C = 0 everywhere: a consistent empty call.
                        int d = TwoD.axis(rnd.nextBoolean() ? 0 : 1, layout);
                        if (g.shape.length == 4 && o.shape.length == 4 && inputSize.length == 4) {
                            g.shape[d] = 0;
                            o.shape[d] = 0;
                            inputSize[d] = 0;
                        }
                    }
                }
            }
            boolean implicitPlatform = platform == Platform.CPU && rnd.nextInt(4) == 0;
            return new Call(platform, implicitPlatform, gradOutNull ? null : g.build(rnd), outNull ? null : o.build(rnd), alias,
                    outputSizeNull ? null : outputSize, outputSizeDestroyed, inputSizeNull ? null : inputSize,
                    inputSizeDestroyed, core.alignCorners(), scalesH, scalesW, rnd.nextLong(),
                    core + " hout=" + hout + " wout=" + wout + " mutations=" + mutations);
        }

        private static double scales(ScalesKind kind, int in, int out, SplittableRandom rnd) {
            return switch (kind) {
                case NOT_GIVEN -> 0.0;
                case CONSISTENT -> (out + rnd.nextDouble() * 0.999) / in;
                case SPECIAL -> FuzzMutations.hostileScales(rnd);
            };
        }

        @Override
        public String operator() {
            return UpsampleBilinear2dBackwardV2.NAME;
        }

        @Override
        public void build(FuzzArguments arguments) {
            gradOut = arguments.tensor(gradOutRecipe, "gradOut");
            if (outAliasesGradOut && gradOut != null && gradOut.memory() != null) {
                out = arguments.tensor(outRecipe, "out", gradOut.memory());
            } else {
                out = arguments.tensor(outRecipe, "out");
            }
            outputSize = arguments.intArray(outputSizeValues, outputSizeDestroyed);
            inputSize = arguments.intArray(inputSizeValues, inputSizeDestroyed);
            if (gradOut != null && gradOut.isUsable() && gradOut.memory() != null && gradOut.dataType().isComputeType()
                    && gradOut.numel() <= Linear1dBackwardFuzz.MAX_FILLED_ELEMENTS) {
                gradOutValues = arguments.fillInput(gradOut);
            }
        }

        /** The chain of docs/PLANS.md §2 (SPEC §10, upstream's CheckParams), then the memory rule. */
        @Override
        public Expectation expected() {
            if (platform == null) {
                return Expectation.nullptr("platform null", word("platform"));
            }
            if (gradOut == null) {
                return Expectation.nullptr("gradOut null", word("gradOut"));
            }
            if (outputSize == null) {
                return Expectation.nullptr("outputSize null", word("outputSize"));
            }
            if (inputSize == null) {
                return Expectation.nullptr("inputSize null", word("inputSize"));
            }
            if (out == null) {
                return Expectation.nullptr("out null", word("out"));
            }
            if (!gradOut.isUsable()) {
                return Expectation.invalid("gradOut destroyed or freed", word("gradOut"));
            }
            if (outputSizeDestroyed) {
                return Expectation.invalid("outputSize destroyed", word("outputSize"));
            }
            if (inputSizeDestroyed) {
                return Expectation.invalid("inputSize destroyed", word("inputSize"));
            }
            if (!out.isUsable()) {
                return Expectation.invalid("out destroyed or freed", word("out"));
            }
            if (gradOut.dim() != 4) {
                return Expectation.invalid("gradOut rank", word("gradOut"));
            }
            if (out.dim() != 4) {
                return Expectation.invalid("out rank", word("out"));
            }
            if (outputSizeValues.length != 2) {
                return Expectation.invalid("outputSize length", word("output_size"));
            }
            if (inputSizeValues.length != 4) {
                return Expectation.invalid("inputSize length", word("input_size"));
            }
            Expectation format = TwoD.formatRules(gradOut, "gradOut", out);
            if (format != null) {
                return format;
            }
            if (!platform.supported()) {
                return Expectation.invalid("§6 unsupported platform", word("npuArch"));
            }
            if (!TwoD.dtypes(platform).contains(gradOut.dataType())) {
                return Expectation.invalid("gradOut dtype", word("gradOut"));
            }
            if (out.dataType() != gradOut.dataType()) {
                return Expectation.invalid("out dtype", word("out"));
            }
            Format layout = gradOut.format();
            long[] in = TwoD.toNchw(inputSizeValues, layout);
            long hout = outputSizeValues[0];
            long wout = outputSizeValues[1];
            if (in[2] <= 0 || in[3] <= 0 || hout <= 0 || wout <= 0) {
                return Expectation.invalid("H, W > 0", "Input and output sizes should greater than 0");
            }
            if (in[0] < 0 || in[1] < 0) {
                return Expectation.invalid("N, C not negative", word("inputSize"));
            }
            if (!Arrays.equals(gradOut.shape(), TwoD.inLayout(new long[] {in[0], in[1], hout, wout}, layout))) {
                return Expectation.invalid("gradOut shape", word("grad_output"));
            }
            if (!Arrays.equals(out.shape(), inputSizeValues)) {
                return Expectation.invalid("out shape", word("out"));
            }
            if (Arrays.stream(gradOut.shape()).anyMatch(d -> d > MAX_DIM)) {
                return Expectation.invalid("§10 gradOut dimension <= INT32_MAX", word("gradOut"));
            }
            if (Arrays.stream(out.shape()).anyMatch(d -> d > MAX_DIM)) {
                return Expectation.invalid("§10 out dimension <= INT32_MAX", word("out"));
            }
            if (gradOut.isEmpty() || out.isEmpty()) {
                return Expectation.success("empty");
            }
            if (Double.isNaN(scalesH)) {
                return Expectation.invalid("scalesH NaN", word("scalesH"));
            }
            if (Double.isNaN(scalesW)) {
                return Expectation.invalid("scalesW NaN", word("scalesW"));
            }
            if (Math.abs(scalesH) > 1e-9 && Math.floor(in[2] * scalesH) != hout) {
                return Expectation.invalid("§5 floor rule H", "outputSize\\[0\\].*scalesH");
            }
            if (Math.abs(scalesW) > 1e-9 && Math.floor(in[3] * scalesW) != wout) {
                return Expectation.invalid("§5 floor rule W", "outputSize\\[1\\].*scalesW");
            }
            Expectation memory = FuzzMutations.memoryRule(out, outRecipe, gradOut, gradOutRecipe, "gradOut");
            if (memory != null) {
                return memory;
            }
            return Expectation.success(in[2] == hout && in[3] == wout ? "success, copy" : "success, interpolation");
        }


        /**
         * The 2-D plans build per-axis coordinate tables on the Java heap in phase 1 (LinearTable): an interpolated axis
         * of 2^31 - 1 throws NegativeArraySizeException, one of ~2^28 and more OutOfMemoryError (docs/RELIABILITY.md,
         * known gaps). Calls that would build such a table are counted, not run.
         */
        @Override
        public String knownGap() {
            long[] a = TwoD.toNchw(gradOut.shape(), gradOut.format());
            long[] b = TwoD.toNchw(out.shape(), gradOut.format());
            if (gradOut.isEmpty() || out.isEmpty() || Arrays.equals(a, b)) {
                return null;
            }
            long longest = Math.max(Math.max(a[2], a[3]), Math.max(b[2], b[3]));
            return longest > TwoD.MAX_TABLE_AXIS ? "an interpolating plan over an axis longer than 2^24" : null;
        }

        @Override
        public WorkspaceAndExecutor phase1() {
            if (implicitPlatform) {
                return UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, outputSize, inputSize, alignCorners, scalesH,
                        scalesW, out);
            }
            return UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOut, outputSize, inputSize, alignCorners, scalesH,
                    scalesW, out);
        }

        @Override
        public void phase2(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
            UpsampleBilinear2dBackwardV2.run(workspace, workspaceSize, executor, stream);
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
         * golden/README.md's criterion against {@link Bilinear2dReference#backward} (values reordered to NCHW); a plan
         * that takes the sizes only (SPEC §6's fallback) is also judged against {@link HalfPixelModel}.
         */
        @Override
        public void checkResult(Executor executor) {
            if (out.isEmpty()) {
                return;
            }
            Format layout = gradOut.format();
            long[] g = TwoD.toNchw(gradOut.shape(), layout);
            long[] o = TwoD.toNchw(out.shape(), layout);
            int planes = Math.toIntExact(o[0] * o[1]);
            int hin = (int) o[2];
            int win = (int) o[3];
            int hout = (int) g[2];
            int wout = (int) g[3];
            if (gradOutValues == null) {
                FuzzStatistics.increment(operator(), "checked against a constant gradOut (too large to fill)");
                // Too large to fill: gradOut holds the sentinel everywhere (ConstantInput).
                String mismatch = ConstantInput.checkBackward(out, layout, ConstantInput.weightSums(hin, hout, alignCorners, scalesH),
                        ConstantInput.weightSums(win, wout, alignCorners, scalesW),
                        Bilinear2dReference.backwardTerms(hin, win, hout, wout, alignCorners, scalesH, scalesW));
                if (mismatch != null && FuzzHarness.sizesOnlyFallback(platform, executor)) {
                    mismatch = ConstantInput.checkBackward(out, layout, ConstantInput.sizesOnlyWeightSums(hin, hout, alignCorners),
                            ConstantInput.sizesOnlyWeightSums(win, wout, alignCorners),
                            HalfPixelModel.backwardTerms(hin, hout, win, wout, alignCorners));
                }
                String constant = mismatch;
                assertTrue(constant == null, () -> constant + " (constant gradOut) for " + this);
                return;
            }
            double[] values = TwoD.nchwValues(gradOutValues, gradOut.shape(), layout);
            double[] abs = Arrays.stream(values).map(Math::abs).toArray();
            double[] got = TwoD.nchwValues(FuzzArguments.read(out), out.shape(), layout);
            String mismatch = FuzzHarness.firstMismatch(got,
                    Bilinear2dReference.backward(values, planes, hin, win, hout, wout, alignCorners, scalesH, scalesW),
                    Bilinear2dReference.backward(abs, planes, hin, win, hout, wout, alignCorners, scalesH, scalesW),
                    Bilinear2dReference.backwardTerms(hin, win, hout, wout, alignCorners, scalesH, scalesW), out.dataType());
            if (mismatch != null && FuzzHarness.sizesOnlyFallback(platform, executor)) {
                mismatch = FuzzHarness.firstMismatch(got, HalfPixelModel.backward(values, planes, hin, win, hout, wout, alignCorners),
                        HalfPixelModel.backward(abs, planes, hin, win, hout, wout, alignCorners),
                        HalfPixelModel.backwardTerms(hin, hout, win, wout, alignCorners), out.dataType());
                if (mismatch == null) {
                    FuzzStatistics.increment(operator(), "checked against the sizes-only model (SPEC §6 fallback)");
                }
            }
            String failure = mismatch;
            assertTrue(failure == null, () -> failure + " for " + this);
        }

        @Override
        public String toString() {
            return "Bilinear2dBackwardV2 call [" + description + "]: platform " + platform + (implicitPlatform ? " (implicit)" : "")
                    + ", gradOut " + gradOutRecipe + ", out " + outRecipe + (outAliasesGradOut ? " in gradOut's memory" : "")
                    + ", outputSize " + Arrays.toString(outputSizeValues) + (outputSizeDestroyed ? " destroyed" : "")
                    + ", inputSize " + Arrays.toString(inputSizeValues) + (inputSizeDestroyed ? " destroyed" : "")
                    + ", alignCorners " + alignCorners + ", scalesH " + scalesH + ", scalesW " + scalesW;
        }
    }
}
