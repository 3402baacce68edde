package io.opscv.cli;

import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Number syntax on the command line, as strict as NumPy's and Python's readers of ASCII decimals:
 * integers are {@code [+-]digits}, floating-point values what Python's {@code float()} takes in
 * ASCII without underscores ({@code 1}, {@code -.5}, {@code 2.5e-3}, {@code inf}, {@code nan}).
 * Java's own parsers also take other scripts' digits ({@code Long.parseLong("٣")}), type suffixes
 * ({@code 0.5f}, {@code 1d}) and hexadecimal floats ({@code 0x1p-1}); these are refused.
 */
final class Numbers {
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern DECIMAL = Pattern.compile(
            "[+-]?(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))");

    private Numbers() {}

    /** A plain ASCII decimal integer, or {@link NumberFormatException} with the reason. */
    static long parseLong(String text) {
        if (!INTEGER.matcher(text).matches()) {
            throw new NumberFormatException("'" + text + "' is not an integer (ASCII digits with an optional sign)");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new NumberFormatException("'" + text + "' is out of range (" + Long.MIN_VALUE + " .. " + Long.MAX_VALUE + ")");
        }
    }

    /** A decimal number as Python's {@code float()} reads it in ASCII, or {@link NumberFormatException}. */
    static double parseDouble(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new NumberFormatException("'" + text + "' is not a decimal number (e.g. 2, -0.5, 1.5e-3, inf, nan)");
        }
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith("nan")) {
            return Double.NaN;
        }
        if (lower.endsWith("inf") || lower.endsWith("infinity")) {
            return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return Double.parseDouble(text);
    }

    /** Makes picocli read every int, long and double option with these rules. */
    static void register(CommandLine cmd) {
        CommandLine.ITypeConverter<Long> longs = text -> convert(() -> parseLong(text));
        CommandLine.ITypeConverter<Integer> ints = text -> convert(() -> {
            long v = parseLong(text);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new NumberFormatException("'" + text + "' is out of range (" + Integer.MIN_VALUE + " .. "
                        + Integer.MAX_VALUE + ")");
            }
            return (int) v;
        });
        CommandLine.ITypeConverter<Double> doubles = text -> convert(() -> parseDouble(text));
        cmd.registerConverter(Long.class, longs).registerConverter(Long.TYPE, longs)
                .registerConverter(Integer.class, ints).registerConverter(Integer.TYPE, ints)
                .registerConverter(Double.class, doubles).registerConverter(Double.TYPE, doubles);
    }

    private static <T> T convert(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
