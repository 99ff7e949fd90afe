// ToolboxStatsTest.java - org.ctensor.ToolboxStats (issue 14): repeatInterleave, meshgrid, median, quantile and
// cdist against values from torch 1.13, and the exception classes of bad arguments.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ToolboxStatsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor t(double[] v, long... shape) {
        return Tensor.fromData(v, shape, DType.FLOAT64, Device.CPU);
    }

    @Test
    void values() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, 2, 3, 4}, 2, 2);
            assertArrayEquals(new double[] {1, 1, 2, 2, 3, 3, 4, 4}, ToolboxStats.repeatInterleave(x, 2, null).toDoubleArray(), 0);
            Tensor reps = Tensor.fromData(new long[] {1, 2}, new long[] {2}, DType.INT64, Device.CPU);
            assertArrayEquals(new double[] {1, 2, 3, 4, 3, 4},
                    ToolboxStats.repeatInterleave(x, reps, 0L, 3L).toDoubleArray(), 0);
            Tensor[] g = ToolboxStats.meshgrid(true, t(new double[] {1, 2}, 2), t(new double[] {3, 4, 5}, 3));
            assertEquals(2, g.length);
            assertArrayEquals(new double[] {3, 3, 4, 4, 5, 5}, g[1].toDoubleArray(), 0);
            Tensor m = t(new double[] {1, Double.NaN, 2, 3, 5, 4}, 2, 3);
            assertTrue(Double.isNaN(ToolboxStats.median(m).toDoubleArray()[0]));
            assertArrayEquals(new double[] {3}, ToolboxStats.nanmedian(m).toDoubleArray(), 0);
            Tensor.Pair p = ToolboxStats.nanmedian(m, 1, false);
            assertArrayEquals(new double[] {1, 4}, p.values.toDoubleArray(), 0);
            assertArrayEquals(new long[] {0, 2}, p.indices.toLongArray());
            Tensor y = t(new double[] {3, 1, 4, 1, 5, 9, 2, 6}, 2, 4);
            assertArrayEquals(new double[] {2.8}, ToolboxStats.quantile(y, 0.4, null, false, ToolboxStats.Interpolation.LINEAR).toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {1, 5, 3, 6, 4, 9}, ToolboxStats.quantile(y, t(new double[] {0.25, 0.5, 0.9}, 3), 1L,
                    false, ToolboxStats.Interpolation.NEAREST).toDoubleArray(), 0);
            assertArrayEquals(new double[] {1, 4}, ToolboxStats.nanquantile(m, 0.5, 1L, false, ToolboxStats.Interpolation.LOWER).toDoubleArray(), 0);
            // torch.nanquantile(m, tensor([0, 0.75]), dim=1) = [[1, 3], [1.75, 4.5]]
            assertArrayEquals(new double[] {1, 3, 1.75, 4.5}, ToolboxStats.nanquantile(m, t(new double[] {0, 0.75}, 2), 1L,
                    false, ToolboxStats.Interpolation.LINEAR).toDoubleArray(), 1e-12);
            Tensor a = t(new double[] {0, 0, 1, 2, 3, -1}, 3, 2), b = t(new double[] {1, 1, 0, 0}, 2, 2);
            assertArrayEquals(new double[] {2, 0, 1, 3, 4, 4}, ToolboxStats.cdist(a, b, 1, 0).toDoubleArray(), 0);
        }
    }

    @Test
    void errors() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, 2}, 2);
            assertThrows(InvalidArgumentException.class, () -> ToolboxStats.repeatInterleave(x, -1, null));
            assertThrows(InvalidArgumentException.class,
                    () -> ToolboxStats.quantile(x, 1.5, null, false, ToolboxStats.Interpolation.LINEAR));
            assertThrows(ShapeException.class, () -> ToolboxStats.cdist(x, x, 2, 0));
            assertThrows(IndexException.class, () -> ToolboxStats.median(t(new double[] {}, 2, 0), 1, false));
        }
    }
}
