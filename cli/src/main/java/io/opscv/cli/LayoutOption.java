package io.opscv.cli;

import io.opscv.runtime.Format;

/** The values of {@code --format} for the 2-D subcommands: the order of the .npy files' dimensions. */
enum LayoutOption {
    nchw(Format.NCHW),
    nhwc(Format.NHWC);

    final Format format;

    LayoutOption(Format format) {
        this.format = format;
    }
}
