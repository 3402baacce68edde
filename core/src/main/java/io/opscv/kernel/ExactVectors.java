package io.opscv.kernel;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.Vector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The exact classes of the kernels' vectors, to cast a vector to before calling a method on it, so that C2 binds
 * and inlines every call on a vector while it parses a kernel, whatever the call site's profile holds.
 *
 * <p>Every operation of the Vector API is a virtual call on an abstract class ({@code FloatVector.add} calls
 * {@code lanewise}, which {@code Float512Vector} implements). C2 binds it while parsing only where it knows the
 * receiver's exact class: the result of an operation whose implementation returns its own class ({@code lanewise},
 * {@code blend}, {@code selectFrom}, {@code compare}: {@code Float512Vector} casts the result so), a constant, or a
 * cast to the class. It does not know the class of the results of loads (the JDK's load intrinsic is expanded after
 * parsing), of {@code reinterpretShape} and {@code convertShape}, of a vector read from an array, or of a value
 * merged from two paths, a sum carried around a loop among them. There C2 binds the call from the receiver's profile
 * at that call site; where the profile is missing (the site was cold, or ran only in code that does not profile,
 * when the method was compiled) it leaves a virtual call that returns a boxed vector, and every vector after it is
 * boxed, in that compilation for as long as it lives: the boxing seen in some processes and not in others
 * (KERNELS.md, "JIT state"). {@code -XX:-UseTypeProfile} takes every profile away, so that each such site boxes in
 * every process: that is how the kernels are checked ({@code TypeProfileFreeTest}).
 *
 * <p>So a kernel calls a method on such a vector as {@code FLOAT_VECTOR.cast(v).add(w)}. {@link Class#cast} with a
 * constant class is an intrinsic, parsed as the exact type and compiled to nothing once the vector's class is
 * known; a helper method would do the same only where C2 inlines it, and deep in a kernel's inlining C2 stops
 * inlining ("inlining too deep"), boxing the vector it returns. The classes are those of the kernels' species:
 * floats, ints and longs of the preferred shape, shorts of half of it, bytes of a quarter (where there is such a
 * shape: 8 lanes or more), and the floats' masks; other species name their class with {@link #type}.
 */
final class ExactVectors {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    static final Class<FloatVector> FLOAT_VECTOR = type(FLOATS);
    static final Class<IntVector> INT_VECTOR = type(VectorSpecies.of(int.class, FLOATS.vectorShape()));
    static final Class<LongVector> LONG_VECTOR = type(VectorSpecies.of(long.class, FLOATS.vectorShape()));
    static final Class<ShortVector> SHORT_VECTOR = type(VectorSpecies.of(short.class,
            VectorShape.forBitSize(FLOATS.length() * Short.SIZE)));
    static final Class<ByteVector> BYTE_VECTOR = FLOATS.length() >= 8
            ? type(VectorSpecies.of(byte.class, VectorShape.forBitSize(FLOATS.length() * Byte.SIZE))) : null;
    @SuppressWarnings("unchecked")
    static final Class<VectorMask<Float>> FLOAT_MASK = (Class<VectorMask<Float>>) FLOATS.maskAll(true).getClass();

    private ExactVectors() {}

    /** The class of the vectors of {@code species}, as the type a kernel holds them in. */
    @SuppressWarnings("unchecked")
    static <V extends Vector<?>> Class<V> type(VectorSpecies<?> species) {
        return (Class<V>) species.vectorType();
    }
}
