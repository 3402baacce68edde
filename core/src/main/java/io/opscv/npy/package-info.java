/**
 * NumPy {@code .npy} files (format 1.0 to 3.0, little-endian, C order) read into tensors and written
 * from them, with the mapping between NumPy and ACL dtypes; malformed or hostile files are refused
 * with one {@link io.opscv.npy.NpyFormatException} before anything is allocated.
 */
package io.opscv.npy;
