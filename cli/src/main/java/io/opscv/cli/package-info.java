/**
 * The {@code opscv} command (picocli): one subcommand per operator, {@code check}, {@code gradcheck},
 * {@code bench} and {@code example}; {@code .npy} files in and out, one-line errors and the exit codes of
 * the README.
 */
package io.opscv.cli;
