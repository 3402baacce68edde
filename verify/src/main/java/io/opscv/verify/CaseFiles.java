package io.opscv.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads case files (docs/VERIFICATION.md): a JSON object with explicit {@code "cases"} in the format of
 * the golden set's {@code cases.json} and/or {@code "sweeps"} that generate cases from a seed, and an
 * optional default {@code "platform"}; or an upstream ATK file, a JSON array ({@link AtkFiles}). File names
 * in a case are relative to the case file's folder.
 */
public final class CaseFiles {
    /**
     * The most elements a case's input or output may have: the harness holds float64 copies (input,
     * expected, bound, result) on the heap.
     */
    public static final long MAX_ELEMENTS_PER_TENSOR = 1L << 25;

    /** Fields that describe a case without changing it (the golden set's generator notes). */
    static final Set<String> INFORMATIONAL_CASE_FIELDS = Set.of("amp", "nonfinite", "comment", "description");
    private static final Set<String> INFORMATIONAL_FILE_FIELDS = Set.of("generator", "comment", "description");

    private CaseFiles() {}

    /**
     * The most bytes of a case file: the golden set's and upstream's files are a few hundred KiB; the file is held
     * as text and as a tree while it is read.
     */
    public static final long MAX_FILE_BYTES = 64L << 20;

