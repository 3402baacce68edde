/** The upstream sample program of {@code aclnnUpsampleLinear1dBackward} (SPEC §8) on the ACL mirror. */
package io.opscv.examples;
