package io.opscv.reliability;

import static io.opscv.reliability.Expectation.word;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
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
 * The fuzz of {@code aclnnUpsampleBilinear2d} (SPEC §10, docs/PLANS.md §2): a generator of calls in NCHW, NHWC or ND
 * (a consistent core, then up to four mutations), the oracle of its validation chain in its order (plus the memory
 * rule), and the float64 reference of {@code io.opscv.reference} for the calls that succeed.
 */
final class Bilinear2dFuzz {
    private Bilinear2dFuzz() {}

    /** What a mutation changes in the consistent core. */
    enum Mutation {
        PLATFORM_ANY, PLATFORM_NULL,
        SELF_NULL, OUT_NULL, OUTPUT_SIZE_NULL, OUTPUT_SIZE_DESTROYED,
        SELF_DEFECT, OUT_DEFECT,
        SELF_RANK, OUT_RANK, OUTPUT_SIZE_LENGTH,
        SELF_DTYPE, OUT_DTYPE,
        OUTPUT_SIZE_VALUE, SELF_DIM, OUT_DIM, EMPTY_DATA,
        SCALES_SPECIAL, FORMATS, LAYOUTS_DIFFER,
        OUT_OVERLAPS_ITSELF, OUT_ALIASES_SELF,
        HUGE_SIZES, PLACEHOLDERS
    }

    /** How each axis' scales is chosen: not given, the size ratio rounded (as a user would give it), any ratio, hostile. */
    enum ScalesKind { NOT_GIVEN, ROUNDED_RATIO, ANY, SPECIAL }

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
        final TensorRecipe selfRecipe;
        final TensorRecipe outRecipe;
        final boolean outAliasesSelf;
        final long[] outputSizeValues;
        final boolean outputSizeDestroyed;
        final boolean alignCorners;
        final double scalesH;
        final double scalesW;
        final long seed;
        final String description;
        private Tensor self;
        private Tensor out;
        private IntArray outputSize;
        private double[] selfValues;

