// BinaryMathTest.java - the binary math ops of issue 14 (logaddexp .. nextafter) from Java: values against closed
// forms, NaN handling of fmax / fmin, result dtypes and the DTypeException of the float-only ops on integers.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class BinaryMathTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor d(double... v) {
        return Tensor.fromArray(v);
    }

    @Test
    void valuesAgainstClosedForms() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = d(1, -2, 0), b = d(0.5, 3, -1);
            double[] lae = new double[3], ab = {1, -2, 0}, bb = {0.5, 3, -1};
            for (int i = 0; i < 3; i++) lae[i] = Math.log(Math.exp(ab[i]) + Math.exp(bb[i]));
            assertArrayEquals(lae, a.logaddexp(b).toDoubleArray(), 1e-14);
            for (int i = 0; i < 3; i++) lae[i] = Math.log(Math.pow(2, ab[i]) + Math.pow(2, bb[i])) / Math.log(2);
            assertArrayEquals(lae, a.logaddexp2(b).toDoubleArray(), 1e-14);
            assertArrayEquals(new double[] {5, 13}, d(3, 5).hypot(d(4, 12)).toDoubleArray(), 1e-14);
            assertArrayEquals(new double[] {0, 0, 2 * Math.log(3)}, d(0, 0, 2).xlogy(d(0, 1, 3)).toDoubleArray(), 1e-14);
            assertArrayEquals(new double[] {1, 2, -0.0}, a.copysign(b).toDoubleArray());
            assertArrayEquals(new double[] {2, 1}, d(Double.NaN, 1).fmax(d(2, Double.NaN)).toDoubleArray());
            assertArrayEquals(new double[] {-2, 1}, d(Double.NaN, 1).fmin(d(-2, Double.NaN)).toDoubleArray());
            assertArrayEquals(new double[] {1, 0, 0.5}, a.heaviside(d(0.5)).toDoubleArray());
            assertArrayEquals(new double[] {Math.nextUp(1.0)}, d(1).nextafter(d(2)).toDoubleArray());
            Tensor i = Tensor.fromArray(new long[] {1, -2});
            assertEquals(DType.FLOAT32, i.xlogy(i).dtype());
            assertEquals(DType.INT64, i.fmax(i).dtype());
            DTypeException e = assertThrows(DTypeException.class, () -> i.logaddexp(i));
            assertTrue(e.getMessage().contains("logaddexp"), e.getMessage());
        }
    }

    @Test
    void integerOps() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = Tensor.fromArray(new long[] {5, -3, 0, 7}), b = Tensor.fromArray(new long[] {3, 2, 1, 4});
            assertArrayEquals(new long[] {1, 0, 0, 4}, a.bitwiseAnd(b).toLongArray());
            assertArrayEquals(new long[] {7, -1, 1, 7}, a.bitwiseOr(b).toLongArray());
            assertArrayEquals(new long[] {6, -1, 1, 3}, a.bitwiseXor(b).toLongArray());
            assertArrayEquals(new long[] {-6, 2, -1, -8}, a.bitwiseNot().toLongArray());
            assertArrayEquals(new long[] {40, -12, 0, 112}, a.bitwiseLeftShift(b).toLongArray());
            assertArrayEquals(new long[] {0, -1, 0, 0}, a.bitwiseRightShift(b).toLongArray());
            Tensor c = Tensor.fromArray(new long[] {-12, 0, 0, 4}), d = Tensor.fromArray(new long[] {18, 0, -5, -6});
            assertArrayEquals(new long[] {6, 0, 5, 2}, c.gcd(d).toLongArray());
            assertArrayEquals(new long[] {36, 0, 0, 12}, c.lcm(d).toLongArray());
            Tensor f = d(1.5);
            assertThrows(DTypeException.class, () -> f.bitwiseAnd(f));
        }
    }

    @Test
    void addcmulAddcdiv() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = d(1, 2), a = d(2, -1), b = d(0.5, 4);
            assertArrayEquals(new double[] {0.5, 4}, x.addcmul(a, b, -0.5).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {9, 1.5}, x.addcdiv(a, b, 2).toDoubleArray(), 1e-15);
            Tensor i = Tensor.fromArray(new long[] {1, 2});
            assertThrows(DTypeException.class, () -> i.addcdiv(i, i, 1));
        }
    }
}
