package io.opscv.verify;

import io.opscv.runtime.DataType;
import java.nio.file.Path;

/** Small cases built in code for the tests. */
final class TestCases {
    private TestCases() {}

    /** A 1-D backward case (N 1, C 2, Lin 6, Lout 12) with drawn normal values. */
    static CheckCase linear1dBackward(String name, DataType type, Standard standard) {
        return new CheckCase(name, "upsample_linear1d_backward", 1, 2, new int[] {6}, new int[] {12}, false, new double[] {2.0},
                type, null, null, new InputSource.Drawn(ValueSpec.STANDARD_NORMAL, 7), null, null, null, null, null, standard, null);
    }

    /** {@code c} judging the file {@code actual} instead of running the operator. */
    static CheckCase withActual(CheckCase c, Path actual) {
        return new CheckCase(c.name(), c.op(), c.n(), c.c(), c.inSizes(), c.outSizes(), c.alignCorners(), c.scales(), c.dataType(),
                c.format(), c.platform(), c.input(), c.expected(), c.bound(), c.terms(), actual, c.expectStatus(), c.standard(), c.origin());
    }
}
