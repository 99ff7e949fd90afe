// ToolboxTest.java - org.ctensor.Toolbox (issue 14): in-place scatters, indexAdd / indexCopy / indexPut and their
// in-place forms against hand-computed values, the index_put gradient against its closed form, and the
// exception classes of out-of-range indices, bad shapes and leaf writes.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ToolboxTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor t(double[] v, long... shape) {
        return Tensor.fromData(v, shape, DType.FLOAT64, Device.CPU);
    }

    static Tensor idx(long... v) {
        return Tensor.fromData(v, new long[] {v.length}, DType.INT64, Device.CPU);
    }

    @Test
    void values() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, 2, 3, 4, 5, 6}, 3, 2);
            Tensor src = t(new double[] {1, 1, 2, 2, 3, 3}, 3, 2);
            assertArrayEquals(new double[] {21, 22, 3, 4, 45, 46},
                    Toolbox.indexAdd(x, 0, idx(2, 0, 2), src, 10).toDoubleArray(), 0);
            assertArrayEquals(new double[] {2, 1, 4, 3, 6, 5},
                    Toolbox.indexCopy(x, 1, idx(1, 0), x).toDoubleArray(), 0);
            assertArrayEquals(new double[] {1, -5, 3, 4, 5, -5},
                    Toolbox.indexPut(x, new Tensor[] {idx(0, -1), idx(1)}, t(new double[] {-5}, 1), false).toDoubleArray(), 0);
            Tensor y = Toolbox.indexPutInPlace(x.copy(), new Tensor[] {idx(1, 1)}, t(new double[] {1, 2}, 2), true);
            assertArrayEquals(new double[] {1, 2, 5, 8, 5, 6}, y.toDoubleArray(), 0);
            Toolbox.indexAddInPlace(y, 0, idx(0), t(new double[] {10, 20}, 1, 2), -1);
            Toolbox.indexCopyInPlace(y, 0, idx(2), t(new double[] {0, 0}, 1, 2));
            Tensor col = Tensor.fromData(new long[] {1, 0, 1}, new long[] {3, 1}, DType.INT64, Device.CPU);
            Toolbox.scatterInPlace(y, 1, col, t(new double[] {9, 9, 9}, 3, 1));
            assertSame(y, Toolbox.scatterAddInPlace(y, 1, col, t(new double[] {1, 1, 1}, 3, 1)));
            assertArrayEquals(new double[] {-9, 10, 10, 8, 0, 10}, y.toDoubleArray(), 0);
        }
    }

    @Test
    void scatterReduce() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, 2, 3}, 3), src = t(new double[] {4, 5, 6}, 3);
            Tensor index = idx(0, 0, 2);
            assertArrayEquals(new double[] {20, 2, 18},
                    Toolbox.scatterReduce(x, 0, index, src, Toolbox.ScatterReduce.PROD, true).toDoubleArray(), 0);
            assertArrayEquals(new double[] {4.5, 2, 6},
                    Toolbox.scatterReduce(x, 0, index, src, Toolbox.ScatterReduce.MEAN, false).toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {5, 2, 6},
                    Toolbox.scatterReduce(x, 0, index, src, Toolbox.ScatterReduce.AMAX, true).toDoubleArray(), 0);
            Tensor y = x.copy();
            assertSame(y, Toolbox.scatterReduceInPlace(y, 0, index, src, Toolbox.ScatterReduce.AMIN, false));
            assertArrayEquals(new double[] {4, 2, 6}, y.toDoubleArray(), 0);
            assertThrows(IndexException.class,
                    () -> Toolbox.scatterReduce(x, 0, idx(0, 3, 1), src, Toolbox.ScatterReduce.SUM, true));
        }
    }

    @Test
    void gradientAndErrors() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, 2, 3, 4, 5, 6}, 3, 2).requiresGrad(true);
            Tensor v = t(new double[] {1, 2}, 2).requiresGrad(true);
            Toolbox.indexPut(x, new Tensor[] {idx(0, 2), idx(1, 1)}, v, false).sum().backward();
            assertArrayEquals(new double[] {1, 0, 1, 1, 1, 0}, x.grad().toDoubleArray(), 0);
            assertArrayEquals(new double[] {1, 1}, v.grad().toDoubleArray(), 0);
            IndexException e = assertThrows(IndexException.class,
                    () -> Toolbox.indexPut(x, new Tensor[] {idx(5)}, v, false));
            assertTrue(e.getMessage().contains("index_put: index 5 is out of bounds for dimension 0 with size 3"), e.getMessage());
            assertThrows(ShapeException.class, () -> Toolbox.indexAdd(x, 0, idx(0, 1), t(new double[] {1, 1}, 1, 2), 1));
            assertThrows(AutogradException.class, () -> Toolbox.indexCopyInPlace(x, 0, idx(0), t(new double[] {1, 1}, 1, 2)));
        }
    }

    @Test
    void countingAndSearching() {
        try (TensorScope s = new TensorScope()) {
            Tensor seq = t(new double[] {1, 3, 5, 7}, 4), v = t(new double[] {3, 0, 8}, 3);
            assertArrayEquals(new long[] {1, 0, 4}, Toolbox.searchsorted(seq, v, false, false, null).toLongArray());
            assertArrayEquals(new long[] {2, 0, 4}, Toolbox.bucketize(v, seq, true, false).toLongArray());
            assertEquals(DType.INT32, Toolbox.searchsorted(seq, v, false, true, null).dtype());
            assertArrayEquals(new long[] {0, 2, 0, 1, 0}, Toolbox.bincount(idx(1, 1, 3), null, 5).toLongArray());
            assertArrayEquals(new double[] {0, 1.5, 0, 2}, Toolbox.bincount(idx(1, 1, 3), t(new double[] {0.5, 1, 2}, 3), 0).toDoubleArray(), 0);
            assertArrayEquals(new double[] {1, 1, 1, 2}, Toolbox.histc(t(new double[] {0, 1, 2, 3, 4}, 5), 4, 0, 4).toDoubleArray(), 0);
            Tensor.Pair m = Toolbox.cummax(t(new double[] {1, 3, 3, 2}, 4), 0);
            assertArrayEquals(new double[] {1, 3, 3, 3}, m.values.toDoubleArray(), 0);
            assertArrayEquals(new long[] {0, 1, 2, 2}, m.indices.toLongArray());
            Tensor.Pair n = Toolbox.cummin(t(new double[] {2, 1, 4}, 3), 0);
            assertArrayEquals(new long[] {0, 1, 1}, n.indices.toLongArray());
            Tensor x = t(new double[] {1, 3, 2}, 3).requiresGrad(true);
            Toolbox.cummax(x, 0).values.sum().backward();
            assertArrayEquals(new double[] {1, 2, 0}, x.grad().toDoubleArray(), 0);
            assertThrows(InvalidArgumentException.class, () -> Toolbox.bincount(idx(-1), null, 0));
        }
    }

    @Test
    void compositesAndLimits() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(new double[] {1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}, 4);
            assertArrayEquals(new double[] {1, 0, Double.MAX_VALUE, -7}, Toolbox.nanToNum(x, null, null, -7.0).toDoubleArray(), 0);
            Tensor m = t(new double[] {1, 4, 9, 16, 2, 3, 5, 8}, 2, 4);
            assertArrayEquals(new double[] {3, 5, 7, 1, 2, 3}, Toolbox.diff(m, 1, -1, null, null).toDoubleArray(), 0);
            assertArrayEquals(new double[] {1, -1, -4, -8}, Toolbox.diff(m, 1, 0, null, null).toDoubleArray(), 0);
            Tensor i = Tensor.fromData(new long[] {3, 0}, new long[] {2, 1}, DType.INT64, Device.CPU);
            assertArrayEquals(new double[] {16, 2}, Toolbox.takeAlongDim(m, i, 1L).toDoubleArray(), 0);
            assertArrayEquals(new double[] {8}, Toolbox.takeAlongDim(m, idx(7), null).toDoubleArray(), 0);
            Toolbox.FInfo f = Toolbox.finfo(DType.FLOAT32);
            assertEquals(32, f.bits);
            assertEquals(Math.ulp(1.0f), f.eps);
            assertEquals(Float.MAX_VALUE, f.max);
            assertEquals(Float.MIN_NORMAL, f.tiny);
            assertEquals(1e-6, f.resolution);
            Toolbox.IInfo g = Toolbox.iinfo(DType.INT64);
            assertEquals(Long.MIN_VALUE, g.min);
            assertEquals(Long.MAX_VALUE, g.max);
            assertThrows(DTypeException.class, () -> Toolbox.finfo(DType.INT32));
        }
    }
}
