package io.opscv;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import java.lang.foreign.MemorySegment;

/**
 * One direction of one facade operator: the contiguous shapes it maps between, their layout, the
 * names its messages use, and its two ACLNN phases. It checks the caller's arrays or segments and
 * runs them through the shared {@link Engine}.
 */
record Call(long[] inShape, long[] outShape, Format format, String inName, String outName, String inDescription,
            String outDescription, Engine.Phase1 phase1, Engine.Phase2 phase2) {

    long inElements() {
        return Operands.elements(inDescription, inShape);
    }

    long outElements() {
        return Operands.elements(outDescription, outShape);
    }

    float[] floats(float[] in) {
        Operands.array(in, in == null ? 0 : in.length, inElements(), inName, inDescription);
        float[] out = new float[Operands.arrayLength(outElements(), outDescription)];
        run(MemorySegment.ofArray(in), MemorySegment.ofArray(out), DataType.FLOAT);
        return out;
    }

    void floats(float[] in, int inOffset, float[] out, int outOffset) {
        long inCount = inElements();
        long outCount = outElements();
        Operands.notNull(in, inName);
        Operands.notNull(out, outName);
        Operands.range(in.length, inOffset, inCount, inName);
        Operands.range(out.length, outOffset, outCount, outName);
        MemorySegment src = MemorySegment.ofArray(in).asSlice(inOffset * 4L, inCount * 4L);
        MemorySegment dst = MemorySegment.ofArray(out).asSlice(outOffset * 4L, outCount * 4L);
        Operands.disjoint(src, inName, dst, outName);
        run(src, dst, DataType.FLOAT);
    }

    short[] bits(short[] in, DataType dtype) {
        Operands.bits16(dtype);
        Operands.array(in, in == null ? 0 : in.length, inElements(), inName, inDescription);
        short[] out = new short[Operands.arrayLength(outElements(), outDescription)];
        run(MemorySegment.ofArray(in), MemorySegment.ofArray(out), dtype);
        return out;
    }

    void segments(MemorySegment in, MemorySegment out, DataType dtype) {
        Operands.segment(in, inElements(), dtype, inName, inDescription, false);
        Operands.segment(out, outElements(), dtype, outName, outDescription, true);
        Operands.disjoint(in, inName, out, outName);
        run(in, out, dtype);
    }

    private void run(MemorySegment in, MemorySegment out, DataType dtype) {
        Engine.shared().run(inShape, outShape, format, dtype, in, out, phase1, phase2);
    }
}
