// NativeOwner.java - releases one native handle of the packages beside org.ctensor (process groups, works, the
// data-parallel helper) exactly once: on close(), or through the Cleaner as a backstop when its owner was never closed.
package org.ctensor.internal;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/** Internal: owns one native handle for a Java object (not part of the public API). */
public final class NativeOwner implements Runnable {
    private static final Cleaner CLEANER = Cleaner.create();
    private volatile long handle;
    private final LongConsumer release;
    private final Cleaner.Cleanable cleanable;
    private final String what;

    public NativeOwner(Object owner, long handle, LongConsumer release, String what) {
        this.handle = handle;
        this.release = release;
        this.what = what;
        this.cleanable = CLEANER.register(owner, this);
    }

    /** The handle (borrowed: valid while the owner is open). */
    public long get() {
        long h = handle;
        if (h == 0) throw new IllegalStateException("ctensor: this " + what + " is closed");
        return h;
    }

    public boolean isClosed() {
        return handle == 0;
    }

    /** Releases now (idempotent). */
    public void close() {
        cleanable.clean();
    }

    @Override
    public void run() {
        long h = handle;
        handle = 0;
        if (h != 0) release.accept(h);
    }
}
