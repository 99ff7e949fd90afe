// ThreadsTest.java - many Java threads train independent models at once and get exactly the single-threaded
// numbers; tensors made on one thread are released from others (the Cleaner thread, other closers).
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ctensor.nn.Activation;
import org.ctensor.nn.Functional;
import org.ctensor.nn.Linear;
import org.ctensor.nn.Sequential;
import org.ctensor.optim.Adam;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ThreadsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    /** Trains a small MLP on a fixed regression problem; returns the final loss. */
    static double train(long seed) {
        try (Generator gen = new Generator(seed);
             Sequential model = new Sequential(new Linear(8, 16, gen), Activation.tanh(), new Linear(16, 1, gen));
             Adam opt = new Adam(model.parameters(), 1e-2);
             TensorScope data = new TensorScope()) {
            Tensor x = Tensor.randn(gen, 64, 8);
            Tensor y = x.sum(new long[] {1}, true).sin();
            double last = 0;
            for (int step = 0; step < 60; ++step) {
                try (TensorScope s = new TensorScope()) {
                    Tensor loss = Functional.mseLoss(model.forward(x), y);
                    opt.zeroGrad();
                    loss.backward();
                    opt.step();
                    last = loss.item();
                }
            }
            return last;
        }
    }

    @Test
    void independentModelsInParallel() throws Exception {
        int n = 8;
        double[] expected = new double[n];
        for (int i = 0; i < n; ++i) expected[i] = train(100 + i);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            for (int round = 0; round < 2; ++round) {
                List<Future<Double>> fs = new ArrayList<>();
                for (int i = 0; i < n; ++i) {
                    final long seed = 100 + i;
                    fs.add(pool.submit(() -> train(seed)));
                }
                for (int i = 0; i < n; ++i) assertEquals(expected[i], fs.get(i).get(), 0.0, "model " + i);
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(expected[0] < 0.5, "training reduced the loss: " + expected[0]);
    }

    /** Worker threads build autograd graphs (with views and a leaf .grad) and drop every tensor unclosed: the
     *  Cleaner thread finalizes all of them, graphs included, and nothing is left. */
    @Test
    void graphsMadeOnWorkersAreFinalizedByTheCleaner() throws Exception {
        long base = Leaks.settle(0);
        Thread[] workers = new Thread[4];
        double[] grads = new double[workers.length];
        for (int w = 0; w < workers.length; ++w) {
            final int id = w;
            workers[w] = new Thread(() -> {
                for (int i = 0; i < 2000; ++i) {
                    Tensor x = Tensor.ones(8).requiresGrad(true);
                    Tensor y = x.mul(x).sin().sum(new long[] {0}, false);
                    y.backward();
                    grads[id] = x.grad().toDoubleArray()[0];  // x, y, the grad and the graph are never closed
                }
            });
            workers[w].start();
        }
        for (Thread t : workers) t.join();
        for (double g : grads) assertEquals(2 * Math.cos(1.0), g, 1e-6);
        assertEquals(base, Leaks.settle(base), "the Cleaner thread released every tensor made on the workers");
    }

    @Test
    void closedOnAnotherThread() throws Exception {
        Tensor t = Tensor.ones(16);
        Thread closer = new Thread(t::close);
        closer.start();
        closer.join();
        assertTrue(t.isClosed());
    }
}
