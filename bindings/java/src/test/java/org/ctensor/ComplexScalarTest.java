// ComplexScalarTest.java - complex numbers beside tensors from Java (issue 15): mul(re, im) and the others, the
// number on the left through Complex.sub / div / pow, result dtypes as torch 1.13 gives them for a Python complex
// (FLOAT32 / integer / BOOL / FLOAT16 -> COMPLEX64, FLOAT64 -> COMPLEX128, complex keeps its dtype), values printed
// by torch, == / != and the refusal of ordering, and the gradient of a real tensor through a complex quotient.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ComplexScalarTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void resultDTypesFollowTorch() {
        DType[][] rows = {{DType.BOOL, DType.COMPLEX64}, {DType.UINT8, DType.COMPLEX64}, {DType.INT32, DType.COMPLEX64},
                {DType.INT64, DType.COMPLEX64}, {DType.FLOAT16, DType.COMPLEX64}, {DType.BFLOAT16, DType.COMPLEX64},
                {DType.FLOAT32, DType.COMPLEX64}, {DType.FLOAT64, DType.COMPLEX128},
                {DType.COMPLEX64, DType.COMPLEX64}, {DType.COMPLEX128, DType.COMPLEX128}};
        try (TensorScope s = new TensorScope()) {
            for (DType[] r : rows) {
                Tensor x = Tensor.fromArray(new double[] {1, 1}).to(r[0]);
                Tensor y = x.mul(0.5, 2);
                assertEquals(r[1], y.dtype(), r[0] + " * complex");
                assertArrayEquals(new double[] {0.5, 2, 0.5, 2}, Complex.toInterleaved(y), 0.0);
                Tensor z = x.add(0.5, 2);
                assertEquals(r[1], z.dtype(), r[0] + " + complex");
                assertArrayEquals(new double[] {1.5, 2, 1.5, 2}, Complex.toInterleaved(z), 0.0);
            }
        }
    }

    @Test
    void valuesOnEitherSide() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new double[] {1, -2});  // torch 1.13 with s = 0.5+2j
            assertArrayEquals(new double[] {0.5, 2, -1, -4}, Complex.toInterleaved(x.mul(0.5, 2)), 0.0);
            assertArrayEquals(new double[] {0.5, -2, -2.5, -2}, Complex.toInterleaved(x.sub(0.5, 2)), 0.0);
            assertArrayEquals(new double[] {-0.5, 2, 2.5, 2}, Complex.toInterleaved(Complex.sub(0.5, 2, x)), 0.0);
            assertArrayEquals(new double[] {0.5, 2, -0.25, -1}, Complex.toInterleaved(Complex.div(0.5, 2, x)), 0.0);
            double d = 1.0625;  // x / (0.25+i) = x (0.25-i) / 1.0625
            assertArrayEquals(new double[] {0.25 / d, -1 / d, -0.5 / d, 2 / d}, Complex.toInterleaved(x.div(0.25, 1)), 1e-15);
            assertArrayEquals(new double[] {1, 0, -0.0025961397312833884, 0.0004845030526940058},
                    Complex.toInterleaved(x.pow(0.5, 2)), 1e-12);
            Tensor w = Complex.wrappedScalar(1.5, -2);
            assertEquals(DType.COMPLEX128, w.dtype());
            assertEquals(0, w.dim());
            Tensor z = Complex.fromInterleaved(new double[] {1, 1}, new long[] {1}, DType.COMPLEX64);
            Tensor zi = z.mul(0, 1).add(1, 0);  // (1+i) i + 1 = i, still COMPLEX64
            assertEquals(DType.COMPLEX64, zi.dtype());
            assertArrayEquals(new double[] {0, 1}, Complex.toInterleaved(zi), 0.0);
        }
    }

    @Test
    void equalityWorksOrderingRefuses() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new double[] {1, 2}).to(DType.INT32);
            assertArrayEquals(new double[] {1, 0}, x.eq(1, 0).toDoubleArray());
            assertArrayEquals(new double[] {1, 1}, x.ne(0, 1).toDoubleArray());
            NotSupportedException e = assertThrows(NotSupportedException.class, () -> x.lt(Complex.wrappedScalar(0, 1)));
            assertTrue(e.getMessage().contains("complex64"), e.getMessage());
        }
    }

    @Test
    void gradientOfARealTensor() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new double[] {1, -2}).requiresGrad(true);
            Complex.imag(Complex.div(0.5, 2, x)).sum().backward();
            assertArrayEquals(new double[] {-2, -0.5}, x.grad().toDoubleArray(), 0.0);  // torch: -2 / x^2
        }
    }
}
