// ComplexTest.java - COMPLEX64 / COMPLEX128 from Java: enum codes, interleaved round trips, parts, conj, abs,
// angle, arithmetic against closed forms, and the refusal of ops without a complex kernel.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ComplexTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void codesAndSizes() {
        assertEquals(DType.COMPLEX64, DType.of(10));
        assertEquals(DType.COMPLEX128, DType.of(11));
        assertEquals(16, DType.COMPLEX128.itemSize);
        assertTrue(DType.COMPLEX64.isComplex());
        assertFalse(DType.COMPLEX64.isFloatingPoint());
    }

    @Test
    void valuesPartsAndArithmetic() {
        try (TensorScope s = new TensorScope()) {
            for (DType dt : new DType[] {DType.COMPLEX64, DType.COMPLEX128}) {
                Tensor z = Complex.fromInterleaved(new double[] {3, 4, -1, 2}, new long[] {2}, dt);
                assertEquals(dt, z.dtype());
                assertArrayEquals(new double[] {3, 4, -1, 2}, Complex.toInterleaved(z));
                assertArrayEquals(new double[] {3, -1}, Complex.real(z).toDoubleArray());
                assertArrayEquals(new double[] {4, 2}, Complex.imag(z).toDoubleArray());
                assertArrayEquals(new double[] {3, -4, -1, -2}, Complex.toInterleaved(Complex.conj(z)));
                assertArrayEquals(new double[] {5, Math.sqrt(5)}, z.abs().toDoubleArray(), 1e-6);
                assertEquals(Math.atan2(4, 3), Complex.angle(z).toDoubleArray()[0], 1e-6);
                // (3+4i)^2 = -7+24i, (-1+2i)^2 = -3-4i
                assertArrayEquals(new double[] {-7, 24, -3, -4}, Complex.toInterleaved(z.mul(z)), 1e-5);
                Tensor f = Complex.full(new long[] {2}, 1.5, -2, dt, Device.CPU);
                assertArrayEquals(new double[] {1.5, -2, 1.5, -2}, Complex.toInterleaved(f));
                assertThrows(NotSupportedException.class, () -> z.relu());
            }
            assertThrows(DTypeException.class, () -> Complex.imag(Tensor.fromArray(new double[] {1})));
        }
    }
}
