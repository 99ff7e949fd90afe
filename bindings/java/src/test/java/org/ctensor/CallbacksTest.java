// CallbacksTest.java - custom autograd functions and hooks written as Java lambdas, including exceptions thrown
// inside them (a CallbackException with the exception as cause, never a crash) and backward on other threads.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class CallbacksTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void customFunction() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad(true);
            Tensor y;
            try (NoGrad ng = new NoGrad()) {
                y = x.mul(x);
            }
            Tensor[] out = Function.apply("Square", new Tensor[] {x}, new Tensor[] {y},
                    g -> new Tensor[] {g[0].mul(x.detach()).mul(2.0)});
            assertEquals("Square", out[0].gradFnName());
            assertTrue(out[0].sharesStorage(y));
            out[0].sum().backward();
            assertArrayEquals(new float[] {2, 4, 6}, x.grad().toFloatArray());
        }
    }

    @Test
    void exceptionInBackwardBecomesCallbackError() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new float[] {1, 2}).requiresGrad(true);
            Tensor out = Function.apply("Boom", x, x.detach().copy(), g -> {
                throw new ArithmeticException("boom from Java");
            });
            CallbackException e = assertThrows(CallbackException.class, () -> out.sum().backward());
            assertTrue(e.getMessage().contains("boom from Java"), e.getMessage());
            assertTrue(e.getCause() instanceof ArithmeticException);
            Tensor bad = Function.apply("Wrong", new Tensor[] {x}, new Tensor[] {x.detach().copy()}, g -> new Tensor[0])[0];
            assertThrows(CallbackException.class, () -> bad.sum().backward());
            // the thread is still usable afterwards
            x.mul(x).sum().backward();
            assertArrayEquals(new float[] {2, 4}, x.grad().toFloatArray());
        }
    }

    @Test
    void hooks() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new float[] {1, 2}).requiresGrad(true);
            AtomicInteger calls = new AtomicInteger();
            long id = x.registerHook(g -> {
                calls.incrementAndGet();
                return g.mul(10.0);
            });
            x.mul(x).sum().backward();
            assertEquals(1, calls.get());
            assertArrayEquals(new float[] {20, 40}, x.grad().toFloatArray());
            x.removeHook(id);
            x.setGrad(null);
            x.mul(x).sum().backward();
            assertArrayEquals(new float[] {2, 4}, x.grad().toFloatArray());
            assertThrows(InvalidArgumentException.class, () -> x.removeHook(id));
            Tensor h = x.mul(3.0);
            h.registerHook(g -> null);
            h.registerHook(g -> {
                throw new IllegalStateException("hook failed");
            });
            CallbackException e = assertThrows(CallbackException.class, () -> h.sum().backward());
            assertTrue(e.getCause() instanceof IllegalStateException);
        }
    }

    @Test
    void backwardOnOtherThreads() throws Exception {
        Thread[] ts = new Thread[4];
        Throwable[] errors = new Throwable[ts.length];
        for (int i = 0; i < ts.length; ++i) {
            final int k = i;
            ts[i] = new Thread(() -> {
                try (TensorScope s = new TensorScope()) {
                    Tensor x = Tensor.fromArray(new float[] {k}).requiresGrad(true);
                    for (int rep = 0; rep < 200; ++rep) {
                        Tensor y = Function.apply("Twice", x, x.detach().mul(2.0), g -> g.mul(2.0));
                        y.registerHook(g -> g.add(1.0));
                        y.sum().backward();
                    }
                    assertEquals(800.0, x.grad().item(), 0.0); // 200 x (hook: 1 + 1) x 2
                } catch (Throwable t) {
                    errors[k] = t;
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        for (Throwable t : errors) if (t != null) throw new AssertionError(t);
    }
}
