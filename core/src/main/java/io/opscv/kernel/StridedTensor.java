package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * What a kernel sees of a tensor: a segment, the element offset of element [0, ..., 0], the shape
 * and strides in elements, and the dtype. Creating one does no bounds checking: the tensor or plan
 * step that builds it has checked that every element lies inside {@code segment}.
 */
public record StridedTensor(MemorySegment segment, long offset, long[] shape, long[] strides, DataType dataType) {

    public int dim() {
        return shape.length;
    }

    public long numel() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    @Override
    public String toString() {
        return "StridedTensor[" + dataType + ", shape=" + Arrays.toString(shape) + ", strides=" + Arrays.toString(strides)
                + ", offset=" + offset + "]";
    }
}
