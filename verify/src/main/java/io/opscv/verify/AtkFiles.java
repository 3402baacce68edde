package io.opscv.verify;

import com.fasterxml.jackson.databind.JsonNode;
import io.opscv.runtime.DataType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads an upstream ATK case file (ops-cv's {@code tests/st/<aclnnName>/atk_<aclnnName>.json}; docs/VERIFICATION.md):
 * a JSON array of cases, each naming its operator in {@code aclnn_name}. A case's tensor {@code input} is the forward
 * input and {@code size} the forward output size; the call is derived from those two, as the upstream executor does,
 * and the file's placeholders ({@code outputSize_int}, {@code intputSize_int}, {@code scales*_double}) are not read.
 *
 * <p>A case is named by its {@code id} ({@code id 7}). A backward case's gradOut is all ones (upstream's executor feeds ones, so
 * the input's values do not matter); a forward case's input is drawn from its {@code range_values}, seeded by the
 * id ({@link #SEED}), or filled with its list of special values. Every case is judged by its {@code single_bm}
 * standard and the per-element criterion ({@link Standard#BOTH}). A case of another operator is kept, and skipped
 * when it runs.
 */
final class AtkFiles {
    /** The stream the drawn inputs come from: case {@code id} draws from {@code SplitMix64.forItem(SEED, id)}. */
    static final long SEED = 0x41544b5f53544cL;

    /** Arguments whose value the executor overwrites or that do not change these operators' call. */
    private static final Set<String> PLACEHOLDERS = Set.of("outputSize_int", "intputSize_int", "scales_double", "scalesH_double",
            "scalesW_double", "recompute_scale_factor", "format");
    private static final Set<String> ARGUMENTS = Set.of("input", "size", "align_corners", "mode", "antialias");
    private static final String NAME_PREFIX = "id ";
    private static final Set<String> ARGUMENT_TYPES = Set.of("tensor", "attr", "attrs", "attr_tuple");

    /** One of the four operators, by its upstream name. */
    private record Operator(String aclnnName, String op, String mode) {
        int axes() {
            return OperatorAdapters.forOp(op).spatialAxes();
        }

        boolean backward() {
            return OperatorAdapters.forOp(op).backward();
        }
    }

    private static final List<Operator> OPERATORS = List.of(
            new Operator("UpsampleLinear1dBackward", "upsample_linear1d_backward", "linear"),
            new Operator("UpsampleLinear1d", "upsample_linear1d", "linear"),
            new Operator("UpsampleBilinear2dBackwardV2", "upsample_bilinear2d_backward", "bilinear"),
            new Operator("UpsampleBilinear2d", "upsample_bilinear2d", "bilinear"));

    private AtkFiles() {}

    /** The cases of the ATK file {@code file}, whose JSON tree is {@code root} (an array). */
    static List<CheckCase> cases(JsonNode root, String file) {
        if (root.isEmpty()) {
            throw new CaseFileException(file + ": an ATK file (a JSON array of cases) with no cases");
        }
        if (root.size() > Sweep.MAX_COUNT) {
            throw new CaseFileException(file + ": " + root.size() + " cases are more than a case file may hold ("
                    + Sweep.MAX_COUNT + ")");
        }
        List<CheckCase> cases = new ArrayList<>(root.size());
        Set<Long> ids = new HashSet<>();
        int index = 0;
        for (JsonNode node : root) {
            String where = file + ": case at index " + index++;
            if (node == null || !node.isObject() || !node.has("aclnn_name")) {
                throw new CaseFileException(where + ": expected an ATK case (an object with 'aclnn_name'), but got "
                        + JsonFields.kind(node));
            }
            JsonNode id = node.get("id");
            if (id == null || !id.isIntegralNumber() || !id.canConvertToLong() || id.asLong() < 0) {
                throw new CaseFileException(where + ": field 'id' should be an integer >= 0, but got " + JsonFields.kind(id));
            }
            String context = file + ": case id " + id.asLong();
            if (!ids.add(id.asLong())) {
                throw new CaseFileException(context + ": two cases have this id; ids must be unique");
            }
            cases.add(parse(new JsonFields(node, context), id.asLong()));
        }
        return cases;
    }

    /**
     * The cases judged against hardware results instead of being run: case {@code id}'s result is {@code DIR/<id>.npy},
     * encoded like the operator's output, and is judged by its {@code single_bm} standard (an NPU computes coordinates
     * in float32, which the per-element criterion does not admit on long rows; the error ratio is still reported).
     */
    static List<CheckCase> withResults(List<CheckCase> cases, Path dir) {
        List<CheckCase> judged = new ArrayList<>(cases.size());
        for (CheckCase c : cases) {
            if (OperatorAdapters.find(c.op()) == null) {
                judged.add(c);
                continue;
            }
            judged.add(new CheckCase(c.name(), c.op(), c.n(), c.c(), c.inSizes(), c.outSizes(), c.alignCorners(), c.scales(),
                    c.dataType(), c.format(), c.platform(), c.input(), c.expected(), c.bound(), c.terms(),
                    dir.resolve(resultFileName(c)), c.expectStatus(), Standard.UPSTREAM, c.origin()));
        }
        return judged;
    }

    /** The name of case {@code id}: {@code id 7}. */
    static String caseName(long id) {
        return NAME_PREFIX + id;
    }

    /** The file of an ATK case's hardware result: {@code <id>.npy}, e.g. {@code 7.npy}. */
    static String resultFileName(CheckCase c) {
        return c.name().substring(NAME_PREFIX.length()) + ".npy";
    }

    private static CheckCase parse(JsonFields f, long id) {
        f.node("id");
        String aclnnName = f.requiredText("aclnn_name");
        Operator operator = OPERATORS.stream().filter(o -> o.aclnnName.equals(aclnnName)).findFirst().orElse(null);
        if (operator == null) {
            // Not one of this project's operators: skipped with its name when it runs, not an error of the file.
            return new CheckCase(caseName(id), aclnnName, 0, 0, new int[0], new int[0], false, new double[0], DataType.FLOAT,
                    null, null, new InputSource.Unused(), null, null, null, null, null, Standard.BOTH, null);
        }
        standard(f);
        Map<String, List<JsonFields>> arguments = arguments(f);
        f.rejectUnknown(Set.of("name", "api_type"));

        JsonFields input = single(f, arguments, "input");
        requireType(input, "tensor");
        DataType type = tensorType(input);
        int axes = operator.axes();
        int[] shape = shape(input, 2 + axes);
        int[] size = size(f, arguments.get("size"), axes);
        boolean alignCorners = bool(single(f, arguments, "align_corners"));
        List<JsonFields> mode = arguments.get("mode");
        if (mode != null) {
            String value = text(single(f, arguments, "mode"));
            if (!value.equals(operator.mode)) {
                throw new CaseFileException(f.context() + ": argument 'mode' is \"" + value + "\", but " + aclnnName + " is '"
                        + operator.mode + "' interpolation");
            }
        }
        if (arguments.containsKey("antialias") && bool(single(f, arguments, "antialias"))) {
            throw new CaseFileException(f.context() + ": argument 'antialias' is true, but " + aclnnName + " has no antialiasing");
        }
        InputSource values = values(input, operator.backward(), id);
        int[] in = java.util.Arrays.copyOfRange(shape, 2, shape.length);
        // The 1-D forward is called with scales -1 (not given), the others with 0, as the upstream executor does.
        double[] scales = new double[axes];
        if (operator.op.equals("upsample_linear1d")) {
            scales[0] = -1.0;
        }
        CheckCase c = new CheckCase(caseName(id), operator.op, shape[0], shape[1], in, size, alignCorners, scales, type, null,
                null, values, null, null, null, null, null, Standard.BOTH, null);
        CaseFiles.checkSize(c, f.context());
        return c;
    }

    private static void standard(JsonFields f) {
        JsonNode node = f.node("standard");
        if (node == null) {
            throw f.missing("standard");
        }
        JsonFields standard = new JsonFields(node, f.context() + ", field 'standard'");
        String acc = standard.requiredText("acc");
        if (!acc.equals("single_bm")) {
            throw new CaseFileException(standard.context() + ": 'acc' is \"" + acc + "\"; this harness judges by \"single_bm\" "
                    + "(SPEC §9)");
        }
        standard.node("perf");
        standard.rejectUnknown(Set.of());
    }

    /** The case's arguments by name; a list item that is itself a list contributes each of its objects. */
    private static Map<String, List<JsonFields>> arguments(JsonFields f) {
        JsonNode inputs = f.node("inputs");
        if (inputs == null) {
            throw f.missing("inputs");
        }
        if (!inputs.isArray()) {
            throw f.wrong("inputs", "an array of arguments", inputs);
        }
        Map<String, List<JsonFields>> byName = new LinkedHashMap<>();
        int position = 0;
        for (JsonNode item : inputs) {
            List<JsonNode> objects = new ArrayList<>();
            if (item.isArray()) {
                item.forEach(objects::add);
            } else {
                objects.add(item);
            }
            for (JsonNode object : objects) {
                String where = f.context() + ", inputs[" + position + "]";
                JsonFields argument = new JsonFields(object, where);
                String name = argument.requiredText("name");
                argument = new JsonFields(object, f.context() + ", argument '" + name + "'");
                argument.requiredText("name");
                String type = argument.requiredText("type");
                if (!ARGUMENT_TYPES.contains(type)) {
                    throw argument.wrong("type", String.join(", ", new java.util.TreeSet<>(ARGUMENT_TYPES)), object.get("type"));
                }
                if (!ARGUMENTS.contains(name) && !PLACEHOLDERS.contains(name)) {
                    throw new CaseFileException(where + ": unknown argument '" + name + "' (arguments of these operators: "
                            + new java.util.TreeSet<>(ARGUMENTS) + ", placeholders the executor derives: "
                            + new java.util.TreeSet<>(PLACEHOLDERS) + ")");
                }
                argument.bool("required", true);
                argument.node("dtype");
                argument.node("shape");
                argument.node("range_values");
                argument.node("backward");
                argument.node("align_32B");
                argument.node("outlier_values");
                argument.rejectUnknown(Set.of());
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(argument);
            }
            position++;
        }
        return byName;
    }

    private static JsonFields single(JsonFields f, Map<String, List<JsonFields>> arguments, String name) {
        List<JsonFields> found = arguments.get(name);
        if (found == null) {
            throw new CaseFileException(f.context() + ": missing argument '" + name + "'");
        }
        if (found.size() != 1) {
            throw new CaseFileException(f.context() + ": argument '" + name + "' is given " + found.size() + " times, expected once");
        }
        return found.getFirst();
    }

    private static void requireType(JsonFields argument, String type) {
        String found = argument.requiredText("type");
        if (!found.equals(type)) {
            throw new CaseFileException(argument.context() + ": field 'type' should be \"" + type + "\", but got \"" + found + "\"");
        }
    }

    private static DataType tensorType(JsonFields input) {
        String dtype = input.requiredText("dtype");
        return switch (dtype) {
            case "fp32", "float32" -> DataType.FLOAT;
            case "fp16", "float16" -> DataType.FLOAT16;
            case "bf16", "bfloat16" -> DataType.BF16;
            default -> throw input.wrong("dtype", "fp32, fp16 or bf16", input.node("dtype"));
        };
    }

    /** The tensor's shape: {@code rank} sizes, each an integer >= 1. */
    private static int[] shape(JsonFields input, int rank) {
        JsonNode node = input.node("shape");
        if (node == null || !node.isArray() || node.size() != rank) {
            throw new CaseFileException(input.context() + ": field 'shape' should be " + rank + " sizes ("
                    + (rank == 3 ? "N, C, L" : "N, C, H, W") + "), but got " + JsonFields.kind(node));
        }
        int[] shape = new int[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = input.integer("shape", node.get(d), 1);
        }
        return shape;
    }

    /** The forward output size: one {@code size} of L, or for a 2-D op two entries (H, W), or one entry [H, W]. */
    private static int[] size(JsonFields f, List<JsonFields> entries, int axes) {
        if (entries == null) {
            throw new CaseFileException(f.context() + ": missing argument 'size' (the forward output size)");
        }
        List<JsonNode> values = new ArrayList<>();
        for (JsonFields entry : entries) {
            JsonNode value = value(entry);
            if (value.isArray()) {
                value.forEach(values::add);
            } else {
                values.add(value);
            }
        }
        if (values.size() != axes) {
            throw new CaseFileException(f.context() + ": argument 'size' should give " + axes + (axes == 1 ? " length (L)"
                    : " lengths (H, W)") + ", but gives " + values.size());
        }
        int[] size = new int[axes];
        for (int a = 0; a < axes; a++) {
            size[a] = entries.getFirst().integer("range_values", values.get(a), 1);
        }
        return size;
    }

    private static JsonNode value(JsonFields argument) {
        JsonNode value = argument.node("range_values");
        if (value == null) {
            throw argument.missing("range_values");
        }
        return value;
    }

    private static boolean bool(JsonFields argument) {
        JsonNode value = value(argument);
        if (!value.isBoolean()) {
            throw argument.wrong("range_values", "true or false", value);
        }
        return value.asBoolean();
    }

    private static String text(JsonFields argument) {
        JsonNode value = value(argument);
        if (!value.isTextual()) {
            throw argument.wrong("range_values", "a string", value);
        }
        return value.asText();
    }

    /**
     * The operator's input: all ones for a backward case (what upstream's executor feeds); for a forward case, values
     * drawn from the distribution with a mean and standard deviation drawn from its ranges, seeded by the case's id, or
     * the list of special values in turn.
     */
    private static InputSource values(JsonFields input, boolean backward, long id) {
        JsonNode range = value(input);
        InputSource source;
        if (range.isArray()) {
            source = new InputSource.Listed(specials(input, range));
        } else if (range.isObject()) {
            JsonFields nd = new JsonFields(range, input.context() + ", field 'range_values'");
            String name = nd.requiredText("name");
            if (!name.equals("nd")) {
                throw nd.wrong("name", "\"nd\" (a normal distribution) or a list of special values", range.get("name"));
            }
            double[] mean = interval(nd, "mean", Double.NEGATIVE_INFINITY);
            double[] std = interval(nd, "std", 0.0);
            nd.rejectUnknown(Set.of());
            SplitMix64 random = SplitMix64.forItem(SEED, id);
            // Four significant digits, so that the report's input column reads as a distribution one could type.
            double m = Math.clamp(round4(mean[0] + (mean[1] - mean[0]) * random.nextDouble()), mean[0], mean[1]);
            double s = Math.clamp(round4(std[0] + (std[1] - std[0]) * random.nextDouble()), std[0], std[1]);
            source = new InputSource.Drawn(new ValueSpec(ValueSpec.Kind.NORMAL, m, s, 0.0, 0.0), random.nextLong());
        } else {
            throw input.wrong("range_values", "a distribution {\"name\": \"nd\", ...} or a list of special values", range);
        }
        return backward ? new InputSource.Drawn(ValueSpec.ONES, 0) : source;
    }

    private static double round4(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).doubleValue();
    }

    private static double[] interval(JsonFields nd, String field, double least) {
        JsonNode node = nd.node(field);
        if (node == null) {
            throw nd.missing(field);
        }
        if (!node.isArray() || node.size() != 2 || !node.get(0).isNumber() || !node.get(1).isNumber()) {
            throw nd.wrong(field, "[lo, hi]", node);
        }
        double lo = node.get(0).asDouble();
        double hi = node.get(1).asDouble();
        if (!(Double.isFinite(lo) && Double.isFinite(hi) && lo <= hi && lo >= least)) {
            throw nd.wrong(field, "[lo, hi] with finite lo <= hi" + (least == 0.0 ? ", lo >= 0" : ""), node);
        }
        return new double[] {lo, hi};
    }

    private static double[] specials(JsonFields input, JsonNode list) {
        if (list.isEmpty()) {
            throw input.wrong("range_values", "a non-empty list of special values", list);
        }
        double[] values = new double[list.size()];
        for (int k = 0; k < values.length; k++) {
            JsonNode v = list.get(k);
            if (v.isNumber()) {
                values[k] = v.asDouble();
                continue;
            }
            String text = v.isTextual() ? v.asText().toLowerCase(Locale.ROOT) : "";
            values[k] = switch (text) {
                case "inf", "+inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                case "nan" -> Double.NaN;
                default -> throw input.wrong("range_values", "special values \"inf\", \"-inf\", \"nan\" or numbers", v);
            };
        }
        return values;
    }
}
