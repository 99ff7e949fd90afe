// AmpTest.java - mixed precision (issue 15): the Autocast scope (result dtypes, nesting, another thread outside
// the region, float32 gradients, a refused dtype) and GradScaler (unscaled gradients, growth, a skipped step and
// a backed-off scale after an injected inf).
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ctensor.nn.Functional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class AmpTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void autocastCastsListedOpsAndRestores() throws Exception {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromData(new float[] {0.5f, -1f, 2f, 0.25f, 1.5f, -0.75f}, new long[] {2, 3},
                    DType.FLOAT32, Device.CPU);
            Tensor w = Tensor.fromData(new float[] {1f, 0.5f, -0.5f, 2f, 0f, 1f}, new long[] {2, 3}, DType.FLOAT32,
                    Device.CPU).requiresGrad(true);
            assertFalse(Autocast.isEnabled(Device.Type.CPU));
            Tensor loss;
            try (Autocast region = new Autocast()) {
                assertTrue(Autocast.isEnabled(Device.Type.CPU));
                Tensor y = Functional.linear(x, w, null);
                assertEquals(DType.BFLOAT16, y.dtype());
                loss = Functional.mseLoss(y, x.sum(new long[] {1}, true).expand(new long[] {2, 2}));
                assertEquals(DType.FLOAT32, loss.dtype());
                try (Autocast off = new Autocast(Device.Type.CPU, DType.BFLOAT16, false)) {
                    assertEquals(DType.FLOAT32, Functional.linear(x, w, null).dtype());
                }
                AtomicBoolean other = new AtomicBoolean(true);
                Thread t = new Thread(() -> other.set(Autocast.isEnabled(Device.Type.CPU)));
                t.start();
                t.join();
                assertFalse(other.get());
            }
            assertFalse(Autocast.isEnabled(Device.Type.CPU));
            assertEquals(0, Autocast.cacheSize());
            assertEquals(DType.FLOAT32, Functional.linear(x, w, null).dtype());
            loss.backward();
            assertEquals(DType.FLOAT32, w.grad().dtype());
            assertThrows(DTypeException.class, () -> new Autocast(Device.Type.CPU, DType.FLOAT64, true));
            assertFalse(Autocast.isEnabled(Device.Type.CPU));
            assertEquals(DType.BFLOAT16, Autocast.dtype(Device.Type.CPU));
            assertEquals(1, org.ctensor.internal.CT.autocast_policy("linear", Device.Type.CPU.code));
            assertEquals(2, org.ctensor.internal.CT.autocast_policy("linalg.inv", Device.Type.CPU.code));
        }
    }

    @Test
    void gradScalerGrowsSkipsAndBacksOff() {
        try (TensorScope s = new TensorScope();
             GradScaler scaler = new GradScaler(8.0, 2.0, 0.5, 2, Device.CPU)) {
            Tensor p = Tensor.fromData(new float[] {1f, 2f}, new long[] {2}, DType.FLOAT32, Device.CPU)
                    .requiresGrad(true);
            for (int i = 0; i < 2; ++i) {
                scaler.scale(p.mul(3.0).sum()).backward();
                AtomicBoolean ran = new AtomicBoolean(false);
                assertTrue(scaler.step(List.of(p), () -> ran.set(true)));
                assertTrue(ran.get());
                assertArrayEquals(new float[] {3f, 3f}, p.grad().toFloatArray());
                scaler.update();
                p.setGrad(null);
            }
            assertEquals(16.0, scaler.getScale());
            assertEquals(0, scaler.growthTracker());
            scaler.scale(p.mul(Double.POSITIVE_INFINITY).sum()).backward();
            assertFalse(scaler.step(List.of(p), () -> fail("the step must be skipped")));
            scaler.update();
            assertEquals(8.0, scaler.getScale());
            assertThrows(IllegalStateException.class, scaler::update);
            assertThrows(IllegalArgumentException.class, () -> new GradScaler(1.0, 0.5, 0.5, 1, Device.CPU));
        }
    }
}
