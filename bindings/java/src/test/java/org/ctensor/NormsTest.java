// NormsTest.java - org.ctensor.nn.Norms and the LayerNorm / GroupNorm / BatchNorm modules: values against closed
// forms, the running-statistic update, a zero gradient, and the exception classes of the errors.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.GroupNorm;
import org.ctensor.nn.LayerNorm;
import org.ctensor.nn.Norms;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class NormsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void valuesRunningStatsAndGradients() {
        try (TensorScope s = new TensorScope()) {
            // rows [1 2 3] and [2 4 6]: mean 2 / 4, biased variance 2/3 and 8/3
            Tensor x = Tensor.fromData(new double[] {1, 2, 3, 2, 4, 6}, new long[] {2, 3}, DType.FLOAT64, Device.CPU)
                               .requiresGrad(true);
            double s1 = Math.sqrt(2.0 / 3), s2 = Math.sqrt(8.0 / 3);
            Tensor y = Norms.layerNorm(x, new long[] {3}, null, null, 0.0);
            assertArrayEquals(new double[] {-1 / s1, 0, 1 / s1, -2 / s2, 0, 2 / s2}, y.toDoubleArray(), 1e-12);
            y.sum().backward();  // each row of y sums to zero whatever x is
            assertArrayEquals(new double[6], x.grad().toDoubleArray(), 1e-12);
            assertArrayEquals(y.toDoubleArray(),
                    Norms.groupNorm(x.reshape(2, 3, 1), 1, null, null, 0.0).toDoubleArray(), 1e-12);
            Tensor rm = Tensor.zeros(DType.FLOAT64, 3), rv = Tensor.ones(DType.FLOAT64, 3);
            Tensor b = Norms.batchNorm(x, rm, rv, null, null, true, 0.5, 0.0);
            assertArrayEquals(new double[] {-1, -1, -1, 1, 1, 1}, b.toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {0.75, 1.5, 2.25}, rm.toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {0.75, 1.5, 2.75}, rv.toDoubleArray(), 1e-12);
            LayerNorm ln = new LayerNorm(3);
            assertArrayEquals(new long[] {2, 3}, ln.forward(Tensor.randn(null, 2, 3)).shape());
            GroupNorm gn = new GroupNorm(1, 3);
            assertArrayEquals(new long[] {2, 3, 4}, gn.forward(Tensor.randn(null, 2, 3, 4)).shape());
            ln.close();
            gn.close();
        }
    }

    @Test
    void errorsMapToExceptions() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.zeros(DType.FLOAT64, 2, 4);
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> Norms.groupNorm(x, 3, null, null, 1e-5));
            assertTrue(e.getMessage().contains("num_groups=3"), e.getMessage());
            assertThrows(ShapeException.class, () -> Norms.layerNorm(x, new long[] {5}, null, null, 1e-5));
            assertThrows(InvalidArgumentException.class,
                    () -> Norms.batchNorm(Tensor.zeros(DType.FLOAT64, 1, 4), null, null, null, null, true, 0.1, 1e-5));
        }
    }
}
