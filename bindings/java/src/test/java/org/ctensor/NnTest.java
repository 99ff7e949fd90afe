// NnTest.java - nn modules and optimizers against hand-computed values: Linear, Sequential, Conv2d, pooling,
// BatchNorm (train and eval), Dropout, Embedding, state dicts, SGD/Adam/AdamW updates and their options.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.ctensor.nn.Activation;
import org.ctensor.nn.BatchNorm;
import org.ctensor.nn.Conv2d;
import org.ctensor.nn.Dropout;
import org.ctensor.nn.Embedding;
import org.ctensor.nn.Linear;
import org.ctensor.nn.Loss;
import org.ctensor.nn.Pool2d;
import org.ctensor.nn.Sequential;
import org.ctensor.optim.Adam;
import org.ctensor.optim.AdamW;
import org.ctensor.optim.SGD;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class NnTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void linearAndSequential() {
        try (Generator g = new Generator(0); TensorScope s = new TensorScope();
             Sequential m = new Sequential(new Linear(3, 2, g), Activation.relu(), new Linear(2, 1, g))) {
            Linear l0 = (Linear) m.get(0);
            float bound = (float) (1 / Math.sqrt(3));
            for (float w : l0.weight.toFloatArray()) assertTrue(Math.abs(w) <= bound);
            Tensor x = Tensor.fromArray(new float[][] {{1, 2, 3}});
            Tensor manual = x.matmul(l0.weight.t()).add(l0.bias).relu().matmul(((Linear) m.get(2)).weight.t()).add(((Linear) m.get(2)).bias);
            assertArrayEquals(manual.toFloatArray(), m.forward(x).toFloatArray(), 1e-6f);
            assertEquals(4, m.parameters().size());
            Map<String, Tensor> sd = m.stateDict();
            assertEquals(List.of("0.weight", "0.bias", "2.weight", "2.bias"), List.copyOf(sd.keySet()));
            try (Generator g2 = new Generator(1); Sequential copy = new Sequential(new Linear(3, 2, g2), Activation.relu(), new Linear(2, 1, g2))) {
                copy.loadStateDict(sd);
                assertArrayEquals(m.forward(x).toFloatArray(), copy.forward(x).toFloatArray());
                assertThrows(IllegalArgumentException.class, () -> copy.loadStateDict(Map.of()));
            }
        }
    }

    @Test
    void convPoolBatchNormDropoutEmbedding() {
        try (Generator g = new Generator(3); TensorScope s = new TensorScope()) {
            Conv2d conv = new Conv2d(1, 2, 3, 1, 1, g);
            Tensor img = Tensor.randn(g, 2, 1, 6, 6);
            Tensor y = conv.forward(img);
            assertArrayEquals(new long[] {2, 2, 6, 6}, y.shape());
            assertArrayEquals(new long[] {2, 2, 3, 3}, Pool2d.max(2, 2, 0).forward(y).shape());
            assertArrayEquals(new long[] {2, 2, 3, 3}, Pool2d.avg(2, 2, 0).forward(y).shape());
            assertArrayEquals(new long[] {2, 2, 1, 1}, Pool2d.adaptiveAvg(1, 1).forward(y).shape());
            BatchNorm bn = new BatchNorm(2);
            Tensor z = bn.forward(y);
            Tensor mean = z.mean(new long[] {0, 2, 3}, false), var = z.var(new long[] {0, 2, 3}, 0.0, false);
            assertArrayEquals(new float[] {0, 0}, mean.toFloatArray(), 1e-5f);
            assertArrayEquals(new float[] {1, 1}, var.toFloatArray(), 1e-3f);
            float[] rm = bn.runningMean.toFloatArray(), bm = y.mean(new long[] {0, 2, 3}, false).toFloatArray();
            for (int c = 0; c < 2; ++c) assertEquals(0.1f * bm[c], rm[c], 1e-6f);
            bn.eval();
            Tensor ze = bn.forward(y);
            float[] rv = bn.runningVar.toFloatArray();
            float e0 = (y.get(0, 0, 0, 0).toFloatArray()[0] - rm[0]) / (float) Math.sqrt(rv[0] + 1e-5);
            assertEquals(e0, ze.get(0, 0, 0, 0).item(), 1e-5);
            conv.close();
            bn.close();
            Dropout d = new Dropout(0.5, g);
            float[] dropped = d.forward(Tensor.ones(1000)).toFloatArray();
            int zeros = 0;
            for (float v : dropped) {
                assertTrue(v == 0 || v == 2);
                if (v == 0) ++zeros;
            }
            assertTrue(zeros > 400 && zeros < 600, zeros + " zeros");
            d.eval();
            assertArrayEquals(new float[] {1, 1}, d.forward(Tensor.ones(2)).toFloatArray());
            try (Embedding e = new Embedding(5, 3, g)) {
                assertArrayEquals(e.weight.select(0, 4).toFloatArray(), e.forward(Tensor.fromArray(new long[] {4})).toFloatArray());
            }
        }
    }

    @Test
    void optimizers() {
        try (TensorScope s = new TensorScope()) {
            Tensor w = Tensor.fromArray(new float[] {1, 2}).requiresGrad(true);
            try (SGD sgd = new SGD(List.of(w), 0.1, 0.9, 0, 0, false)) {
                w.mul(w).sum().backward(); // grad 2w = {2, 4}
                sgd.step();
                assertArrayEquals(new float[] {0.8f, 1.6f}, w.toFloatArray(), 1e-6f);
                assertEquals(0.9, sgd.get("momentum"), 0.0);
                sgd.setLr(0.5);
                assertEquals(0.5, sgd.lr(), 0.0);
                assertEquals(List.of("momentum_buffer"), sgd.stateNames());
                assertArrayEquals(new float[] {2, 4}, sgd.getState(0, "momentum_buffer").toFloatArray(), 1e-6f);
                sgd.zeroGrad();
                assertNull(w.grad());
                assertEquals(1, sgd.numParams());
                assertThrows(InvalidArgumentException.class, () -> sgd.set("nonsense", 1));
                assertThrows(InvalidArgumentException.class, () -> new SGD(List.of(w), -1));
            }
            Tensor a = Tensor.fromArray(new float[] {1, -1}).requiresGrad(true);
            try (Adam adam = new Adam(List.of(a), 0.1)) {
                Loss.mse().apply(a, Tensor.zeros(2)).backward();
                adam.step(); // the first Adam step moves each weight by lr * sign(grad)
                assertArrayEquals(new float[] {0.9f, -0.9f}, a.toFloatArray(), 1e-5f);
                assertEquals(1, adam.getStep(0));
                assertEquals(List.of("exp_avg", "exp_avg_sq"), adam.stateNames());
            }
            Tensor b = Tensor.fromArray(new float[] {1}).requiresGrad(true);
            try (AdamW adamw = new AdamW(List.of(b), 0.1, 0.9, 0.999, 1e-8, 0.5)) {
                b.mul(0.0).sum().backward(); // zero gradient: only the decoupled decay acts
                adamw.step();
                assertEquals(1 - 0.1 * 0.5, b.item(), 1e-6);
            }
        }
    }
}
