// MemoryTest.java - ownership: idempotent close, TensorScope (nesting, keep, run), and the Cleaner backstop:
// 100 000 tensors never closed are released after GC and the process's memory stays flat.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class MemoryTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void scopesCloseWhatTheyDoNotKeep() throws InterruptedException {
        long base = Leaks.settle(0);
        Tensor kept;
        Tensor inner;
        try (TensorScope outer = new TensorScope()) {
            Tensor a = Tensor.ones(3);
            try (TensorScope s = new TensorScope()) {
                Tensor b = a.mul(2.0);
                inner = b.add(1.0);
                kept = s.keep(b.mul(b));
                assertEquals(2, s.size(), "b and inner (kept moved out)");
            }
            assertTrue(inner.isClosed());
            assertFalse(kept.isClosed(), "kept tensors move to the enclosing scope");
            assertArrayEquals(new float[] {4, 4, 4}, kept.toFloatArray());
            assertFalse(a.isClosed());
        }
        assertTrue(kept.isClosed());
        Tensor r = TensorScope.run(() -> Tensor.ones(2).add(Tensor.ones(2)));
        assertFalse(r.isClosed());
        assertArrayEquals(new float[] {2, 2}, r.toFloatArray());
        r.close();
        Tensor u;
        try (TensorScope s = new TensorScope()) {
            u = Tensor.ones(1).unscoped();
        }
        assertFalse(u.isClosed());
        u.close();
        assertEquals(base, Tensor.liveHandles());
    }

    static long rssKb() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status")))
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        return -1;
    }

    /** Makes n 4 KiB tensors and never closes them; returns the most native handles seen alive meanwhile. */
    static long leak(int n) {
        long most = 0;
        for (int i = 0; i < n; ++i) {
            Tensor.zeros(1024);
            if (i % 1000 == 0) most = Math.max(most, Tensor.liveHandles());
        }
        return most;
    }

    @Test
    void cleanerBackstop() throws Exception {
        long base = Leaks.settle(0);
        // round 1 warms up the JIT, the Java heap and malloc; round 2 must not need more memory
        long most1 = leak(100_000);
        assertEquals(base, Leaks.settle(base), "the Cleaner released every unreachable tensor");
        long rss1 = rssKb();
        long most2 = leak(100_000);
        assertEquals(base, Leaks.settle(base), "the Cleaner released every unreachable tensor");
        long rss2 = rssKb();
        assertTrue(Math.max(most1, most2) < 40_000, "GC pressure releases tensors while the loop runs; at most alive at once the unclosed tensors alive at once: " + Math.max(most1, most2));
        System.out.printf("Cleaner backstop: at most %d unclosed tensors alive, RSS %d -> %d KiB%n", Math.max(most1, most2), rss1, rss2);
        assertTrue(rss2 - rss1 < 64_000, "memory is flat across rounds: grew " + (rss2 - rss1) + " KiB");
    }

    @Test
    void closeAfterCleanerRace() throws InterruptedException {
        long base = Leaks.settle(0);
        Tensor[] ts = new Tensor[1000];
        for (int i = 0; i < ts.length; ++i) ts[i] = Tensor.ones(4);
        for (Tensor t : ts) t.close();
        for (Tensor t : ts) t.close();
        assertEquals(base, Tensor.liveHandles());
    }
}
