package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.ElementCodec;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The live arguments of one fuzzed call: builds tensors from {@link TensorRecipe}s and int arrays
 * on a device, checks each tensor's creation against the recipe's exact expectation, fills memory
 * with a sentinel and the inputs with values, remembers every byte so that the call can be checked
 * not to have written where it must not, and frees everything at the end.
 */
final class FuzzArguments implements AutoCloseable {
    /** Bytes of sentinel after every storage: a write past the view's storage shows there. */
    static final int GUARD_TAIL = 24;
    /** Every byte of fresh memory: 0xC7C7 is a finite FP16/BF16 value and 0xC7C7C7C7 a finite float. */
    static final byte SENTINEL = (byte) 0xC7;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    /** Thrown when a tensor's creation was refused exactly as its recipe says it must be: the call ends there. */
    static final class CreationRefused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CreationRefused(String message) {
            super(message, null, false, false);
        }
    }

    private final Device device;
    private final SplittableRandom random;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<Tensor, TensorRecipe> recipes = new IdentityHashMap<>();
    private final Map<DeviceMemory, byte[]> snapshots = new IdentityHashMap<>();

    FuzzArguments(Device device, long seed) {
        this.device = device;
        this.random = new SplittableRandom(seed);
    }

    /** Builds {@code recipe} ({@code null} gives {@code null}) in fresh memory. */
    Tensor tensor(TensorRecipe recipe, String name) {
        return tensor(recipe, name, null);
    }

    /**
     * Builds {@code recipe} in {@code shared} memory when given (to alias another tensor), else in
     * fresh memory filled with the sentinel.
     *
     * @throws CreationRefused when creation failed as the recipe says it must
     */
    Tensor tensor(TensorRecipe recipe, String name, DeviceMemory shared) {
        if (recipe == null) {
            return null;
        }
        TensorRecipe.Defect defect = recipe.defect();
        DeviceMemory memory = null;
        long memoryBytes = 0;
        if (shared != null && defect != TensorRecipe.Defect.NULL_MEMORY && defect != TensorRecipe.Defect.PLACEHOLDER) {
            memory = shared;
            memoryBytes = shared.size();
        } else if (defect != TensorRecipe.Defect.NULL_MEMORY && defect != TensorRecipe.Defect.PLACEHOLDER) {
            memoryBytes = recipe.memoryBytes(GUARD_TAIL);
            memory = allocate(memoryBytes);
        }
        if (defect == TensorRecipe.Defect.FREED_BEFORE_CREATE && memory != shared) {
            memory.close();
        }
        boolean freedBefore = memory != null && memory.isFreed();
        long bytes = memoryBytes;
        AclnnStatus expected = recipe.expectedCreation(bytes, freedBefore);
        Tensor tensor;
        try {
            tensor = defect == TensorRecipe.Defect.PLACEHOLDER
                    ? Tensor.placeholder(recipe.shape(), recipe.dtype(), recipe.format())
                    : Tensor.create(recipe.shape(), recipe.dtype(), recipe.strides(), recipe.effectiveOffset(),
                            recipe.format(), recipe.storageShape(), memory);
        } catch (AclnnException e) {
            assertEquals(expected, e.status(), () -> "creating " + name + " " + recipe + " with " + (freedBefore ? "freed " : "")
                    + "memory of " + bytes + " bytes: " + e + "; expected " + (expected == null ? "success" : expected));
            assertEquals(e.getMessage(), AclRuntime.getRecentErrMsg(), "the recent-error text is the message");
            throw new CreationRefused(name + " refused with " + e.status());
        }
        assertNull(expected, () -> "creating " + name + " " + recipe + " in " + (freedBefore ? "freed " : "") + "memory of "
                + bytes + " bytes was accepted but must give " + expected);
        resources.add(tensor);
        recipes.put(tensor, recipe);
        if (tensor.memory() != null && recipe.numel().signum() > 0) {
            // Independent of the implementation: every element the accepted view reaches lies inside its memory.
            BigInteger end = recipe.reach().add(BigInteger.ONE).multiply(BigInteger.valueOf(recipe.dtype().byteSize()));
            long size = tensor.memory().size();
            assertTrue(end.compareTo(BigInteger.valueOf(size)) <= 0, () -> name + " " + recipe + " reaches byte " + end
                    + " of " + size);
        }
        if (defect == TensorRecipe.Defect.FREED_AFTER_CREATE && memory != null) {
            memory.close();
        } else if (defect == TensorRecipe.Defect.DESTROYED) {
            tensor.close();
        }
        return tensor;
    }

    /** The recipe {@code tensor} was built from. */
    TensorRecipe recipe(Tensor tensor) {
        return recipes.get(tensor);
    }

    /** {@code aclCreateIntArray(values)}, destroyed at once when {@code destroyed}; {@code null} stays null. */
    IntArray intArray(long[] values, boolean destroyed) {
        if (values == null) {
            return null;
        }
        IntArray array = IntArray.of(values);
        resources.add(array);
        if (destroyed) {
            array.close();
        }
        return array;
    }

    private DeviceMemory allocate(long bytes) {
        DeviceMemory memory;
        if (bytes == 0) {
            // aclrtMalloc refuses 0 bytes; zero-size memory can still be had by wrapping an empty segment.
            memory = device.wrap(MemorySegment.ofArray(new byte[0]));
        } else {
            memory = device.malloc(bytes);
            memory.segment().fill(SENTINEL);
        }
        resources.add(memory);
        return memory;
    }

    /**
     * Writes values into every element of {@code tensor}'s view (row-major order, later elements
     * winning where a view overlaps itself) and returns what the view then reads, widened: random
     * values in [-8, 8) with a few NaN, ±Inf, ±0 and subnormals, rounded to the dtype.
     */
    double[] fillInput(Tensor tensor) {
        MemorySegment seg = tensor.segment();
        DataType type = tensor.dataType();
        long[] index = new long[tensor.dim()];
        int numel = Math.toIntExact(tensor.numel());
        for (int k = 0; k < numel; k++) {
            put(seg, type, at(tensor, index), nextValue());
            increment(index, tensor.shape());
        }
        return read(tensor);
    }

    private float nextValue() {
        int pick = random.nextInt(100);
        return switch (pick) {
            case 0 -> Float.NaN;
            case 1 -> Float.POSITIVE_INFINITY;
            case 2 -> Float.NEGATIVE_INFINITY;
            case 3 -> -0f;
            case 4 -> 0f;
            case 5 -> Float.MIN_VALUE * (1 + random.nextInt(1000));
            default -> (float) (random.nextDouble() * 16 - 8);
        };
    }

    /** Remembers every byte of the memory of the given tensors (those with memory), to compare after the call. */
    void snapshot(Tensor... tensors) {
        for (Tensor t : tensors) {
            if (t != null && t.memory() != null && t.isUsable()) {
                byte[] bytes = new byte[Math.toIntExact(t.memory().size())];
                MemorySegment.copy(t.memory().segment(), ValueLayout.JAVA_BYTE, 0, bytes, 0, bytes.length);
                snapshots.put(t.memory(), bytes);
            }
        }
    }

    /**
     * Asserts that no byte of the snapshot memories changed, except the bytes of {@code written}'s
     * view elements (when {@code written} is not {@code null}).
     */
    void assertUnchangedExcept(Tensor written, String what) {
        boolean[] mayChange = written == null ? null : new boolean[Math.toIntExact(written.memory().size())];
        if (written != null) {
            long[] index = new long[written.dim()];
            int size = written.dataType().byteSize();
            for (long k = 0; k < written.numel(); k++) {
                long first = at(written, index) * size;
                for (int b = 0; b < size; b++) {
                    mayChange[Math.toIntExact(first + b)] = true;
                }
                increment(index, written.shape());
            }
        }
        for (Map.Entry<DeviceMemory, byte[]> e : snapshots.entrySet()) {
            byte[] before = e.getValue();
            MemorySegment now = e.getKey().segment();
            boolean sameAsWritten = written != null && e.getKey() == written.memory();
            for (int b = 0; b < before.length; b++) {
                if ((!sameAsWritten || !mayChange[b]) && now.get(ValueLayout.JAVA_BYTE, b) != before[b]) {
                    int at = b;
                    throw new AssertionError(what + ": byte " + at + " of " + e.getKey() + " changed though no element"
                            + " written there (" + (sameAsWritten ? "out's memory" : "an input's memory") + ")");
                }
            }
        }
    }

    /** The view's elements, row-major, widened to double (from the memory, whatever it holds). */
    static double[] read(Tensor tensor) {
        MemorySegment seg = tensor.segment();
        int numel = Math.toIntExact(tensor.numel());
        double[] values = new double[numel];
        long[] index = new long[tensor.dim()];
        for (int k = 0; k < numel; k++) {
            values[k] = get(seg, tensor.dataType(), at(tensor, index));
            increment(index, tensor.shape());
        }
        return values;
    }

    /** Storage element index of the view element at {@code index}. */
    static long at(Tensor t, long[] index) {
        long at = t.storageOffset();
        for (int d = 0; d < index.length; d++) {
            at += index[d] * t.stride(d);
        }
        return at;
    }

    static void increment(long[] index, long[] shape) {
        for (int d = shape.length - 1; d >= 0; d--) {
            if (++index[d] < shape[d]) {
                return;
            }
            index[d] = 0;
        }
    }

    private static void put(MemorySegment seg, DataType type, long element, float value) {
        switch (type) {
            case FLOAT -> seg.set(F32, element * 4, value);
            case FLOAT16 -> seg.set(U16, element * 2, Float.floatToFloat16(value));
            case BF16 -> seg.set(U16, element * 2, ElementCodec.floatToBf16(value));
            default -> {
                // Other dtypes never reach a kernel (phase 1 refuses them): the sentinel stays.
            }
        }
    }

    private static double get(MemorySegment seg, DataType type, long element) {
        return switch (type) {
            case FLOAT -> seg.get(F32, element * 4);
            case FLOAT16 -> Float.float16ToFloat(seg.get(U16, element * 2));
            case BF16 -> ElementCodec.bf16ToFloat(seg.get(U16, element * 2));
            default -> throw new IllegalArgumentException("no float value for " + type);
        };
    }

    /** Frees everything this call made, last made first. */
    @Override
    public void close() {
        for (int k = resources.size() - 1; k >= 0; k--) {
            try {
                resources.get(k).close();
            } catch (Exception e) {
                throw new AssertionError("closing " + resources.get(k) + " failed: " + e, e);
            }
        }
    }
}
