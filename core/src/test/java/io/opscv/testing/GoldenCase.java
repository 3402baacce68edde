package io.opscv.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opscv.npy.Npy;
import io.opscv.npy.NpyHeader;
import io.opscv.runtime.DataType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One case of the PyTorch golden set ({@code golden/cases.json} in the test resources; see
 * {@code golden/README.md} for the fields).
 */
public record GoldenCase(JsonNode json) {
    private static final String ROOT = "/golden/";

    /** Every case of {@code cases.json}. */
    public static List<GoldenCase> all() {
        try (InputStream in = GoldenCase.class.getResourceAsStream(ROOT + "cases.json")) {
            if (in == null) {
                throw new IllegalStateException("golden/cases.json is not on the test classpath");
            }
            List<GoldenCase> cases = new ArrayList<>();
            for (JsonNode c : new ObjectMapper().readTree(in).get("cases")) {
                cases.add(new GoldenCase(c));
            }
            return cases;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cases of one op: {@code upsample_linear1d_backward}, {@code upsample_linear1d}, {@code upsample_bilinear2d_backward}. */
    public static List<GoldenCase> of(String op) {
        return all().stream().filter(c -> c.op().equals(op)).toList();
    }

    public String op() {
        return json.get("op").asText();
    }

    public String name() {
        return json.get("name").asText();
    }

    public int intField(String field) {
        return json.get(field).asInt();
    }

    public double doubleField(String field) {
        return json.get(field).asDouble();
    }

    public boolean alignCorners() {
        return json.get("align_corners").asBoolean();
    }

    public int terms() {
        return intField("terms");
    }

    public DataType dataType() {
        return switch (json.get("dtype").asText()) {
            case "float32" -> DataType.FLOAT;
            case "float16" -> DataType.FLOAT16;
            case "bfloat16" -> DataType.BF16;
            default -> throw new IllegalArgumentException(json.get("dtype").asText());
        };
    }

    /** The input file's name: {@code grad_out} for backward ops, {@code self} for forward ones. */
    public String inputFile() {
        return json.has("grad_out") ? json.get("grad_out").asText() : json.get("self").asText();
    }

    public double[] expected() {
        return readDoubles(json.get("expected").asText());
    }

    public double[] bound() {
        return readDoubles(json.get("bound").asText());
    }

    /** The input's raw bytes, in the operator's dtype (bfloat16 as bit patterns), in a new global segment. */
    public MemorySegment inputBytes() {
        Path p = resource(inputFile());
        try {
            NpyHeader h = Npy.readHeader(p);
            MemorySegment seg = Arena.ofAuto().allocate(Math.max(h.dataBytes(), 1), 8);
            Npy.readData(p, h, seg);
            return seg.asSlice(0, h.dataBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of a golden resource file (copied out of a jar when needed). */
    public static Path resource(String file) {
        URL url = GoldenCase.class.getResource(ROOT + file);
        if (url == null) {
            throw new IllegalStateException("missing golden resource " + file);
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Path.of(url.toURI());
            }
            Path tmp = Files.createTempFile("golden-", "-" + file);
            tmp.toFile().deleteOnExit();
            try (InputStream in = url.openStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double[] readDoubles(String file) {
        Path p = resource(file);
        try {
            NpyHeader h = Npy.readHeader(p);
            if (!h.descr().equals("<f8")) {
                throw new IllegalStateException(file + " is " + h.descr() + ", expected <f8");
            }
            MemorySegment seg = Arena.ofAuto().allocate(Math.max(h.dataBytes(), 8), 8);
            Npy.readData(p, h, seg);
            return seg.asSlice(0, h.dataBytes()).toArray(ValueLayout.JAVA_DOUBLE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
