// ComplexLinalgTest.java - torch.linalg on COMPLEX64 / COMPLEX128 from Java (issue 15): det, inv and eigvalsh of
// small matrices against closed forms; the eigenvalues of a Hermitian matrix come back real.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ComplexLinalgTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void detInvEigvalsh() {
        try (TensorScope s = new TensorScope()) {
            for (DType dt : new DType[] {DType.COMPLEX64, DType.COMPLEX128}) {
                // A = [[2, i], [0, 1 + i]]: det 2 + 2i, A^-1 = [[0.5, -0.25 - 0.25i], [0, 0.5 - 0.5i]]
                Tensor a = Complex.fromInterleaved(new double[] {2, 0, 0, 1, 0, 0, 1, 1}, new long[] {2, 2}, dt);
                assertArrayEquals(new double[] {2, 2}, Complex.toInterleaved(Linalg.det(a)), 1e-5);
                assertArrayEquals(new double[] {0.5, 0, -0.25, -0.25, 0, 0, 0.5, -0.5},
                                  Complex.toInterleaved(Linalg.inv(a)), 1e-5);
                // Hermitian [[2, i], [-i, 2]]: eigenvalues 1 and 3, real
                Tensor h = Complex.fromInterleaved(new double[] {2, 0, 0, 1, 0, -1, 2, 0}, new long[] {2, 2}, dt);
                Tensor w = Linalg.eigvalsh(h, false);
                assertEquals(dt == DType.COMPLEX64 ? DType.FLOAT32 : DType.FLOAT64, w.dtype());
                assertArrayEquals(new double[] {1, 3}, w.toDoubleArray(), 1e-5);
            }
        }
    }
}
