package io.opscv.verify;

import java.nio.file.Path;

/** Where a case's input tensor comes from: a .npy file, or values drawn from a distribution with a seed. */
public sealed interface InputSource {
    /** A .npy file in the case's dtype ({@code <f4}, {@code <f2}, bfloat16 bits as {@code <u2}). */
    record File(Path path) implements InputSource {
        @Override
        public String describe() {
            return path.getFileName().toString();
        }
    }

    /** Values drawn from {@code values} with {@code seed}, then rounded to the case's dtype. */
    record Drawn(ValueSpec values, long seed) implements InputSource {
        @Override
        public String describe() {
            return values.describe() + " seed " + seed;
        }
    }

    /** The values in turn, repeated to fill the tensor (an ATK case's special values, e.g. {@code ["nan"]}). */
    record Listed(double[] values) implements InputSource {
        /** Copies {@code values}. */
        public Listed {
            values = values.clone();
        }

        /** The first {@code count} values of the repetition. */
        double[] fill(int count) {
            double[] filled = new double[count];
            for (int k = 0; k < count; k++) {
                filled[k] = values[k % values.length];
            }
            return filled;
        }

        @Override
        public String describe() {
            StringBuilder s = new StringBuilder("filled with ");
            for (int k = 0; k < values.length; k++) {
                s.append(k == 0 ? "" : ", ").append(Double.isNaN(values[k]) ? "nan" : Double.isInfinite(values[k])
                        ? (values[k] > 0 ? "inf" : "-inf") : Double.toString(values[k]));
            }
            return s.toString();
        }
    }

    /** No input: a case that expects phase 1 to fail reads no values. */
    record Unused() implements InputSource {
        @Override
        public String describe() {
            return "(not read)";
        }
    }

    /** A short description for tables and reports. */
    String describe();
}
