package io.opscv.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * ATK case files written by the tests, in the format of upstream's ST files (FORMAT.md): placeholders included, so
 * that the reader is seen to ignore them.
 */
final class AtkCases {
    private AtkCases() {}

    /** The sample file shipped in the test resources (a copy of the one written for this project). */
    static Path sample() {
        return Path.of("src/test/resources/atk/sample_atk.json").toAbsolutePath();
    }

    /** One case: {@code aclnnName}, the forward input's dtype and shape, the forward output size, alignCorners, values. */
    static String atkCase(long id, String aclnnName, String dtype, int[] shape, int[] size, boolean alignCorners, String rangeValues) {
        boolean twoD = shape.length == 4;
        List<String> inputs = new ArrayList<>();
        inputs.add(argument("input", "tensor", dtype, shapeJson(shape), rangeValues, aclnnName.contains("Backward")));
        inputs.add(argument("mode", "attr", "string", "null", twoD ? "\"bilinear\"" : "\"linear\"", false));
        if (twoD) {
            inputs.add("[" + argument("size", "attr", "int", "null", Integer.toString(size[0]), false) + ", "
                    + argument("size", "attr", "int", "null", Integer.toString(size[1]), false) + "]");
            inputs.add("[" + placeholder("outputSize_int", "attrs", "int") + ", " + placeholder("outputSize_int", "attrs", "int") + "]");
            inputs.add(placeholder("scalesH_double", "attr", "double"));
            inputs.add(placeholder("scalesW_double", "attr", "double"));
            inputs.add(argument("antialias", "attr", "bool", "null", "false", false));
            inputs.add(argument("recompute_scale_factor", "attr", "bool", "null", "false", false));
        } else {
            inputs.add(argument("size", "attr", "int", "null", Integer.toString(size[0]), false));
            inputs.add("[" + placeholder("outputSize_int", "attrs", "int") + "]");
            inputs.add(placeholder("scalesH_double", "attr", "double"));
        }
        if (aclnnName.contains("Backward")) {
            List<String> sizes = new ArrayList<>();
            for (int d = 0; d < shape.length; d++) {
                sizes.add(placeholder("intputSize_int", "attrs", "int"));
            }
            inputs.add("[" + String.join(", ", sizes) + "]");
        }
        inputs.add(argument("align_corners", "attr", "bool", "null", Boolean.toString(alignCorners), false));
        inputs.add(argument("format", "attr", "string", "null", twoD ? "\"NCHW\"" : "\"NCL\"", false));
        return "{\"id\": " + id + ", \"name\": \"torch.nn.functional.interpolate\", \"aclnn_name\": \"" + aclnnName
                + "\", \"api_type\": \"" + aclnnName.toLowerCase(Locale.ROOT) + "\", \"standard\": {\"acc\": \"single_bm\", "
                + "\"perf\": \"not_key\"}, \"inputs\": [" + String.join(", ", inputs) + "]}";
    }

    static String argument(String name, String type, String dtype, String shape, String rangeValues, boolean backward) {
        return "{\"name\": \"" + name + "\", \"type\": \"" + type + "\", \"required\": true, \"dtype\": \"" + dtype
                + "\", \"shape\": " + shape + ", \"range_values\": " + rangeValues + ", \"backward\": " + backward
                + ", \"align_32B\": null, \"outlier_values\": null}";
    }

    private static String placeholder(String name, String type, String dtype) {
        return argument(name, type, dtype, "null", "1", false);
    }

    private static String shapeJson(int[] shape) {
        StringBuilder s = new StringBuilder("[");
        for (int d = 0; d < shape.length; d++) {
            s.append(d == 0 ? "" : ", ").append(shape[d]);
        }
        return s.append(']').toString();
    }

    /** A normal distribution as upstream writes it. */
    static final String NORMAL = "{\"name\": \"nd\", \"mean\": [-10, 10], \"std\": [1, 4]}";

    /** Writes {@code cases} as an ATK file. */
    static Path write(Path file, List<String> cases) throws IOException {
        Files.writeString(file, "[" + String.join(",\n", cases) + "]");
        return file;
    }

    /**
     * Cases of every operator, dtype and alignCorners: upsampling, downsampling, output size 1 and input length 1, and for
     * the forwards special values filling the input.
     */
    static List<String> everyKind() {
        List<String> cases = new ArrayList<>();
        long id = 100;
        String[] operators = {"UpsampleLinear1dBackward", "UpsampleLinear1d", "UpsampleBilinear2dBackwardV2", "UpsampleBilinear2d"};
        // {input spatial sizes, output size}: up, down, size 1, input length 1.
        int[][][] oneD = {{{5}, {12}}, {{9}, {4}}, {{6}, {1}}, {{1}, {7}}};
        int[][][] twoD = {{{3, 4}, {7, 9}}, {{9, 8}, {4, 3}}, {{5, 6}, {1, 1}}, {{1, 1}, {3, 5}}};
        for (String operator : operators) {
            boolean is2d = operator.contains("2d");
            for (String dtype : List.of("fp32", "fp16", "bf16")) {
                for (boolean alignCorners : List.of(true, false)) {
                    for (int[][] sizes : is2d ? twoD : oneD) {
                        int[] shape = is2d ? new int[] {2, 3, sizes[0][0], sizes[0][1]} : new int[] {2, 3, sizes[0][0]};
                        cases.add(atkCase(id++, operator, dtype, shape, sizes[1], alignCorners, NORMAL));
                    }
                }
                if (!operator.contains("Backward")) {
                    for (String specials : List.of("[\"nan\"]", "[\"inf\"]", "[\"-inf\"]", "[\"nan\", \"inf\", 1.5, \"-inf\"]")) {
                        int[] shape = is2d ? new int[] {1, 2, 3, 5} : new int[] {1, 2, 5};
                        int[] size = is2d ? new int[] {7, 4} : new int[] {11};
                        cases.add(atkCase(id++, operator, dtype, shape, size, false, specials));
                    }
                }
            }
        }
        return cases;
    }
}
