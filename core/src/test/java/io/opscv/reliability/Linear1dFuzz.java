package io.opscv.reliability;

import static io.opscv.reliability.Expectation.word;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Linear1dReference;
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
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * The fuzz of {@code aclnnUpsampleLinear1d} (SPEC §10, docs/PLANS.md §2): a generator of calls (a consistent core,
 * then up to four mutations), the oracle of its validation chain in its order (plus the memory rule), and the
 * float64 reference of {@code io.opscv.reference} for the calls that succeed.
 */
final class Linear1dFuzz {
    private Linear1dFuzz() {}

    /** What a mutation changes in the consistent core. */
    enum Mutation {
        PLATFORM_ANY, PLATFORM_NULL,
        SELF_NULL, OUT_NULL, OUTPUT_SIZE_NULL, OUTPUT_SIZE_DESTROYED,
        SELF_DEFECT, OUT_DEFECT,
        SELF_RANK, OUT_RANK, OUTPUT_SIZE_LENGTH,
        SELF_DTYPE, OUT_DTYPE,
        OUTPUT_SIZE_VALUE, SELF_DIM, OUT_DIM, EMPTY_DATA,
        SCALES_SPECIAL, FORMATS,
        OUT_OVERLAPS_ITSELF, OUT_ALIASES_SELF,
        HUGE_SIZES, PLACEHOLDERS, RATIO_500
    }

    /** How scales is chosen for the core: 0, negative (also "not given" for the forward), floor-consistent, hostile. */
    enum ScalesKind { NOT_GIVEN, NEGATIVE, CONSISTENT, SPECIAL }

    /** Sizes, dtype and mode of a consistent call, before mutations. */
    record Core(int n, int c, int lin, int lout, DataType dtype, boolean alignCorners, ScalesKind scalesKind,
                Platform platform) {}

