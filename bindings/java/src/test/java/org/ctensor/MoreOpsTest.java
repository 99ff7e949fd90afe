// MoreOpsTest.java - org.ctensor.MoreOps (issue 14): logcumsumexp, aminmax, varMean / stdMean, kron, tensordot and
// inner against closed forms, and the exception classes of bad arguments.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class MoreOpsTest {
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
            double l1 = Math.log(Math.exp(1) + 1);
            assertArrayEquals(new double[] {0, l1, l1}, MoreOps.logcumsumexp(t(new double[] {0, 1, -1000}, 3), 0).toDoubleArray(), 1e-12);
            Tensor m = t(new double[] {3, -1, 7, 2, 9, -5}, 2, 3);
            Tensor[] mm = MoreOps.aminmax(m, null, false);
            assertArrayEquals(new double[] {-5}, mm[0].toDoubleArray(), 0);
            assertArrayEquals(new double[] {9}, mm[1].toDoubleArray(), 0);
            mm = MoreOps.aminmax(m, 1L, true);
            assertArrayEquals(new double[] {-1, -5}, mm[0].toDoubleArray(), 0);
            assertArrayEquals(new long[] {2, 1}, mm[1].shape());
            Tensor x = t(new double[] {1, 2, 4, 8, 16, 32}, 2, 3);
            Tensor[] vm = MoreOps.varMean(x, new long[] {1}, 1, false);
            assertArrayEquals(new double[] {7.0 / 3, 448.0 / 3}, vm[0].toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {7.0 / 3, 56.0 / 3}, vm[1].toDoubleArray(), 1e-12);
            Tensor[] sm = MoreOps.stdMean(x, new long[] {1}, 1, false);
            assertArrayEquals(new double[] {Math.sqrt(7.0 / 3), Math.sqrt(448.0 / 3)}, sm[0].toDoubleArray(), 1e-12);
            Tensor a = t(new double[] {1, 2, 3, 4}, 2, 2), b = t(new double[] {0, 5, 6, 7}, 2, 2);
            Tensor k = MoreOps.kron(a, b);
            assertArrayEquals(new long[] {4, 4}, k.shape());
            assertEquals(10, k.toDoubleArray()[3], 0);
            assertArrayEquals(new double[] {12, 19, 24, 43}, MoreOps.tensordot(a, b, new long[] {1}, new long[] {0}).toDoubleArray(), 0);
            assertArrayEquals(new double[] {56}, MoreOps.tensordot(a, b, 2).toDoubleArray(), 0);
            assertArrayEquals(new double[] {10, 20, 20, 46}, MoreOps.inner(a, b).toDoubleArray(), 0);
        }
    }

    @Test
    void errors() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = t(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
            assertThrows(IndexException.class, () -> MoreOps.logcumsumexp(a, 2));
            assertThrows(ShapeException.class, () -> MoreOps.tensordot(a, a, new long[] {1}, new long[] {0}));
            assertThrows(ShapeException.class, () -> MoreOps.inner(a, t(new double[] {1, 2}, 2)));
            assertThrows(IndexException.class, () -> MoreOps.aminmax(t(new double[] {}, 0), null, false));
            assertThrows(DTypeException.class, () -> MoreOps.varMean(Tensor.fromData(new long[] {1, 2}, new long[] {2}, DType.INT64, Device.CPU), new long[0], 1, false));
        }
    }
}
