package io.opscv.cli;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.npy.NpyFormatException;
import io.opscv.npy.NpyHeader;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Moves tensors between .npy files and device memory for the subcommands. */
final class NpyTensors {
    private NpyTensors() {}

    /** A tensor read from a file, and the descriptor to write results in (the input's encoding). */
    record Loaded(Tensor tensor, String descr) {}

    /** A validated .npy header and the dtype its data will have: what is known before any memory is allocated. */
    record Input(Path file, NpyHeader header, DataType dataType) {
        /** A tensor with the file's shape and dtype but no memory, for validating phase 1 before loading. */
        Tensor placeholder(Format format) {
            return Tensor.placeholder(header.shape(), dataType, format);
        }
    }

    /**
     * Reads and checks the header of {@code file} (against the file's size, before anything is
     * allocated) and the dtype it declares.
     *
     * @param declared what {@code --dtype} said, or {@code null}; {@code bfloat16} reads {@code <u2} as BF16
     */
    static Input header(Path file, DtypeOption declared) throws IOException {
        NpyHeader header = Npy.readHeader(file);
        DataType type = NpyDtype.toDataType(header.descr(), declared == DtypeOption.bfloat16);
        if (declared != null && declared.dataType != type) {
            throw new CliException(file + ": --dtype " + declared + " does not match the file's dtype '" + header.descr()
                    + "' (" + type.dtName() + ")");
        }
        return new Input(file, header, type);
    }

    /** Allocates device memory for an input whose header was checked, and reads its data into it. */
    static Loaded load(Device device, Input input, Format format) throws IOException {
        NpyHeader header = input.header();
        long bytes = header.dataBytes();
        DeviceMemory memory = null;
        if (bytes > 0) {
            memory = device.malloc(bytes);
            Npy.readData(input.file(), header, memory.segment());
        }
        long[] shape = header.shape();
        return new Loaded(Tensor.create(shape, input.dataType(), null, 0, format, shape, memory), header.descr());
    }

    /** Writes a contiguous tensor to {@code file} atomically, in the encoding {@code descr}. */
    static void save(Tensor tensor, Path file, String descr) throws IOException {
        long bytes = tensor.numel() * tensor.dataType().byteSize();
        Npy.write(file, descr, tensor.shape(), bytes == 0 ? java.lang.foreign.MemorySegment.NULL
                : tensor.segment().asSlice(tensor.storageOffset() * tensor.dataType().byteSize(), bytes));
    }

    /** Rejects an output path that would overwrite the input, lies in a missing directory or cannot be written. */
    static void checkOutputPath(Path out, Path... inputs) throws IOException {
        // Before any work: a read-only directory or an unwritable file is refused now, not after the run.
        Npy.checkWritable(out);
        for (Path in : inputs) {
            boolean same = out.toAbsolutePath().normalize().equals(in.toAbsolutePath().normalize())
                    || (Files.exists(out) && Files.exists(in) && Files.isSameFile(out, in));
            if (same) {
                throw new NpyFormatException(out + ": the output path is the input file; choose another path");
            }
        }
    }

    /**
     * Parses {@code 1,2,3} into longs (any count, any sign: the operator validates them). Each is a
     * plain ASCII decimal integer ({@link Numbers#parseLong}), blanks around it allowed.
     */
    static long[] parseSizes(String text, String option) {
        String[] parts = text.split(",", -1);
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Numbers.parseLong(parts[i].replaceAll("^[ \\t]+|[ \\t]+$", ""));
            } catch (NumberFormatException e) {
                throw new CliException(option + " expects comma-separated integers, but got '" + text + "'");
            }
        }
        return values;
    }
}