    /** The generator: cores of small consistent calls, then 0-4 mutations drawn with a seed for their details. */
    static Arbitrary<Call> calls() {
        Arbitrary<Integer> batch = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0)),
                Tuple.of(29, Arbitraries.integers().between(1, 3)));
        Arbitrary<Integer> channels = Arbitraries.integers().between(1, 3);
        Arbitrary<Integer> length = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.integers().between(1, 24)),
                Tuple.of(1, Arbitraries.integers().between(25, 300)));
        Arbitrary<DataType> dtype = Arbitraries.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16);
        Arbitrary<Platform> platform = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(Platform.CPU)),
                Tuple.of(2, Arbitraries.of(Platform.class)));
        Arbitrary<Core> core = Combinators.combine(batch, channels, length, length, dtype, Arbitraries.of(true, false),
                Arbitraries.of(ScalesKind.class), platform).as(Core::new);
        Arbitrary<List<Mutation>> mutations = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.<Mutation>of())),
                Tuple.of(5, Arbitraries.of(Mutation.class).list().ofMinSize(1).ofMaxSize(2)),
                Tuple.of(1, Arbitraries.of(Mutation.class).list().ofMinSize(3).ofMaxSize(4)));
        Arbitrary<Boolean> identity = Arbitraries.integers().between(0, 5).map(k -> k == 0);
        return Combinators.combine(core, identity, mutations, Arbitraries.longs()).as(Call::generate);
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
        final double scales;
        final long seed;
        final String description;
        private Tensor self;
        private Tensor out;
        private IntArray outputSize;
        private double[] selfValues;

        private Call(Platform platform, boolean implicitPlatform, TensorRecipe selfRecipe, TensorRecipe outRecipe,
                     boolean outAliasesSelf, long[] outputSizeValues, boolean outputSizeDestroyed, boolean alignCorners,
                     double scales, long seed, String description) {
            this.platform = platform;
            this.implicitPlatform = implicitPlatform;
            this.selfRecipe = selfRecipe;
            this.outRecipe = outRecipe;
            this.outAliasesSelf = outAliasesSelf;
            this.outputSizeValues = outputSizeValues;
            this.outputSizeDestroyed = outputSizeDestroyed;
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
                case NEGATIVE -> -rnd.nextDouble() * 4;
                case CONSISTENT -> (lout + rnd.nextDouble() * 0.999) / lin;
                case SPECIAL -> FuzzMutations.hostileScales(rnd);
            };
            long[] selfShape = {core.n(), core.c(), lin};
            long[] outShape = {core.n(), core.c(), lout};
            Format[] formats = {Format.NCL, Format.ND};
            var s = new RecipeBuilder(selfShape, core.dtype(), formats[rnd.nextInt(2)],
                    FuzzMutations.INPUT_LAYOUTS[rnd.nextInt(FuzzMutations.INPUT_LAYOUTS.length)], rnd.nextInt(4));
            var o = new RecipeBuilder(outShape, core.dtype(), formats[rnd.nextInt(2)],
                    FuzzMutations.OUTPUT_LAYOUTS[rnd.nextInt(FuzzMutations.OUTPUT_LAYOUTS.length)], rnd.nextInt(4));
            long[] outputSize = {lout};
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
                    case OUTPUT_SIZE_LENGTH -> outputSize = FuzzMutations.resized(rnd, outputSize, new int[] {0, 2, 3});
                    case SELF_DTYPE -> s.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUT_DTYPE -> o.dtype = DataType.values()[rnd.nextInt(DataType.values().length)];
                    case OUTPUT_SIZE_VALUE -> outputSize = FuzzMutations.withHostileValue(rnd, outputSize);
                    case SELF_DIM -> s.shape = FuzzMutations.withHostileValue(rnd, s.shape);
                    case OUT_DIM -> o.shape = FuzzMutations.withHostileValue(rnd, o.shape);
                    case EMPTY_DATA -> {
                        // "Non-empty 3D data tensor expected": C or L of self is 0 (out follows C, so that only this rule breaks).
                        int d = s.shape.length >= 3 ? 1 + rnd.nextInt(2) : -1;
                        if (d > 0) {
                            s.shape[d] = 0;
                            if (d == 1 && o.shape.length >= 2) {
                                o.shape[1] = 0;
                            }
                        }
                    }
                    case SCALES_SPECIAL -> scales = FuzzMutations.hostileScales(rnd);
                    case FORMATS -> {
                        s.format = Format.values()[rnd.nextInt(Format.values().length)];
                        o.format = Format.values()[rnd.nextInt(Format.values().length)];
                    }
                    case OUT_OVERLAPS_ITSELF -> o.layout = rnd.nextBoolean() ? Layout.BROADCAST : Layout.OVERLAPPING_ROWS;
                    case OUT_ALIASES_SELF -> {
                        alias = true;
                        o.layout = Layout.CONTIGUOUS;
                        o.offset = rnd.nextInt(2 * lin + 2);
                        o.defect = Defect.NONE;
                    }
                    case HUGE_SIZES -> {
                        long n = FuzzMutations.pick(rnd, 0, 1, 2, 1L << 10, 1L << 15, 1L << 16, 1L << 20, (1L << 20) + 1, 1L << 31);
                        long c = FuzzMutations.pick(rnd, 1, 3, 1L << 11, 1L << 15, 1L << 16, 1L << 20, (1L << 20) + 1);
                        long hugeLin = FuzzMutations.pick(rnd, 1, 2, 1L << 10, 1L << 20, (1L << 20) + 1, 1L << 30);
                        long hugeLout = rnd.nextBoolean() ? hugeLin
                                : FuzzMutations.pick(rnd, 1, 7, 1L << 19, 1L << 20, (1L << 20) + 1);
                        s.shape = new long[] {n, c, hugeLin};
                        o.shape = new long[] {n, c, hugeLout};
                        outputSize = new long[] {hugeLout};
                        s.layout = Layout.ALL_BROADCAST;
                        s.defect = Defect.NONE;
                        o.defect = Defect.PLACEHOLDER;
                        scales = rnd.nextBoolean() ? 0.0 : (double) hugeLout / hugeLin;
                    }
                    case RATIO_500 -> {
                        // Lout / Lin <= 500: at 500 exactly the call computes, one more is refused.
                        long smallLin = 1 + rnd.nextInt(3);
                        long ratioLout = 500 * smallLin + rnd.nextInt(2);
                        long n = s.shape.length > 0 ? Math.max(s.shape[0], 1) : 1;
                        s.shape = new long[] {n, 1, smallLin};
                        o.shape = new long[] {n, 1, ratioLout};
                        outputSize = new long[] {ratioLout};
                        scales = 0.0;
                    }
                    case PLACEHOLDERS -> {
                        s.defect = rnd.nextBoolean() ? Defect.PLACEHOLDER : s.defect;
                        o.defect = Defect.PLACEHOLDER;
                    }
                }
            }
            boolean implicitPlatform = platform == Platform.CPU && rnd.nextInt(4) == 0;
            return new Call(platform, implicitPlatform, selfNull ? null : s.build(rnd), outNull ? null : o.build(rnd), alias,
                    outputSizeNull ? null : outputSize, outputSizeDestroyed, core.alignCorners(), scales, rnd.nextLong(),
                    core + (identity ? " identity" : "") + " mutations=" + mutations);
        }

        @Override
        public String operator() {
            return UpsampleLinear1d.NAME;
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

        /** The forward's chain (docs/PLANS.md §2, SPEC §10 with the backward's limits), then the memory rule. */
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
            if (self.dim() != 3) {
                return Expectation.invalid("self rank", word("self"));
            }
            if (out.dim() != 3) {
                return Expectation.invalid("out rank", word("out"));
            }
            if (outputSizeValues.length != 1) {
                return Expectation.invalid("outputSize length", word("outputSize"));
            }
            if (!platform.supported()) {
                return Expectation.invalid("§6 unsupported platform", word("npuArch"));
            }
            List<DataType> supported = platform == Platform.ASCEND910
                    ? List.of(DataType.FLOAT16, DataType.FLOAT) : List.of(DataType.FLOAT16, DataType.FLOAT, DataType.BF16);
            if (!supported.contains(self.dataType())) {
                return Expectation.invalid("self dtype", word("self"));
            }
            if (out.dataType() != self.dataType()) {
                return Expectation.invalid("out dtype", word("out"));
            }
            long n = self.size(0);
            long c = self.size(1);
            long lin = self.size(2);
            long lout = outputSizeValues[0];
            if (c == 0 || lin == 0) {
                return Expectation.invalid("§10 self C and L non-zero", "Non-empty 3D data tensor expected");
            }
            if (lout <= 0) {
                return Expectation.invalid("outputSize > 0", "output \\(L: " + lout + "\\)");
            }
            if (!Arrays.equals(out.shape(), new long[] {n, c, lout})) {
                return Expectation.invalid("out shape", word("out"));
            }
            long maxDim = 1L << 20;
            if (Arrays.stream(self.shape()).anyMatch(d -> d > maxDim)) {
                return Expectation.invalid("§5 self dimension <= 2^20", word("self"));
            }
            if (Arrays.stream(out.shape()).anyMatch(d -> d > maxDim)) {
                return Expectation.invalid("§5 out dimension <= 2^20", word("out"));
            }
            BigInteger nc = BigInteger.valueOf(n).multiply(BigInteger.valueOf(c));
            if (nc.compareTo(BigInteger.ONE.shiftLeft(31)) >= 0) {
                return Expectation.invalid("§5 N*C < 2^31", word("N") + ".*" + word("C"));
            }
            BigInteger bytes = BigInteger.valueOf(lin + lout).multiply(nc).multiply(BigInteger.valueOf(self.dataType().byteSize()));
            if (bytes.compareTo(BigInteger.valueOf(60L << 30)) >= 0) {
                return Expectation.invalid("§5 memory < 60 GiB", "60 GiB");
            }
            if (n == 0) {
                return Expectation.success("empty batch");
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
            if (scales > 0 && Math.floor(lin * scales) != lout) {
                return Expectation.invalid("§10 floor rule (scales > 0)", "outputSize\\[0\\].*scales");
            }
            Expectation memory = FuzzMutations.memoryRule(out, outRecipe, self, selfRecipe, "self");
            if (memory != null) {
                return memory;
            }
            return Expectation.success(lin == lout ? "success, copy" : "success, interpolation");
        }

        @Override
        public WorkspaceAndExecutor phase1() {
            if (implicitPlatform) {
                return UpsampleLinear1d.getWorkspaceSize(self, outputSize, alignCorners, scales, out);
            }
            return UpsampleLinear1d.getWorkspaceSize(platform, self, outputSize, alignCorners, scales, out);
        }

        @Override
        public void phase2(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
            UpsampleLinear1d.run(workspace, workspaceSize, executor, stream);
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

        /** golden/README.md's criterion against {@link Linear1dReference#forward}: every plan of the forward takes the scales. */
        @Override
        public void checkResult(Executor executor) {
            if (out.isEmpty()) {
                return;
            }
            if (selfValues == null) {
                FuzzStatistics.increment(operator(), "checked against a constant self (too large to fill)");
                // Too large to fill: self holds the sentinel everywhere (ConstantInput).
                String mismatch = ConstantInput.checkForward(out, out.dataType());
                assertTrue(mismatch == null, () -> mismatch + " (constant self) for " + this);
                return;
            }
            int rows = Math.toIntExact(out.size(0) * out.size(1));
            int lin = Math.toIntExact(self.size(2));
            int lout = Math.toIntExact(out.size(2));
            double[] abs = Arrays.stream(selfValues).map(Math::abs).toArray();
            String mismatch = FuzzHarness.firstMismatch(FuzzArguments.read(out),
                    Linear1dReference.forward(selfValues, rows, lin, lout, alignCorners, scales),
                    Linear1dReference.forward(abs, rows, lin, lout, alignCorners, scales),
                    Linear1dReference.forwardTerms(lin, lout, alignCorners, scales), out.dataType());
            assertTrue(mismatch == null, () -> mismatch + " for " + this);
        }

        @Override
        public String toString() {
            return "Linear1d call [" + description + "]: platform " + platform + (implicitPlatform ? " (implicit)" : "")
                    + ", self " + selfRecipe + ", out " + outRecipe + (outAliasesSelf ? " in self's memory" : "")
                    + ", outputSize " + Arrays.toString(outputSizeValues) + (outputSizeDestroyed ? " destroyed" : "")
                    + ", alignCorners " + alignCorners + ", scales " + scales;
        }
    }
}
