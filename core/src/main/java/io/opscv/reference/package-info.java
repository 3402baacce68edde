/**
 * Float64 references of the upsample family (SPEC §1, §10), for verification only: plain scalar
 * loops, independent of the kernels ({@code io.opscv.kernel}) and the plans ({@code io.opscv.plan}),
 * used by the verification harness ({@code opscv check}) as the golden when a case file gives no
 * expected values. They are neither fast nor meant for production use.
 */
package io.opscv.reference;
