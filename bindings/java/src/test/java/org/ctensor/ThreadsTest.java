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

    @Test
    void closedOnAnotherThread() throws Exception {
        Tensor t = Tensor.ones(16);
        Thread closer = new Thread(t::close);
        closer.start();
        closer.join();
        assertTrue(t.isClosed());
    }
}
