// Generator.java - a seeded random number generator (same seed, same numbers on every platform).
package org.ctensor;

import java.lang.ref.Cleaner;
import org.ctensor.internal.CT;

public final class Generator implements AutoCloseable {
    private final Native.Ref ref;
    private final Cleaner.Cleanable cleanable;

    public Generator(long seed) {
        ref = new Native.Ref(CT.generator_new(seed), CT::generator_release);
        cleanable = Native.track(this, ref);
    }

    /** Resets the state from seed. */
    public Generator seed(long seed) {
        CT.generator_seed(handle(), seed);
        return this;
    }

    /** Reseeds the default generator (used where no generator is given). */
    public static void manualSeed(long seed) {
        CT.manual_seed(seed);
    }

    /** The native handle (borrowed: valid while this generator is open). */
    public long handle() {
        long h = ref.get();
        if (h == 0) throw new IllegalStateException("ctensor: this Generator is closed");
        return h;
    }

    static long handleOf(Generator g) {
        return g == null ? 0 : g.handle();
    }

    @Override
    public void close() {
        cleanable.clean();
    }
}
