// UnaryMathTest.java - the unary math ops of issue 14 from Java: values against java.lang.Math and closed forms,
// logit's eps, bool results, and the DTypeException of a bool positive.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class UnaryMathTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void values() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new double[] {-0.5, 0.25});
            assertArrayEquals(new double[] {Math.asin(-0.5), Math.asin(0.25)}, UnaryMath.asin(x).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {Math.acos(-0.5), Math.acos(0.25)}, UnaryMath.acos(x).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {Math.atan(-0.5), Math.atan(0.25)}, UnaryMath.atan(x).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {Math.sinh(-0.5), Math.sinh(0.25)}, UnaryMath.sinh(x).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {Math.cosh(-0.5), Math.cosh(0.25)}, UnaryMath.cosh(x).toDoubleArray(), 1e-15);
            assertArrayEquals(new double[] {Math.log(-0.5 + Math.sqrt(1.25)), Math.log(0.25 + Math.sqrt(1.0625))},
                              UnaryMath.asinh(x).toDoubleArray(), 1e-15);
            assertEquals(Math.log(2 + Math.sqrt(3)), UnaryMath.acosh(Tensor.fromArray(new double[] {2})).toDoubleArray()[0], 1e-15);
            assertEquals(0.5 * Math.log(3), UnaryMath.atanh(Tensor.fromArray(new double[] {0.5})).toDoubleArray()[0], 1e-15);
            Tensor e = UnaryMath.erf(x);
            assertArrayEquals(new double[] {-0.5, 0.25}, UnaryMath.erfinv(e).toDoubleArray(), 1e-14);
            assertEquals(1 - e.toDoubleArray()[1], UnaryMath.erfc(x).toDoubleArray()[1], 1e-15);
            Tensor four = Tensor.fromArray(new double[] {4, 1});
            assertArrayEquals(new double[] {Math.log(6), 0}, UnaryMath.lgamma(four).toDoubleArray(), 1e-14);
            assertEquals(-0.5772156649015329, UnaryMath.digamma(four).toDoubleArray()[1], 1e-14);
            assertEquals(2 / Math.PI, UnaryMath.sinc(Tensor.fromArray(new double[] {0.5})).toDoubleArray()[0], 1e-15);
            assertEquals(Math.PI, UnaryMath.deg2rad(Tensor.fromArray(new double[] {180})).toDoubleArray()[0], 1e-15);
            assertEquals(180, UnaryMath.rad2deg(Tensor.fromArray(new double[] {Math.PI})).toDoubleArray()[0], 1e-12);
            assertEquals(1.2660658777520084, UnaryMath.i0(four).toDoubleArray()[1], 1e-14);
            assertArrayEquals(new double[] {-1, 1}, UnaryMath.sgn(x).toDoubleArray());
            double l9 = Math.log(9);
            assertArrayEquals(new double[] {-l9, 0}, UnaryMath.logit(Tensor.fromArray(new double[] {0, 0.5}), 0.1).toDoubleArray(), 1e-12);
            assertEquals(Double.NEGATIVE_INFINITY, UnaryMath.logit(Tensor.fromArray(new double[] {0})).toDoubleArray()[0]);
            Tensor b = Tensor.fromArray(new double[] {-0.0, 1, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY});
            assertEquals(DType.BOOL, UnaryMath.signbit(b).dtype());
            assertArrayEquals(new double[] {1, 0, 0, 1}, UnaryMath.signbit(b).toDoubleArray());
            assertArrayEquals(new double[] {0, 0, 1, 0}, UnaryMath.isposinf(b).toDoubleArray());
            assertArrayEquals(new double[] {0, 0, 0, 1}, UnaryMath.isneginf(b).toDoubleArray());
            assertArrayEquals(x.toDoubleArray(), UnaryMath.positive(x).toDoubleArray());
            assertThrows(DTypeException.class, () -> UnaryMath.positive(UnaryMath.signbit(b)));
        }
    }
}
