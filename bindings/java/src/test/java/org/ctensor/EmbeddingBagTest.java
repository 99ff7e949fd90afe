// EmbeddingBagTest.java - org.ctensor.nn.Embeddings / EmbeddingBag: bag values against hand sums, means and maxes,
// the padding row's zero gradient, renormalisation, the module, and the exception classes of the errors.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.EmbeddingBag;
import org.ctensor.nn.Embeddings;
import org.ctensor.nn.Embeddings.BagMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EmbeddingBagTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor weight() {  // rows [-4 -3 -2] [-1 0 1] [2 3 4] [5 6 7]
        double[] v = new double[12];
        for (int i = 0; i < 12; i++) v[i] = i - 4;
        return Tensor.fromData(v, new long[] {4, 3}, DType.FLOAT64, Device.CPU);
    }

    @Test
    void bagsAndGradients() {
        try (TensorScope s = new TensorScope()) {
            Tensor w = weight().requiresGrad(true);
            Tensor idx = Tensor.fromArray(new long[] {0, 2, 3, 1}, 4);
            Tensor off = Tensor.fromArray(new long[] {0, 2}, 2);
            assertArrayEquals(new double[] {-2, 0, 2, 4, 6, 8},
                    Embeddings.embeddingBag(w, idx, off, BagMode.SUM, null, false, null, false).toDoubleArray(), 0);
            assertArrayEquals(new double[] {-1, 0, 1, 2, 3, 4},
                    Embeddings.embeddingBag(w, idx, off, BagMode.MEAN, null, false, null, false).toDoubleArray(), 0);
            assertArrayEquals(new double[] {2, 3, 4, 5, 6, 7},
                    Embeddings.embeddingBag(w, idx, off, BagMode.MAX, null, false, null, false).toDoubleArray(), 0);
            Tensor out = Embeddings.embeddingBag(w, idx, off, BagMode.SUM, null, false, -1L, false);
            assertArrayEquals(new double[] {-2, 0, 2, -1, 0, 1}, out.toDoubleArray(), 0);
            out.sum().backward();
            assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}, w.grad().toDoubleArray(), 0);
            Tensor w2 = weight().requiresGrad(true);
            Embeddings.embedding(w2, Tensor.fromArray(new long[] {1, 1, 0}, 3), 0L, true).sum().backward();
            assertArrayEquals(new double[] {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, w2.grad().toDoubleArray(), 0);
            Tensor v = Tensor.fromData(new double[] {3, 4, 0}, new long[] {1, 3}, DType.FLOAT64, Device.CPU);
            Embeddings.embeddingRenorm_(v, Tensor.fromArray(new long[] {0}, 1), 1.0, 2.0);
            assertEquals(3.0 / (5.0 + 1e-7), v.toDoubleArray()[0], 1e-12);
            EmbeddingBag bag = new EmbeddingBag(5, 2, BagMode.MEAN, null);
            assertArrayEquals(new long[] {2, 2}, bag.forward(Tensor.fromArray(new long[] {0, 1, 2, 3}, 2, 2)).shape());
            assertArrayEquals(new long[] {1, 2}, bag.forward(idx, Tensor.fromArray(new long[] {0}, 1)).shape());
        }
    }

    @Test
    void errorsMapToExceptions() {
        try (TensorScope s = new TensorScope()) {
            Tensor w = weight();
            Tensor off = Tensor.fromArray(new long[] {0}, 1);
            IndexException e = assertThrows(IndexException.class,
                    () -> Embeddings.embeddingBag(w, Tensor.fromArray(new long[] {9}, 1), off, BagMode.SUM, null, false, null, false));
            assertTrue(e.getMessage().contains("embedding_bag"), e.getMessage());
            assertThrows(InvalidArgumentException.class,
                    () -> Embeddings.embeddingBag(w, Tensor.fromArray(new long[] {1}, 1), null, BagMode.SUM, null, false, null, false));
            assertThrows(InvalidArgumentException.class,
                    () -> Embeddings.embeddingRenorm_(w, Tensor.fromArray(new long[] {1}, 1), -1.0, 2.0));
        }
    }
}
