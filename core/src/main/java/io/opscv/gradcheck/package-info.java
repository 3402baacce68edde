/**
 * The adjoint check of the forward/backward operator pairs ({@link io.opscv.gradcheck.AdjointCheck}),
 * used by the tests and by {@code bin/opscv gradcheck}.
 */
package io.opscv.gradcheck;
