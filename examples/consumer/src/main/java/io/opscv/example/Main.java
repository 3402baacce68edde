package io.opscv.example;

import io.opscv.Kernels;
import io.opscv.Upsample1d;
import io.opscv.Upsample2d;
import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** A 1-D and a 2-D forward and backward through the facade; exits with 1 if a result is not PyTorch's. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("kernels: " + Kernels.active());

        // 1-D: the upstream sample (SPEC §8). torch.nn.functional.interpolate(x, size=3, mode="linear",
        // align_corners=True) and its gradient.
        Upsample1d op = Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5);
        float[] y = op.forward(new float[] {0, 1, 2, 3, 4, 5});
        float[] gx = op.backward(new float[] {1, 2, 3});
        boolean ok = check("1-D forward", y, new float[] {0, 2.5f, 5});
        ok &= check("1-D backward", gx, new float[] {1, 0, 1, 1, 0, 3});

        // 2-D, NCHW, 2x2 -> 4x4 without aligned corners; the backward of ones gives 4 to every input.
        Upsample2d op2 = Upsample2d.bilinear(1, 1, 2, 2, 4, 4);
        float[] y2 = op2.forward(new float[] {1, 2, 3, 4});
        ok &= check("2-D forward", y2, new float[] {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f,
                3.5f, 3, 3.25f, 3.75f, 4});
        float[] ones = new float[16];
        Arrays.fill(ones, 1f);
        ok &= check("2-D backward", op2.backward(ones), new float[] {4, 4, 4, 4});

        // The same 1-D backward on off-heap BF16 memory of a confined arena.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment g = arena.allocate(3 * 2);
            for (int i = 0; i < 3; i++) {
                g.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) (Float.floatToRawIntBits(i + 1) >>> 16));
            }
            MemorySegment out = arena.allocate(6 * 2);
            op.backward(g, out, DataType.BF16);
            float[] back = new float[6];
            for (int i = 0; i < 6; i++) {
                back[i] = Float.intBitsToFloat(out.getAtIndex(ValueLayout.JAVA_SHORT, i) << 16);
            }
            ok &= check("1-D backward, BF16 segment", back, new float[] {1, 0, 1, 1, 0, 3});
        }
        if (!ok) {
            System.exit(1);
        }
    }

    private static boolean check(String what, float[] actual, float[] expected) {
        boolean ok = Arrays.equals(actual, expected);
        System.out.println(what + ": " + Arrays.toString(actual) + (ok ? "" : "  expected " + Arrays.toString(expected)));
        return ok;
    }
}
