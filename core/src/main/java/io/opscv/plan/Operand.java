package io.opscv.plan;

import io.opscv.kernel.StridedTensor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * What a plan step reads or writes: a view (shape, strides and offset in elements, dtype, format)
 * over either a user tensor's memory or a slice of the caller's workspace (an intermediate, as
 * upstream's {@code executor->AllocTensor} gives one). Views of a view share its storage, so the
 * pure-view l0 operators (Unsqueeze, ReFormat, View4dAs3d, a Cast or Contiguous that has nothing to
 * do) cost no copy.
 *
 * <p>An intermediate is created by {@link WorkspacePlan#allocate}; it <em>owns</em> its slice
 * ({@link #ownedWorkspaceBytes()}), the views made from it do not.
 */
public final class Operand {
    private final String name;
    private final Tensor tensor;
    private final long workspaceOffset;
    private final long sliceBytes;
    private final boolean owner;
    private final long offset;
    private final long[] shape;
    private final long[] strides;
    private final DataType dataType;
    private final Format format;

    private Operand(String name, Tensor tensor, long workspaceOffset, long sliceBytes, boolean owner, long offset,
                    long[] shape, long[] strides, DataType dataType, Format format) {
        this.name = name;
        this.tensor = tensor;
        this.workspaceOffset = workspaceOffset;
        this.sliceBytes = sliceBytes;
        this.owner = owner;
        this.offset = offset;
        this.shape = shape;
        this.strides = strides;
        this.dataType = dataType;
        this.format = format;
    }

    /**
     * A user tensor (gradOut, self, out) as a step operand.
     *
     * @param name the tensor's argument name, for {@link Executor#explain()}
     * @param tensor the user tensor; the operand views its memory with its shape, strides and offset
     * @return the operand
     */
    public static Operand of(String name, Tensor tensor) {
        return new Operand(name, tensor, 0, 0, false, tensor.storageOffset(), tensor.shape(), tensor.strides(),
                tensor.dataType(), tensor.format());
    }

    /** A contiguous intermediate owning {@code sliceBytes} of the workspace from {@code workspaceOffset}. */
    static Operand intermediate(String name, long workspaceOffset, long sliceBytes, long[] shape, DataType dataType,
                                Format format) {
        return new Operand(name, null, workspaceOffset, sliceBytes, true, 0, shape.clone(),
                Tensor.contiguousStrides(shape), dataType, format);
    }

    /**
     * Another view of the same storage (no copy); it does not own workspace.
     *
     * @param viewName the view's name, for {@link Executor#explain()}
     * @param viewShape its shape
     * @param viewStrides its strides, in elements
     * @param viewFormat its format tag
     * @return the view
     */
    public Operand view(String viewName, long[] viewShape, long[] viewStrides, Format viewFormat) {
        return new Operand(viewName, tensor, workspaceOffset, sliceBytes, false, offset, viewShape.clone(),
                viewStrides.clone(), dataType, viewFormat);
    }

    /**
     * The view with a dimension of size 1 inserted at {@code dim} (l0 Unsqueeze).
     *
     * @param viewName the view's name
     * @param dim where the new dimension goes
     * @return the view
     */
    public Operand unsqueeze(String viewName, int dim) {
        long[] s = new long[shape.length + 1];
        long[] st = new long[shape.length + 1];
        for (int d = 0, k = 0; d < s.length; d++) {
            if (d == dim) {
                s[d] = 1;
                st[d] = d < shape.length ? strides[k] * Math.max(shape[k], 1) : 1;
            } else {
                s[d] = shape[k];
                st[d] = strides[k];
                k++;
            }
        }
        return view(viewName, s, st, format);
    }

    /**
     * The view without the size-1 dimension {@code dim} (l0 Squeeze, as View4dAs3d uses it).
     *
     * @param viewName the view's name
     * @param dim the dimension to drop; its size must be 1
     * @param viewFormat the view's format tag
     * @return the view
     */
    public Operand squeeze(String viewName, int dim, Format viewFormat) {
        if (shape[dim] != 1) {
            throw new IllegalArgumentException("cannot squeeze dimension " + dim + " of " + Arrays.toString(shape));
        }
        long[] s = new long[shape.length - 1];
        long[] st = new long[shape.length - 1];
        for (int d = 0, k = 0; d < shape.length; d++) {
            if (d != dim) {
                s[k] = shape[d];
                st[k] = strides[d];
                k++;
            }
        }
        return view(viewName, s, st, viewFormat);
    }

    /**
     * The view whose dimension {@code d} is this view's dimension {@code order[d]} (a free transpose).
     *
     * @param viewName the view's name
     * @param order the permutation of the dimensions
     * @param viewFormat the view's format tag
     * @return the view
     */
    public Operand permute(String viewName, int[] order, Format viewFormat) {
        long[] s = new long[order.length];
        long[] st = new long[order.length];
        for (int d = 0; d < order.length; d++) {
            s[d] = shape[order[d]];
            st[d] = strides[order[d]];
        }
        return view(viewName, s, st, viewFormat);
    }

    /**
     * The same view under another format tag (l0 ReFormat).
     *
     * @param viewName the view's name
     * @param viewFormat the new format tag
     * @return the view
     */
    public Operand reformat(String viewName, Format viewFormat) {
        return view(viewName, shape, strides, viewFormat);
    }

    /**
     * The kernel view of this operand. For an intermediate, the segment is the operand's slice of
     * {@code workspace}, so a kernel cannot touch a neighbouring intermediate.
     *
     * @param workspace the workspace phase 2 was given
     * @return the view a kernel reads or writes
     */
    public StridedTensor resolve(MemorySegment workspace) {
        MemorySegment segment = tensor != null ? tensor.segment() : workspace.asSlice(workspaceOffset, sliceBytes);
        return new StridedTensor(segment, offset, shape.clone(), strides.clone(), dataType);
    }

    /** {@return the operand's name, e.g. gradOut or gradOut.fp32} */
    public String name() {
        return name;
    }

    /** {@return a copy of the view's shape, one entry per dimension} */
    public long[] shape() {
        return shape.clone();
    }

    /**
     * {@return the view's size along dimension {@code d}}
     *
     * @param d the dimension, 0-based
     */
    public long size(int d) {
        return shape[d];
    }

    /** {@return the number of dimensions of the view} */
    public int dim() {
        return shape.length;
    }

    /** {@return a copy of the view's strides, in elements} */
    public long[] strides() {
        return strides.clone();
    }

    /** {@return the element type} */
    public DataType dataType() {
        return dataType;
    }

    /** {@return the view's format tag} */
    public Format format() {
        return format;
    }

    /** {@return true for a slice of the workspace (or a view of one), false for a user tensor} */
    public boolean inWorkspace() {
        return tensor == null;
    }

    /** {@return the byte offset of the storage in the workspace (intermediates only)} */
    public long workspaceOffset() {
        return workspaceOffset;
    }

    /** {@return the bytes of workspace this operand owns: its aligned slice if it is an intermediate, else 0} */
    public long ownedWorkspaceBytes() {
        return owner ? sliceBytes : 0;
    }

    /** {@return whether the view is row-major contiguous (size-1 dimensions may have any stride)} */
    public boolean isContiguous() {
        long expected = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            if (shape[d] != 1 && strides[d] != expected) {
                return false;
            }
            expected *= shape[d];
        }
        return true;
    }

    /**
     * {@return the operand in one line, e.g. {@code gradOut FLOAT ND [1, 1, 3]}, with strides when not
     * contiguous and the workspace offset for intermediates}
     */
    public String describe() {
        StringBuilder sb = new StringBuilder(name).append(' ').append(dataType.name()).append(' ').append(format.name())
                .append(' ').append(Arrays.toString(shape));
        if (!isContiguous()) {
            sb.append(" strides ").append(Arrays.toString(strides));
        }
        if (inWorkspace()) {
            sb.append(" @ws+").append(workspaceOffset);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
