// TensorBasicsTest.java - creation, metadata, data round trips and repr against hand-written expectations.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class TensorBasicsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void createAndReadBack() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = Tensor.fromArray(new float[][] {{1, 2, 3}, {4, 5, 6}});
            assertArrayEquals(new long[] {2, 3}, a.shape());
            assertEquals(DType.FLOAT32, a.dtype());
            assertEquals(Device.CPU, a.device());
            assertEquals(6, a.numel());
            assertArrayEquals(new long[] {3, 1}, a.strides());
            assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, a.toFloatArray());
            assertEquals("tensor([[1., 2., 3.],\n        [4., 5., 6.]])", a.toString());
            Tensor b = a.add(a).mul(0.5).sub(1.0);
            assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5}, b.toFloatArray());
            assertEquals(21.0, a.sum().item(), 0.0);
        }
    }
}