        private Call(Platform platform, boolean implicitPlatform, TensorRecipe selfRecipe, TensorRecipe outRecipe,
                     boolean outAliasesSelf, long[] outputSizeValues, boolean outputSizeDestroyed, boolean alignCorners,
                     double scalesH, double scalesW, long seed, String description) {
            this.platform = platform;
            this.implicitPlatform = implicitPlatform;
            this.selfRecipe = selfRecipe;
            this.outRecipe = outRecipe;
            this.outAliasesSelf = outAliasesSelf;
            this.outputSizeValues = outputSizeValues;
            this.outputSizeDestroyed = outputSizeDestroyed;
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
            long[] selfShape = TwoD.inLayout(new long[] {core.n(), core.c(), hin, win}, layout);
            long[] outShape = TwoD.inLayout(new long[] {core.n(), core.c(), hout, wout}, layout);
            var s = new RecipeBuilder(selfShape, core.dtype(), layout,
                    FuzzMutations.INPUT_LAYOUTS[rnd.nextInt(FuzzMutations.INPUT_LAYOUTS.length)], rnd.nextInt(4));
            var o = new RecipeBuilder(outShape, core.dtype(), layout,
                    FuzzMutations.OUTPUT_LAYOUTS[rnd.nextInt(FuzzMutations.OUTPUT_LAYOUTS.length)], rnd.nextInt(4));
            long[] outputSize = {hout, wout};
            boolean selfNull = false;
            boolean outNull = false;
            boolean outputSizeNull = false;
            boolean outputSizeDestroyed = false;
            boolean alias = false;
            for (Mutation m : mutations) {
                switch (m) {
                    case PLATFORM_ANY -> platform = Platform.values()[rnd.nextInt(Platform.values().length)];
                    case PLATFORM_NULL -> platform = null;
                    case SELF_NULL -> selfNull = true;
                    case OUT_NULL -> outNull = true;
                    case OUTPUT_SIZE_NULL -> outputSizeNull = true;
                    case OUTPUT_SIZE_DESTROYED -> outputSizeDestroyed = true;
                    case SELF_DEFECT -> s.defect(rnd);
                    case OUT_DEFECT -> o.defect(rnd);
                    case SELF_RANK -> s.shape = FuzzMutations.randomShape(rnd, selfShape);
                    case OUT_RANK -> o.shape = FuzzMutations.randomShape(rnd, outShape);
                    case OUTPUT_SIZE_LENGTH -> outputSize = FuzzMutations.resized(rnd, outputSize, new int[] {0, 1, 3});
                    case SELF_DTYPE -> s.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUT_DTYPE -> o.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUTPUT_SIZE_VALUE -> outputSize = FuzzMutations.withHostileValue(rnd, outputSize);
                    case SELF_DIM -> s.shape = FuzzMutations.withHostileValue(rnd, s.shape);
                    case OUT_DIM -> o.shape = FuzzMutations.withHostileValue(rnd, o.shape);
                    case EMPTY_DATA -> {
                        // "Non-empty 4D data tensor expected": C, H or W of self is 0 (out follows C).
                        int axis = 1 + rnd.nextInt(3);
                        if (s.shape.length == 4 && o.shape.length == 4) {
                            s.shape[TwoD.axis(axis, layout)] = 0;
                            if (axis == 1) {
                                o.shape[TwoD.axis(1, layout)] = 0;
                            }
                        }
                    }
                    case SCALES_SPECIAL -> {
                        if (rnd.nextBoolean()) {
                            scalesH = FuzzMutations.hostileScales(rnd);
                        } else {
                            scalesW = FuzzMutations.hostileScales(rnd);
                        }
                    }
                    case FORMATS -> {
                        s.format = Format.values()[rnd.nextInt(Format.values().length)];
                        o.format = Format.values()[rnd.nextInt(Format.values().length)];
                    }
                    case LAYOUTS_DIFFER -> {
                        boolean selfNhwc = rnd.nextBoolean();
                        s.format = selfNhwc ? Format.NHWC : Format.NCHW;
                        o.format = selfNhwc ? Format.ND : Format.NHWC;
                    }
                    case OUT_OVERLAPS_ITSELF -> o.layout = rnd.nextBoolean() ? Layout.BROADCAST : Layout.OVERLAPPING_ROWS;
                    case OUT_ALIASES_SELF -> {
                        alias = true;
                        o.layout = Layout.CONTIGUOUS;
                        o.offset = rnd.nextInt(2 * hin * win + 2);
                        o.defect = Defect.NONE;
                    }
                    case HUGE_SIZES -> {
                        // As the backward's: H and W huge (up to and beyond INT32_MAX) only where both axes are copied.
                        long n = FuzzMutations.pick(rnd, 0, 1, 2, 1L << 16, Bilinear2dBackwardFuzz.MAX_DIM,
                                Bilinear2dBackwardFuzz.MAX_DIM + 1, 1L << 40);
                        long c = FuzzMutations.pick(rnd, 1, 3, 1L << 16, Bilinear2dBackwardFuzz.MAX_DIM,
                                Bilinear2dBackwardFuzz.MAX_DIM + 1);
                        boolean copy = rnd.nextBoolean();
                        long h = copy ? FuzzMutations.pick(rnd, 1, 5, 1L << 16, Bilinear2dBackwardFuzz.MAX_DIM,
                                Bilinear2dBackwardFuzz.MAX_DIM + 1) : FuzzMutations.pick(rnd, 1, 5, 64);
                        long w = copy ? FuzzMutations.pick(rnd, 1, 7, 1L << 16, Bilinear2dBackwardFuzz.MAX_DIM,
                                Bilinear2dBackwardFuzz.MAX_DIM + 1) : FuzzMutations.pick(rnd, 1, 7, 64);
                        long ho = copy ? h : rnd.nextInt(8) == 0 ? Bilinear2dBackwardFuzz.MAX_DIM + 1 : 1 + rnd.nextInt(64);
                        long wo = copy ? w : 1 + rnd.nextInt(64);
                        s.shape = TwoD.inLayout(new long[] {n, c, h, w}, layout);
                        o.shape = TwoD.inLayout(new long[] {n, c, ho, wo}, layout);
                        outputSize = new long[] {ho, wo};
                        s.layout = Layout.ALL_BROADCAST;
                        s.defect = Defect.NONE;
                        o.defect = Defect.PLACEHOLDER;
                        scalesH = 0.0;
                        scalesW = 0.0;
                    }
                    case PLACEHOLDERS -> {
                        s.defect = rnd.nextBoolean() ? Defect.PLACEHOLDER : s.defect;
                        o.defect = Defect.PLACEHOLDER;
                    }
                }
            }
            boolean implicitPlatform = platform == Platform.CPU && rnd.nextInt(4) == 0;
            return new Call(platform, implicitPlatform, selfNull ? null : s.build(rnd), outNull ? null : o.build(rnd), alias,
                    outputSizeNull ? null : outputSize, outputSizeDestroyed, core.alignCorners(), scalesH, scalesW,
                    rnd.nextLong(), core + " hout=" + hout + " wout=" + wout + " mutations=" + mutations);
        }

