// Leaks.java - test helper: waits (with GC hints) until every native handle is released, else fails.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class Leaks {
    private Leaks() {}

    /** Handles still alive after GC and the Cleaner had up to ~20 s (a loaded 2-core machine) to release them. */
    static long settle(long expected) throws InterruptedException {
        long live = Tensor.liveHandles();
        for (int i = 0; i < 400 && live > expected; ++i) {
            System.gc();
            Thread.sleep(50);
            live = Tensor.liveHandles();
        }
        return live;
    }

    static void assertNone() throws InterruptedException {
        assertEquals(0, settle(0), "native handles leaked at the end of the test class");
    }
}
