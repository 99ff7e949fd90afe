// LinalgTest.java - org.ctensor.Linalg: values against closed forms and reconstructions, a gradient against the
// closed form (d log|det A| / dA = A^-T), batches, and the exception classes of the errors.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class LinalgTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor t(double[] v, long... shape) {
        return Tensor.fromData(v, shape, DType.FLOAT64, Device.CPU);
    }

    @Test
    void valuesAndReconstructions() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = t(new double[] {4, 7, 2, 6}, 2, 2);
            assertArrayEquals(new double[] {0.6, -0.7, -0.2, 0.4}, Linalg.inv(a).toDoubleArray(), 1e-12);
            assertEquals(10.0, Linalg.det(a).item(), 1e-12);
            Linalg.SignLogDet sl = Linalg.slogdet(a);
            assertEquals(1.0, sl.sign.item());
            assertEquals(Math.log(10), sl.logabsdet.item(), 1e-12);
            Tensor x = Linalg.solve(a, t(new double[] {1, 2}, 2));
            assertArrayEquals(new double[] {1, 2}, a.matmul(x).toDoubleArray(), 1e-12);
            Tensor spd = t(new double[] {4, 2, 2, 3}, 2, 2);
            Tensor l = Linalg.cholesky(spd, false);
            assertArrayEquals(spd.toDoubleArray(), l.matmul(l.transpose(0, 1)).toDoubleArray(), 1e-12);
            Linalg.Eigh e = Linalg.eigh(spd, false);
            assertArrayEquals(spd.matmul(e.eigenvectors).toDoubleArray(),
                    e.eigenvectors.mul(e.eigenvalues.unsqueeze(0)).toDoubleArray(), 1e-12);
            assertArrayEquals(e.eigenvalues.toDoubleArray(), Linalg.eigvalsh(spd, true).toDoubleArray(), 1e-12);
            Tensor rot = t(new double[] {0, -2, 2, 0}, 2, 2);  // eigenvalues +-2i, eigenvectors (+-i, 1) / sqrt(2)
            Linalg.Eigh ge = Linalg.eig(rot);
            assertEquals(DType.COMPLEX128, ge.eigenvalues.dtype());
            assertArrayEquals(new double[] {0, 2, 0, -2}, Complex.viewAsReal(ge.eigenvalues).toDoubleArray(), 1e-12);
            double h = Math.sqrt(0.5);
            assertArrayEquals(new double[] {0, h, 0, -h, h, 0, h, 0}, Complex.viewAsReal(ge.eigenvectors).toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {0, 2, 0, -2}, Complex.viewAsReal(Linalg.eigvals(rot)).toDoubleArray(), 1e-12);
            Tensor g = t(new double[] {1, 2, 3, 4, 5, 6}, 3, 2);
            Linalg.QR qr = Linalg.qr(g, Linalg.QrMode.REDUCED);
            assertArrayEquals(g.toDoubleArray(), qr.q.matmul(qr.r).toDoubleArray(), 1e-12);
            assertArrayEquals(new long[] {0}, Linalg.qr(g, Linalg.QrMode.R).q.shape());
            Linalg.SVD svd = Linalg.svd(g, false);
            assertArrayEquals(g.toDoubleArray(), svd.u.mul(svd.s.unsqueeze(0)).matmul(svd.vh).toDoubleArray(), 1e-12);
            assertArrayEquals(svd.s.toDoubleArray(), Linalg.svdvals(g).toDoubleArray(), 1e-12);
            assertArrayEquals(new long[] {3, 3}, Linalg.svd(g, true).u.shape());
            Tensor tri = t(new double[] {2, 0, 1, 4}, 2, 2);
            assertArrayEquals(new double[] {1, 2},
                    Linalg.solveTriangular(tri, t(new double[] {2, 9}, 2, 1), false, true, false).toDoubleArray(), 1e-12);
            Tensor batch = t(new double[] {1, 0, 0, 1, 1, 2, 2, 4}, 2, 2, 2);
            assertArrayEquals(new double[] {1, 0}, Linalg.det(batch).toDoubleArray(), 1e-12);
        }
    }

    @Test
    void logabsdetGradientIsTheInverseTranspose() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = t(new double[] {4, 7, 2, 6}, 2, 2).requiresGrad(true);
            Linalg.slogdet(a).logabsdet.backward();
            assertArrayEquals(new double[] {0.6, -0.2, -0.7, 0.4}, a.grad().toDoubleArray(), 1e-12);
        }
    }

    @Test
    void errors() {
        try (TensorScope s = new TensorScope()) {
            Tensor batch = t(new double[] {1, 0, 0, 1, 1, 2, 2, 4}, 2, 2, 2);
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Linalg.inv(batch));
            assertTrue(e.getMessage().contains("(Batch element 1)"), e.getMessage());
            assertThrows(InvalidArgumentException.class, () -> Linalg.cholesky(t(new double[] {1, 2, 2, 1}, 2, 2), false));
            assertThrows(ShapeException.class, () -> Linalg.det(t(new double[] {1, 2, 3, 4, 5, 6}, 2, 3)));
            Tensor ints = Tensor.fromData(new long[] {1, 0, 0, 1}, new long[] {2, 2}, DType.INT64, Device.CPU);
            assertThrows(DTypeException.class, () -> Linalg.inv(ints));
        }
    }

    @Test
    void composites() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = t(new double[] {2, 1, 1, 3}, 2, 2);
            assertArrayEquals(new double[] {5, 5, 5, 10}, Linalg.matrixPower(a, 2).toDoubleArray(), 1e-12);
            assertArrayEquals(Linalg.inv(a).toDoubleArray(), Linalg.matrixPower(a, -1).toDoubleArray(), 1e-12);
            assertArrayEquals(new double[] {0, 0, 1},
                    Linalg.cross(t(new double[] {1, 0, 0}, 3), t(new double[] {0, 1, 0}, 3), -1).toDoubleArray());
            assertEquals(5.0, Linalg.vectorNorm(t(new double[] {3, -4}, 2), 2, new long[0], false).item(), 1e-12);
            assertEquals(Math.sqrt(15), Linalg.matrixNorm(a, "fro", -2, -1, false).item(), 1e-12);
            assertEquals(4.0, Linalg.matrixNorm(a, "inf", -2, -1, false).item(), 1e-12);
            assertThrows(InvalidArgumentException.class, () -> Linalg.matrixNorm(a, "3", -2, -1, false));
            assertArrayEquals(Linalg.inv(a).toDoubleArray(), Linalg.pinv(a, null, null).toDoubleArray(), 1e-12);
            assertEquals(1.0, Linalg.matrixRank(t(new double[] {1, 2, 2, 4}, 2, 2), null, null).item());
            Tensor tall = t(new double[] {1, 0, 0, 1, 1, 1}, 3, 2);
            assertArrayEquals(new double[] {4.0 / 3, 7.0 / 3},
                    Linalg.lstsq(tall, t(new double[] {1, 2, 4}, 3, 1)).toDoubleArray(), 1e-12);
        }
    }

    @Test
    void leastSquaresDrivers() {
        try (TensorScope s = new TensorScope()) {
            Tensor tall = t(new double[] {1, 0, 0, 1, 1, 1}, 3, 2), b = t(new double[] {1, 2, 4}, 3, 1);
            for (Linalg.LstsqDriver d : Linalg.LstsqDriver.values()) {
                try (Linalg.Lstsq r = Linalg.lstsq(tall, b, null, d)) {
                    assertArrayEquals(new double[] {4.0 / 3, 7.0 / 3}, r.solution.toDoubleArray(), 1e-12);
                    if (d == Linalg.LstsqDriver.GELSY) assertEquals(0, r.residuals.numel());
                    else assertEquals(1.0 / 3, r.residuals.item(), 1e-12);
                    if (d == Linalg.LstsqDriver.GELSD || d == Linalg.LstsqDriver.GELSS)
                        assertArrayEquals(new double[] {Math.sqrt(3), 1}, r.singularValues.toDoubleArray(), 1e-12);
                }
            }
            // complex A = (1 + i) A0, B = (1 + 2i) b0: x = x0 (3 + i) / 2, real residuals |1 + 2i|^2 / 3 and
            // singular values |1 + i| {sqrt 3, 1}
            Tensor ca = Complex.complex(tall, tall), cb = Complex.complex(b, b.mul(2.0));
            for (Linalg.LstsqDriver d : Linalg.LstsqDriver.values()) {
                try (Linalg.Lstsq r = Linalg.lstsq(ca, cb, null, d)) {
                    assertEquals(DType.COMPLEX128, r.solution.dtype());
                    assertArrayEquals(new double[] {2, 2.0 / 3, 3.5, 7.0 / 6},
                            Complex.viewAsReal(r.solution).toDoubleArray(), 1e-12);
                    assertEquals(DType.FLOAT64, r.residuals.dtype());
                    if (d != Linalg.LstsqDriver.GELSY) assertEquals(5.0 / 3, r.residuals.item(), 1e-12);
                    if (d == Linalg.LstsqDriver.GELSD || d == Linalg.LstsqDriver.GELSS)
                        assertArrayEquals(new double[] {Math.sqrt(6), Math.sqrt(2)}, r.singularValues.toDoubleArray(), 1e-12);
                }
            }
            assertThrows(DTypeException.class, () -> Linalg.lstsq(ca, b, null, Linalg.LstsqDriver.GELSY));
            Tensor low = t(new double[] {1, 2, 2, 4, 3, 6}, 3, 2); // rank 1: x = pinv(A) b = 17/70 [1, 2]
            try (Linalg.Lstsq r = Linalg.lstsq(low, t(new double[] {1, 2, 4}, 3), null, Linalg.LstsqDriver.GELSY)) {
                assertArrayEquals(new long[] {2}, r.solution.shape());
                assertArrayEquals(new double[] {17.0 / 70, 34.0 / 70}, r.solution.toDoubleArray(), 1e-12);
                assertEquals(1.0, r.rank.item());
            }
            Tensor zeroColumn = t(new double[] {1, 0, 0, 0, 2, 0}, 3, 2);
            assertThrows(InvalidArgumentException.class, () -> Linalg.lstsq(zeroColumn, b, null, Linalg.LstsqDriver.GELS));
            assertThrows(ShapeException.class, () -> Linalg.lstsq(tall, t(new double[] {1, 2}, 2, 1), 1e-3, Linalg.LstsqDriver.GELSD));
        }
    }
}
