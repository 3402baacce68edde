package io.opscv.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a sweep draws one parameter from. In a case file a parameter is written as
 * <ul>
 *   <li>a single value: always that value;</li>
 *   <li>an array: one of its values, uniformly;</li>
 *   <li>{@code {"choices": [...], "weights": [...]}}: one of the choices, with those relative weights;</li>
 *   <li>for numbers, {@code {"min": a, "max": b}}: uniform in [a, b] (integers: each of a..b equally),
 *       or with {@code "log": true} log-uniform, which samples every order of magnitude alike.</li>
 * </ul>
 */
interface Distribution<T> {
    T draw(SplitMix64 random);

    /** Always {@code value}. */
    record Fixed<T>(T value) implements Distribution<T> {
        @Override
        public T draw(SplitMix64 random) {
            return value;
        }
    }

    /** One of {@code values}, with probabilities proportional to {@code weights}. */
    record Choice<T>(List<T> values, double[] weights) implements Distribution<T> {
        @Override
        public T draw(SplitMix64 random) {
            double total = 0;
            for (double w : weights) {
                total += w;
            }
            double u = random.nextDouble() * total;
            for (int k = 0; k < values.size(); k++) {
                u -= weights[k];
                if (u < 0) {
                    return values.get(k);
                }
            }
            return values.getLast();
        }
    }

    /** An integer in [min, max], uniform or log-uniform. */
    record IntRange(int min, int max, boolean log) implements Distribution<Integer> {
        @Override
        public Integer draw(SplitMix64 random) {
            if (!log) {
                return min + random.nextInt(max - min + 1);
            }
            // Log-uniform over [min, max + 1), floored: each integer gets the share of its [k, k + 1) slice.
            double lo = Math.log(min);
            double hi = Math.log(max + 1.0);
            int value = (int) Math.floor(Math.exp(lo + (hi - lo) * random.nextDouble()));
            return Math.clamp(value, min, max);
        }
    }

    /** A real in [min, max], uniform or log-uniform. */
    record RealRange(double min, double max, boolean log) implements Distribution<Double> {
        @Override
        public Double draw(SplitMix64 random) {
            double u = random.nextDouble();
            if (!log) {
                return min + (max - min) * u;
            }
            return Math.exp(Math.log(min) + (Math.log(max) - Math.log(min)) * u);
        }
    }

    /** Parses an integer parameter whose values must be ≥ {@code least}. */
    static Distribution<Integer> ints(JsonFields fields, String field, int least) {
        JsonNode node = fields.node(field);
        if (node == null) {
            throw fields.missing(field);
        }
        if (node.isObject() && node.has("min")) {
            JsonFields range = new JsonFields(node, fields.context() + ", field '" + field + "'");
            int min = range.requiredInt("min", least);
            int max = range.requiredInt("max", min);
            boolean log = range.bool("log", false);
            range.rejectUnknown(java.util.Set.of());
            if (log && min < 1) {
                throw new CaseFileException(range.context() + ": a log range needs min >= 1, but got " + min);
            }
            return new IntRange(min, max, log);
        }
        return choices(fields, field, node, n -> fields.integer(field, n, least));
    }

    /** Parses a real parameter whose values must lie in (0, {@code most}]. */
    static Distribution<Double> positiveReals(JsonFields fields, String field, double most) {
        JsonNode node = fields.node(field);
        if (node == null) {
            throw fields.missing(field);
        }
        Function<JsonNode, Double> positive = n -> {
            if (!n.isNumber() || !(n.asDouble() > 0) || n.asDouble() > most) {
                throw fields.wrong(field, "a number in (0, " + most + "]", n);
            }
            return n.asDouble();
        };
        if (node.isObject() && node.has("min")) {
            JsonFields range = new JsonFields(node, fields.context() + ", field '" + field + "'");
            double min = positive.apply(range.node("min"));
            double max = positive.apply(range.node("max"));
            boolean log = range.bool("log", false);
            range.rejectUnknown(java.util.Set.of());
            if (max < min) {
                throw new CaseFileException(range.context() + ": max (" + max + ") is below min (" + min + ")");
            }
            return new RealRange(min, max, log);
        }
        return choices(fields, field, node, positive);
    }

    /**
     * Parses a value, an array of values or {@code {"choices", "weights"}}, each value read by {@code value};
     * {@code fallback} when the field is absent ({@code null}: required).
     */
    static <T> Distribution<T> choices(JsonFields fields, String field, Distribution<T> fallback, Function<JsonNode, T> value) {
        JsonNode node = fields.node(field);
        if (node == null) {
            if (fallback == null) {
                throw fields.missing(field);
            }
            return fallback;
        }
        return choices(fields, field, node, value);
    }

    private static <T> Distribution<T> choices(JsonFields fields, String field, JsonNode node, Function<JsonNode, T> value) {
        if (node.isArray()) {
            return choice(fields, field, node, null, value);
        }
        if (node.isObject() && node.has("choices")) {
            JsonFields choice = new JsonFields(node, fields.context() + ", field '" + field + "'");
            JsonNode values = choice.node("choices");
            JsonNode weights = choice.node("weights");
            choice.rejectUnknown(java.util.Set.of());
            if (!values.isArray()) {
                throw choice.wrong("choices", "an array", values);
            }
            return choice(fields, field, values, weights, value);
        }
        return new Fixed<>(value.apply(node));
    }

    private static <T> Distribution<T> choice(JsonFields fields, String field, JsonNode values, JsonNode weights,
                                              Function<JsonNode, T> value) {
        if (values.isEmpty()) {
            throw fields.wrong(field, "a non-empty array of choices", values);
        }
        List<T> parsed = new ArrayList<>();
        for (JsonNode v : values) {
            parsed.add(value.apply(v));
        }
        double[] w = new double[parsed.size()];
        if (weights == null) {
            java.util.Arrays.fill(w, 1.0);
        } else {
            if (!weights.isArray() || weights.size() != parsed.size()) {
                throw fields.wrong(field, "weights: an array of " + parsed.size() + " numbers (one per choice)", weights);
            }
            double total = 0;
            for (int k = 0; k < w.length; k++) {
                JsonNode wk = weights.get(k);
                if (!wk.isNumber() || !(wk.asDouble() >= 0)) {
                    throw fields.wrong(field, "weights >= 0", weights);
                }
                w[k] = wk.asDouble();
                total += w[k];
            }
            if (!(total > 0)) {
                throw fields.wrong(field, "weights with a positive sum", weights);
            }
        }
        return new Choice<>(List.copyOf(parsed), w);
    }
}
