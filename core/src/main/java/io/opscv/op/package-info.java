/**
 * The operators, as two-phase ACLNN calls: {@code getWorkspaceSize} validates the arguments in
 * upstream's order, with its status codes and messages, and builds the plan the chosen platform would
 * run; {@code run} launches it on a stream. {@link io.opscv.op.UpsampleLinear1dBackward},
 * {@link io.opscv.op.UpsampleLinear1d}, {@link io.opscv.op.UpsampleBilinear2dBackwardV2} and
 * {@link io.opscv.op.UpsampleBilinear2d}. The facade in {@link io.opscv} is built on these calls.
 */
package io.opscv.op;
