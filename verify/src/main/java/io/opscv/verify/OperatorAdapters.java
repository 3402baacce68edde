package io.opscv.verify;

import java.util.List;
import java.util.stream.Collectors;

/** The operators the harness knows, by their case-file names. */
public final class OperatorAdapters {
    private static final List<OperatorAdapter> ALL = List.of(new Linear1dBackwardAdapter(), new Linear1dAdapter(),
            new Bilinear2dBackwardAdapter(), new Bilinear2dAdapter());

    private OperatorAdapters() {}

    /** Every adapter, in the order above. */
    public static List<OperatorAdapter> all() {
        return ALL;
    }

    /** The adapter of case-file op {@code op}. */
    public static OperatorAdapter forOp(String op) {
        for (OperatorAdapter adapter : ALL) {
            if (adapter.op().equals(op)) {
                return adapter;
            }
        }
        throw new IllegalArgumentException("unknown op '" + op + "' (known: " + names() + ")");
    }

    /** The adapter of case-file op {@code op}, or {@code null} when the harness does not know it. */
    public static OperatorAdapter find(String op) {
        for (OperatorAdapter adapter : ALL) {
            if (adapter.op().equals(op)) {
                return adapter;
            }
        }
        return null;
    }

    /** The known op names, comma-separated. */
    public static String names() {
        return ALL.stream().map(OperatorAdapter::op).collect(Collectors.joining(", "));
    }
}