    /**
     * Jackson's limits, set here rather than left to its defaults: case files nest a few levels deep (an ATK
     * argument list is four), so a deeper document is malformed, not a bigger case.
     */
    static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(64)
            .maxDocumentLength(MAX_FILE_BYTES)
            .maxStringLength(1 << 20)
            .maxNumberLength(400)
            .maxNameLength(4096)
            .build();

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS).build());

    /**
     * Every case of {@code file}: its explicit cases, then each sweep's, in file order; or, for an upstream ATK file
     * (a JSON array, {@link AtkFiles}), its cases. A sweep's cases are drawn when they are asked for.
     */
    public static List<CheckCase> read(Path file) throws IOException {
        JsonNode root = parse(file);
        if (root.isArray()) {
            return AtkFiles.cases(root, file.toString());
        }
        Path folder = file.toAbsolutePath().getParent();
        JsonFields top = new JsonFields(root, file.toString());
        Platform platform = platform(top, null);
        JsonNode cases = top.node("cases");
        JsonNode sweeps = top.node("sweeps");
        top.rejectUnknown(INFORMATIONAL_FILE_FIELDS);
        if (cases == null && sweeps == null) {
            throw new CaseFileException(file + ": expected \"cases\" and/or \"sweeps\", found neither");
        }
        List<CheckCase> explicit = new ArrayList<>();
        if (cases != null) {
            requireArray(cases, file + ": field 'cases'");
            int index = 0;
            for (JsonNode node : cases) {
                explicit.add(explicitCase(node, file + ": case " + index++, folder, platform));
            }
        }
        List<Sweep> parsed = new ArrayList<>();
        if (sweeps != null) {
            requireArray(sweeps, file + ": field 'sweeps'");
            int index = 0;
            for (JsonNode node : sweeps) {
                parsed.add(Sweep.parse(node, file + ": sweep " + index++, platform));
            }
        }
        requireUniqueNames(file, explicit, parsed);
        return CaseList.of(explicit, parsed, file);
    }

    /**
     * The cases of the ATK file {@code file}, each judged against its hardware result in {@code resultsDir}
     * ({@code <id>.npy}, {@link AtkFiles#withResults}) instead of being run.
     */
    public static List<CheckCase> readWithResults(Path file, Path resultsDir) throws IOException {
        JsonNode root = parse(file);
        if (!root.isArray()) {
            throw new CaseFileException(file + ": hardware results from a folder are for ATK files (a JSON array of cases); "
                    + "a case file of this project names each case's result in its 'actual'");
        }
        if (!Files.isDirectory(resultsDir)) {
            throw new CaseFileException(resultsDir + ": not a folder of hardware results (<id>.npy per case)");
        }
        return AtkFiles.withResults(AtkFiles.cases(root, file.toString()), resultsDir);
    }

    /** The JSON tree of {@code file}, within {@link #LIMITS}; a file that is not JSON is a {@link CaseFileException}. */
    static JsonNode parse(Path file) throws IOException {
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new CaseFileException(file + ": " + size + " bytes is larger than a case file may be (" + MAX_FILE_BYTES
                        + " bytes)");
            }
            JsonNode root = MAPPER.readTree(Files.readString(file));
            if (root == null || root.isMissingNode()) {
                throw new CaseFileException(file + ": empty file, expected a JSON object or array");
            }
            return root;
        } catch (NoSuchFileException e) {
            throw new CaseFileException(file + ": no such file");
        } catch (CharacterCodingException e) {
            throw new CaseFileException(file + ": not UTF-8 text, so not a JSON case file");
        } catch (JsonProcessingException e) {
            // A limit's exception (StreamConstraintsException) may carry no location.
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
            throw new CaseFileException(file + ": not valid JSON: " + oneLine(e.getOriginalMessage()) + where, e);
        }
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * Names are unique: explicit cases among themselves, sweeps by name, and no explicit case may take a sweep case's
     * name. A sweep's names are {@code NAME_} and digits, so two sweeps of different names never share one, and the
     * check needs no set of every generated name.
     */
    private static void requireUniqueNames(Path file, List<CheckCase> explicit, List<Sweep> sweeps) {
        Set<String> names = new HashSet<>();
        for (CheckCase c : explicit) {
            if (!names.add(c.name())) {
                throw new CaseFileException(file + ": two cases are named '" + c.name() + "'; names must be unique");
            }
        }
        Set<String> sweepNames = new HashSet<>();
        for (Sweep sweep : sweeps) {
            if (!sweepNames.add(sweep.name())) {
                throw new CaseFileException(file + ": two sweeps are named '" + sweep.name() + "'; their cases' names would "
                        + "repeat");
            }
            for (String name : names) {
                if (sweep.names(name)) {
                    throw new CaseFileException(file + ": two cases are named '" + name + "' (an explicit case and one of sweep '"
                            + sweep.name() + "'); names must be unique");
                }
            }
        }
    }

    /** The explicit cases followed by each sweep's, drawing a sweep's case when it is asked for. */
    private static final class CaseList extends AbstractList<CheckCase> {
        private final List<List<CheckCase>> parts;
        private final int size;

        private CaseList(List<List<CheckCase>> parts, int size) {
            this.parts = parts;
            this.size = size;
        }

        static List<CheckCase> of(List<CheckCase> explicit, List<Sweep> sweeps, Path file) {
            List<List<CheckCase>> parts = new ArrayList<>();
            parts.add(List.copyOf(explicit));
            long total = explicit.size();
            for (Sweep sweep : sweeps) {
                parts.add(sweep.generate());
                total += sweep.count();
            }
            if (total > Sweep.MAX_COUNT) {
                throw new CaseFileException(file + ": " + total + " cases are more than a case file may hold (" + Sweep.MAX_COUNT
                        + "; each case's result is kept for the table and the report)");
            }
            return new CaseList(parts, (int) total);
        }

        @Override
        public CheckCase get(int index) {
            java.util.Objects.checkIndex(index, size);
            int i = index;
            for (List<CheckCase> part : parts) {
                if (i < part.size()) {
                    return part.get(i);
                }
                i -= part.size();
            }
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public int size() {
            return size;
        }
    }

    private static CheckCase explicitCase(JsonNode node, String where, Path folder, Platform filePlatform) {
        JsonFields f = new JsonFields(node, where);
        String name = f.requiredText("name");
        String context = where + " ('" + name + "')";
        f = new JsonFields(node, context);
        f.requiredText("name");
        OperatorAdapter adapter = adapter(f);
        Integer expectStatus = f.optionalInt("expect_status", 0);
        // Sizes of 0 only make sense for a case that expects phase 1 to refuse them (or the empty case).
        boolean statusOnly = expectStatus != null && expectStatus != 0;
        int least = statusOnly ? 0 : 1;
        int n = f.requiredInt("n", 0);
        int c = f.requiredInt("c", 0);
        int[] in;
        int[] out;
        double[] scales;
        if (adapter.spatialAxes() == 1) {
            in = new int[] {f.requiredInt("l_in", least)};
            out = new int[] {f.requiredInt("l_out", least)};
            scales = new double[] {f.number("scales", 0.0)};
        } else {
            in = new int[] {f.requiredInt("h_in", least), f.requiredInt("w_in", least)};
            out = new int[] {f.requiredInt("h_out", least), f.requiredInt("w_out", least)};
            scales = new double[] {f.number("scales_h", 0.0), f.number("scales_w", 0.0)};
        }
        boolean alignCorners = f.bool("align_corners", false);
        DataType type = dataType(f);
        Format format = f.has("format") ? format(f.node("format"), f, adapter) : null;
        Platform platform = platform(f, filePlatform);
        Standard standard = standard(f);
        InputSource input = input(f, adapter, folder, statusOnly);
        Path expected = path(f, "expected", folder);
        Path bound = path(f, "bound", folder);
        Integer terms = f.optionalInt("terms", 0);
        Path actual = path(f, "actual", folder);
        f.rejectUnknown(INFORMATIONAL_CASE_FIELDS);
        if (actual != null && statusOnly) {
            throw new CaseFileException(context + ": 'actual' and a non-zero 'expect_status' exclude each other: a result "
                    + "file is judged by its values, a status by running phase 1");
        }
        CheckCase result = new CheckCase(name, adapter.op(), n, c, in, out, alignCorners, scales, type, format, platform, input,
                expected, bound, terms, actual, statusOnly ? expectStatus : null, standard, null);
        if (!statusOnly) {
            checkSize(result, context);
        }
        return result;
    }

    static OperatorAdapter adapter(JsonFields f) {
        String op = f.requiredText("op");
        try {
            return OperatorAdapters.forOp(op);
        } catch (IllegalArgumentException e) {
            throw new CaseFileException(f.context() + ": " + e.getMessage());
        }
    }

    private static InputSource input(JsonFields f, OperatorAdapter adapter, Path folder, boolean statusOnly) {
        String field = adapter.inputField();
        String other = adapter.backward() ? "self" : "grad_out";
        if (f.has(other)) {
            throw new CaseFileException(f.context() + ": " + adapter.op() + " reads its input from '" + field + "', not '"
                    + other + "'");
        }
        Path file = path(f, field, folder);
        JsonNode values = f.node("values");
        JsonNode seed = f.node("seed");
        if (statusOnly && file == null && values == null) {
            return new InputSource.Unused();
        }
        if ((file == null) == (values == null)) {
            throw new CaseFileException(f.context() + ": give the input either as a file ('" + field
                    + "') or as drawn values ('values', with an optional 'seed'), exactly one of them");
        }
        if (file != null) {
            if (seed != null) {
                throw new CaseFileException(f.context() + ": 'seed' belongs to drawn 'values', not to an input file");
            }
            return new InputSource.File(file);
        }
        long s = seed == null ? 0 : f.requiredLong("seed");
        return new InputSource.Drawn(valueSpec(values, f.context() + ", field 'values'"), s);
    }

    private static Path path(JsonFields f, String field, Path folder) {
        String text = f.text(field, null);
        return text == null ? null : folder.resolve(text);
    }

    /** Parses a value distribution: {@code "ones"}, {@code "normal"}, or an object with {@code "kind"}. */
    static ValueSpec valueSpec(JsonNode node, String context) {
        if (node.isTextual()) {
            return switch (node.asText()) {
                case "ones" -> ValueSpec.ONES;
                case "normal" -> ValueSpec.STANDARD_NORMAL;
                default -> throw new CaseFileException(context + ": expected \"ones\", \"normal\" or an object with \"kind\", "
                        + "but got \"" + node.asText() + "\"");
            };
        }
        JsonFields f = new JsonFields(node, context);
        String kind = f.requiredText("kind");
        double nan = f.number("nan_fraction", 0.0);
        double inf = f.number("inf_fraction", 0.0);
        ValueSpec spec;
        try {
            spec = switch (kind) {
                case "ones" -> new ValueSpec(ValueSpec.Kind.ONES, 1.0, 0.0, nan, inf);
                case "constant" -> new ValueSpec(ValueSpec.Kind.CONSTANT, requiredNumber(f, "value"), 0.0, nan, inf);
                case "normal" -> new ValueSpec(ValueSpec.Kind.NORMAL, f.number("mean", 0.0), f.number("std", 1.0), nan, inf);
                case "uniform" -> new ValueSpec(ValueSpec.Kind.UNIFORM, f.number("min", -1.0), f.number("max", 1.0), nan, inf);
                default -> throw new CaseFileException(context + ": field 'kind' should be ones, constant, normal or uniform, "
                        + "but got \"" + kind + "\"");
            };
        } catch (CaseFileException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new CaseFileException(context + ": " + e.getMessage());
        }
        f.rejectUnknown(Set.of());
        return spec;
    }

    private static double requiredNumber(JsonFields f, String field) {
        if (!f.has(field)) {
            throw f.missing(field);
        }
        return f.number(field, 0.0);
    }

    static DataType dataType(JsonFields f) {
        return dataType(f.node("dtype"), f, "dtype");
    }

    static DataType dataType(JsonNode node, JsonFields f, String field) {
        if (node == null) {
            throw f.missing(field);
        }
        String name = node.isTextual() ? node.asText() : "";
        return switch (name) {
            case "float32" -> DataType.FLOAT;
            case "float16" -> DataType.FLOAT16;
            case "bfloat16" -> DataType.BF16;
            default -> throw f.wrong(field, "float32, float16 or bfloat16", node);
        };
    }

    /** The case-file name of a dtype: float32, float16, bfloat16. */
    public static String dtypeName(DataType type) {
        return switch (type) {
            case FLOAT -> "float32";
            case FLOAT16 -> "float16";
            case BF16 -> "bfloat16";
            default -> type.dtName();
        };
    }

    /**
     * A {@code format}: {@code "nchw"} or {@code "nhwc"} for a 2-D op ({@code "nd"} is read as NCHW), {@code "ncl"}
     * or {@code "nd"} for a 1-D op.
     */
    static Format format(JsonNode node, JsonFields f, OperatorAdapter adapter) {
        List<Format> allowed = adapter.spatialAxes() == 1 ? List.of(Format.NCL, Format.ND)
                : List.of(Format.NCHW, Format.NHWC, Format.ND);
        String name = node.isTextual() ? node.asText().toLowerCase(Locale.ROOT) : "";
        for (Format format : allowed) {
            if (formatName(format).equals(name)) {
                return format;
            }
        }
        throw f.wrong("format", String.join(", ", allowed.stream().map(CaseFiles::formatName).toList()) + " for "
                + adapter.op(), node);
    }

    /** The case-file name of a format: nchw, nhwc, ncl, nd. */
    public static String formatName(Format format) {
        return format.name().toLowerCase(Locale.ROOT);
    }

    static Platform platform(JsonFields f, Platform fallback) {
        String name = f.text("platform", null);
        if (name == null) {
            return fallback;
        }
        try {
            return Platform.byName(name);
        } catch (IllegalArgumentException e) {
            throw new CaseFileException(f.context() + ": field 'platform': " + e.getMessage());
        }
    }

    static Standard standard(JsonFields f) {
        String name = f.text("standard", "auto");
        for (Standard s : Standard.values()) {
            if (s.fileName().equals(name.toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new CaseFileException(f.context() + ": field 'standard' should be auto, element, upstream or both, but got \"" + name + "\"");
    }

    /** Refuses a case whose tensors exceed {@link #MAX_ELEMENTS_PER_TENSOR}. */
    static void checkSize(CheckCase c, String context) {
        long rows = (long) c.n() * c.c();
        long largest = Math.max(rows * product(c.inSizes()), rows * product(c.outSizes()));
        if (largest > MAX_ELEMENTS_PER_TENSOR) {
            throw new CaseFileException(context + ": a tensor of " + largest + " elements is larger than the harness takes ("
                    + MAX_ELEMENTS_PER_TENSOR + " elements: it holds float64 copies on the heap)");
        }
    }

    private static long product(int[] sizes) {
        long p = 1;
        for (int size : sizes) {
            p = Math.multiplyExact(p, size);
        }
        return p;
    }

    private static void requireArray(JsonNode node, String context) {
        if (!node.isArray()) {
            throw new CaseFileException(context + " should be an array, but got " + JsonFields.kind(node));
        }
    }
}
