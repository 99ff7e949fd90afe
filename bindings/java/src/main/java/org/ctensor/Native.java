// Native.java - ownership of native handles: each owner object gets a Cleaner action that releases its handle
// exactly once (on close, or as a backstop after GC), and many unclosed handles trigger a GC hint so that native
// memory the JVM cannot see does not pile up.
package org.ctensor;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.ctensor.internal.CT;

final class Native {
    static final Cleaner CLEANER = Cleaner.create();
    /** Handles owned by Java objects and not yet released. */
    private static final AtomicLong LIVE = new AtomicLong();
    private static final long GC_EVERY = Long.getLong("ctensor.gcEvery", 10_000L);
    private static volatile long gcAt = GC_EVERY;

    private Native() {}

    /** Releases one handle once. */
    static final class Ref implements Runnable {
        private volatile long handle;
        private final LongConsumer release;

        Ref(long handle, LongConsumer release) {
            this.handle = handle;
            this.release = release;
        }

        long get() {
            return handle;
        }

        @Override
        public void run() {
            long h = handle;
            handle = 0;
            if (h != 0) {
                release.accept(h);
                LIVE.decrementAndGet();
            }
        }
    }

    /** Registers owner's handle with the Cleaner. */
    static Cleaner.Cleanable track(Object owner, Ref ref) {
        long live = LIVE.incrementAndGet();
        if (live >= gcAt) pressure(live);
        return CLEANER.register(owner, ref);
    }

    /**
     * Too many unclosed handles: asks for a GC and gives the Cleaner up to 50 ms to release the unreachable ones
     * (like JavaCPP's deallocator), then allows GC_EVERY more, or twice the survivors when the program really
     * holds that many (so holding many costs only O(log n) collections).
     */
    private static synchronized void pressure(long live) {
        if (live < gcAt) return;
        System.gc();
        long deadline = System.nanoTime() + 50_000_000L;
        try {
            while (LIVE.get() > live / 2 && System.nanoTime() < deadline) Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long after = LIVE.get();
        gcAt = Math.max(after + GC_EVERY, 2 * after);
    }

    /** Handles owned by unclosed Java objects of this binding. */
    static long javaLive() {
        return LIVE.get();
    }

    static final LongConsumer RELEASE_TENSOR = CT::tensor_release;

    // Note [Keep alive]: a Java owner that is not used after `owner.handle()` may be collected while the native
    // call runs, and the Cleaner would then release its handle mid-call. Every call that passes handles therefore
    // names the owners after the call (kept / keepAlive / Tensor.own's extra arguments), which keeps them reachable.

    static void keepAlive(Object a) {
        Reference.reachabilityFence(a);
    }

    static void keepAlive(Object a, Object b) {
        Reference.reachabilityFence(a);
        Reference.reachabilityFence(b);
    }

    static long kept(long v, Object a) {
        Reference.reachabilityFence(a);
        return v;
    }

    static int kept(int v, Object a) {
        Reference.reachabilityFence(a);
        return v;
    }

    static double kept(double v, Object a) {
        Reference.reachabilityFence(a);
        return v;
    }

    static boolean kept(boolean v, Object a) {
        Reference.reachabilityFence(a);
        return v;
    }

    static boolean kept(boolean v, Object a, Object b) {
        Reference.reachabilityFence(a);
        Reference.reachabilityFence(b);
        return v;
    }

    static <T> T kept(T v, Object a) {
        Reference.reachabilityFence(a);
        return v;
    }
}