        /** The forward's scales need not match the sizes (as upstream's forward and PyTorch): ANY is a free ratio. */
        private static double scales(ScalesKind kind, int in, int out, SplittableRandom rnd) {
            return switch (kind) {
                case NOT_GIVEN -> 0.0;
                case ROUNDED_RATIO -> Math.round(1000.0 * out / in) / 1000.0;
                case ANY -> 0.05 + rnd.nextDouble() * 8;
                case SPECIAL -> FuzzMutations.hostileScales(rnd);
            };
        }

        @Override
        public String operator() {
            return UpsampleBilinear2d.NAME;
        }

        @Override
        public void build(FuzzArguments arguments) {
            self = arguments.tensor(selfRecipe, "self");
            if (outAliasesSelf && self != null && self.memory() != null) {
                out = arguments.tensor(outRecipe, "out", self.memory());
            } else {
                out = arguments.tensor(outRecipe, "out");
            }
            outputSize = arguments.intArray(outputSizeValues, outputSizeDestroyed);
            if (self != null && self.isUsable() && self.memory() != null && self.dataType().isComputeType()
                    && self.numel() <= Linear1dBackwardFuzz.MAX_FILLED_ELEMENTS) {
                selfValues = arguments.fillInput(self);
            }
        }

        /** The chain of docs/PLANS.md §2 (SPEC §10, upstream's CheckParams), then the memory rule. */
        @Override
        public Expectation expected() {
            if (platform == null) {
                return Expectation.nullptr("platform null", word("platform"));
            }
            if (self == null) {
                return Expectation.nullptr("self null", word("self"));
            }
            if (outputSize == null) {
                return Expectation.nullptr("outputSize null", word("outputSize"));
            }
            if (out == null) {
                return Expectation.nullptr("out null", word("out"));
            }
            if (!self.isUsable()) {
                return Expectation.invalid("self destroyed or freed", word("self"));
            }
            if (outputSizeDestroyed) {
                return Expectation.invalid("outputSize destroyed", word("outputSize"));
            }
            if (!out.isUsable()) {
                return Expectation.invalid("out destroyed or freed", word("out"));
            }
            if (self.dim() != 4) {
                return Expectation.invalid("self rank", word("self"));
            }
            if (out.dim() != 4) {
                return Expectation.invalid("out rank", word("out"));
            }
            if (outputSizeValues.length != 2) {
                return Expectation.invalid("outputSize length", word("outputSize"));
            }
            Expectation format = TwoD.formatRules(self, "self", out);
            if (format != null) {
                return format;
            }
            if (!platform.supported()) {
                return Expectation.invalid("§6 unsupported platform", word("npuArch"));
            }
            if (!TwoD.dtypes(platform).contains(self.dataType())) {
                return Expectation.invalid("self dtype", word("self"));
            }
            if (out.dataType() != self.dataType()) {
                return Expectation.invalid("out dtype", word("out"));
            }
            Format layout = self.format();
            long[] in = TwoD.toNchw(self.shape(), layout);
            long hout = outputSizeValues[0];
            long wout = outputSizeValues[1];
            if (in[1] == 0 || in[2] == 0 || in[3] == 0) {
                return Expectation.invalid("self C, H, W non-zero", "Non-empty 4D data tensor expected");
            }
            if (hout <= 0 || wout <= 0) {
                return Expectation.invalid("outputSize > 0", "output \\(H: " + hout + ", W: " + wout + "\\)");
            }
            if (!Arrays.equals(out.shape(), TwoD.inLayout(new long[] {in[0], in[1], hout, wout}, layout))) {
                return Expectation.invalid("out shape", word("out"));
            }
            if (Arrays.stream(self.shape()).anyMatch(d -> d > Bilinear2dBackwardFuzz.MAX_DIM)) {
                return Expectation.invalid("§10 self dimension <= INT32_MAX", word("self"));
            }
            if (Arrays.stream(out.shape()).anyMatch(d -> d > Bilinear2dBackwardFuzz.MAX_DIM)) {
                return Expectation.invalid("§10 out dimension <= INT32_MAX", word("out"));
            }
            if (in[0] == 0) {
                return Expectation.success("empty batch");
            }
            if (Double.isNaN(scalesH)) {
                return Expectation.invalid("scalesH NaN", word("scalesH"));
            }
            if (Double.isNaN(scalesW)) {
                return Expectation.invalid("scalesW NaN", word("scalesW"));
            }
            if (scalesH < 0 || scalesW < 0) {
                return Expectation.invalid("scales not negative", word("scalesH") + " and " + word("scalesW"));
            }
            Expectation memory = FuzzMutations.memoryRule(out, outRecipe, self, selfRecipe, "self");
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
            long[] a = TwoD.toNchw(self.shape(), self.format());
            long[] b = TwoD.toNchw(out.shape(), self.format());
            if (self.isEmpty() || out.isEmpty() || Arrays.equals(a, b)) {
                return null;
            }
            long longest = Math.max(Math.max(a[2], a[3]), Math.max(b[2], b[3]));
            return longest > TwoD.MAX_TABLE_AXIS ? "an interpolating plan over an axis longer than 2^24" : null;
        }

