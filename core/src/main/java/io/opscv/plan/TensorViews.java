package io.opscv.plan;

import io.opscv.kernel.StridedTensor;
import io.opscv.runtime.Tensor;
import java.util.Arrays;

/** Turns user tensors into the views kernels take, and describes them for plan introspection. */
public final class TensorViews {
    private TensorViews() {}

    /**
     * The kernel view of {@code tensor}; fails with a status if the tensor or its memory is gone.
     *
     * @param tensor a user tensor
     * @return the view a kernel reads or writes
     */
    public static StridedTensor of(Tensor tensor) {
        return new StridedTensor(tensor.segment(), tensor.storageOffset(), tensor.shape(), tensor.strides(),
                tensor.dataType());
    }

    /**
     * {@return the tensor in one line, e.g. {@code gradOut FLOAT ND [1, 1, 3]} (strides shown when not contiguous)}
     *
     * @param name the tensor's argument name
     * @param tensor the tensor
     */
    public static String describe(String name, Tensor tensor) {
        String s = name + " " + tensor.dataType().name() + " " + tensor.format().name() + " " + Arrays.toString(tensor.shape());
        return tensor.isContiguous() ? s : s + " strides " + Arrays.toString(tensor.strides());
    }
}