        @Override
        public WorkspaceAndExecutor phase1() {
            if (implicitPlatform) {
                return UpsampleBilinear2d.getWorkspaceSize(self, outputSize, alignCorners, scalesH, scalesW, out);
            }
            return UpsampleBilinear2d.getWorkspaceSize(platform, self, outputSize, alignCorners, scalesH, scalesW, out);
        }

        @Override
        public void phase2(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
            UpsampleBilinear2d.run(workspace, workspaceSize, executor, stream);
        }

        @Override
        public List<Tensor> inputs() {
            return List.of(self);
        }

        @Override
        public Tensor output() {
            return out;
        }

        @Override
        public boolean runnable() {
            return (self.memory() != null || self.isEmpty()) && (out.memory() != null || out.isEmpty());
        }

        /**
         * golden/README.md's criterion against {@link Bilinear2dReference#forward} (values reordered to NCHW); a plan
         * that takes the sizes only (SPEC §6's fallback, ResizeBilinearV2) is also judged against {@link HalfPixelModel}.
         */
        @Override
        public void checkResult(Executor executor) {
            if (out.isEmpty()) {
                return;
            }
            if (selfValues == null) {
                FuzzStatistics.increment(operator(), "checked against a constant self (too large to fill)");
                // Too large to fill: self holds the sentinel everywhere (ConstantInput), on every plan.
                String mismatch = ConstantInput.checkForward(out, out.dataType());
                assertTrue(mismatch == null, () -> mismatch + " (constant self) for " + this);
                return;
            }
            Format layout = self.format();
            long[] sh = TwoD.toNchw(self.shape(), layout);
            long[] oh = TwoD.toNchw(out.shape(), layout);
            int planes = Math.toIntExact(sh[0] * sh[1]);
            int hin = (int) sh[2];
            int win = (int) sh[3];
            int hout = (int) oh[2];
            int wout = (int) oh[3];
            double[] values = TwoD.nchwValues(selfValues, self.shape(), layout);
            double[] abs = Arrays.stream(values).map(Math::abs).toArray();
            double[] got = TwoD.nchwValues(FuzzArguments.read(out), out.shape(), layout);
            String mismatch = FuzzHarness.firstMismatch(got,
                    Bilinear2dReference.forward(values, planes, hin, win, hout, wout, alignCorners, scalesH, scalesW),
                    Bilinear2dReference.forward(abs, planes, hin, win, hout, wout, alignCorners, scalesH, scalesW),
                    Bilinear2dReference.forwardTerms(hin, win, hout, wout, alignCorners, scalesH, scalesW), out.dataType());
            if (mismatch != null && FuzzHarness.sizesOnlyFallback(platform, executor)) {
                mismatch = FuzzHarness.firstMismatch(got, HalfPixelModel.forward(values, planes, hin, win, hout, wout, alignCorners),
                        HalfPixelModel.forward(abs, planes, hin, win, hout, wout, alignCorners),
                        HalfPixelModel.forwardTerms(hin, hout, win, wout), out.dataType());
                if (mismatch == null) {
                    FuzzStatistics.increment(operator(), "checked against the sizes-only model (SPEC §6 fallback)");
                }
            }
            String failure = mismatch;
            assertTrue(failure == null, () -> failure + " for " + this);
        }

        @Override
        public String toString() {
            return "Bilinear2d call [" + description + "]: platform " + platform + (implicitPlatform ? " (implicit)" : "")
                    + ", self " + selfRecipe + ", out " + outRecipe + (outAliasesSelf ? " in self's memory" : "")
                    + ", outputSize " + Arrays.toString(outputSizeValues) + (outputSizeDestroyed ? " destroyed" : "")
                    + ", alignCorners " + alignCorners + ", scalesH " + scalesH + ", scalesW " + scalesW;
        }
    }
}
