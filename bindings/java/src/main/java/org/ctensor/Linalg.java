// Linalg.java - torch.linalg for Java: static methods with torch.linalg's names (inv, det, slogdet, solve, cholesky,
// qr, eigh, eigvalsh, eig, eigvals, svd, svdvals, solveTriangular, matrixPower, cross, vectorNorm, matrixNorm, pinv,
// matrixRank, lstsq) over the C ABI's ct_linalg_*. LAPACK on the CPU, float32/float64,
// batched over the leading dims. A singular or non-positive-definite matrix throws InvalidArgumentException naming
// the batch element; several results come as small AutoCloseable records (closing one closes its tensors).
package org.ctensor;

import org.ctensor.internal.CT;

public final class Linalg {
    private Linalg() {}

    /** torch.linalg.qr's modes. */
    public enum QrMode {
        REDUCED(0), COMPLETE(1), R(2);

        final int code;

        QrMode(int code) {
            this.code = code;
        }
    }

    /** torch.linalg.lstsq's LAPACK drivers (the C ABI's CT_LSTSQ_*). */
    public enum LstsqDriver {
        /** complete orthogonal factorisation with pivoting: any rank (the default) */
        GELSY(0),
        /** QR or LQ: A must have full rank */
        GELS(1),
        /** SVD, divide and conquer: any rank, gives singular values */
        GELSD(2),
        /** SVD: any rank, gives singular values */
        GELSS(3);

        final int code;

        LstsqDriver(int code) {
            this.code = code;
        }
    }

    /**
     * lstsq's (solution, residuals, rank, singularValues): residuals only when m > n, the driver is not GELSY and A
     * has full rank (else [0]); rank int64 ([0] for GELS); singularValues for GELSD/GELSS (else [0]).
     */
    public static final class Lstsq implements AutoCloseable {
        public final Tensor solution;
        public final Tensor residuals;
        public final Tensor rank;
        public final Tensor singularValues;

        Lstsq(Tensor solution, Tensor residuals, Tensor rank, Tensor singularValues) {
            this.solution = solution;
            this.residuals = residuals;
            this.rank = rank;
            this.singularValues = singularValues;
        }

        @Override
        public void close() {
            solution.close();
            residuals.close();
            rank.close();
            singularValues.close();
        }
    }

    /** slogdet's (sign, logabsdet). */
    public static final class SignLogDet implements AutoCloseable {
        public final Tensor sign;
        public final Tensor logabsdet;

        SignLogDet(Tensor sign, Tensor logabsdet) {
            this.sign = sign;
            this.logabsdet = logabsdet;
        }

        @Override
        public void close() {
            sign.close();
            logabsdet.close();
        }
    }

    /** qr's (Q, R); Q is an empty [0] tensor in mode R. */
    public static final class QR implements AutoCloseable {
        public final Tensor q;
        public final Tensor r;

        QR(Tensor q, Tensor r) {
            this.q = q;
            this.r = r;
        }

        @Override
        public void close() {
            q.close();
            r.close();
        }
    }

    /** Eigenvalues and eigenvectors (columns): eigh's (ascending, real) or eig's (complex). */
    public static final class Eigh implements AutoCloseable {
        public final Tensor eigenvalues;
        public final Tensor eigenvectors;

        Eigh(Tensor eigenvalues, Tensor eigenvectors) {
            this.eigenvalues = eigenvalues;
            this.eigenvectors = eigenvectors;
        }

        @Override
        public void close() {
            eigenvalues.close();
            eigenvectors.close();
        }
    }

    /** svd's (U, S, Vh), S descending. */
    public static final class SVD implements AutoCloseable {
        public final Tensor u;
        public final Tensor s;
        public final Tensor vh;

        SVD(Tensor u, Tensor s, Tensor vh) {
            this.u = u;
            this.s = s;
            this.vh = vh;
        }

        @Override
        public void close() {
            u.close();
            s.close();
            vh.close();
        }
    }

    @Op("linalg_inv")
    public static Tensor inv(Tensor a) {
        return Tensor.own(CT.linalg_inv(a.handle()), a);
    }

    @Op("linalg_det")
    public static Tensor det(Tensor a) {
        return Tensor.own(CT.linalg_det(a.handle()), a);
    }

    @Op("linalg_slogdet")
    public static SignLogDet slogdet(Tensor a) {
        long[] s = new long[1], l = new long[1];
        CT.linalg_slogdet(a.handle(), s, l);
        Native.keepAlive(a);
        return new SignLogDet(Tensor.own(s[0]), Tensor.own(l[0]));
    }

    /** X with A X = B; B a matrix [..., n, k], or a vector (1-D or A's shape without its last dim). */
    @Op("linalg_solve")
    public static Tensor solve(Tensor a, Tensor b) {
        return Tensor.own(CT.linalg_solve(a.handle(), b.handle()), a, b);
    }

    /** Lower L with A = L L^T, or with upper its transpose. */
    @Op("linalg_cholesky")
    public static Tensor cholesky(Tensor a, boolean upper) {
        return Tensor.own(CT.linalg_cholesky(a.handle(), upper ? 1 : 0), a);
    }

    @Op("linalg_qr")
    public static QR qr(Tensor a, QrMode mode) {
        long[] q = new long[1], r = new long[1];
        CT.linalg_qr(a.handle(), mode.code, q, r);
        Native.keepAlive(a);
        return new QR(Tensor.own(q[0]), Tensor.own(r[0]));
    }

    /** Eigen-decomposition of symmetric A read from its upper triangle (upper; torch's UPLO='U') or lower. */
    @Op("linalg_eigh")
    public static Eigh eigh(Tensor a, boolean upper) {
        long[] w = new long[1], v = new long[1];
        CT.linalg_eigh(a.handle(), upper ? 1 : 0, w, v);
        Native.keepAlive(a);
        return new Eigh(Tensor.own(w[0]), Tensor.own(v[0]));
    }

    @Op("linalg_eigvalsh")
    public static Tensor eigvalsh(Tensor a, boolean upper) {
        return Tensor.own(CT.linalg_eigvalsh(a.handle(), upper ? 1 : 0), a);
    }

    /** Complex eigenvalues and unit-norm eigenvectors (columns) of real square A (torch.linalg.eig, LAPACK geev). */
    @Op("linalg_eig")
    public static Eigh eig(Tensor a) {
        long[] w = new long[1], v = new long[1];
        CT.linalg_eig(a.handle(), w, v);
        Native.keepAlive(a);
        return new Eigh(Tensor.own(w[0]), Tensor.own(v[0]));
    }

    @Op("linalg_eigvals")
    public static Tensor eigvals(Tensor a) {
        return Tensor.own(CT.linalg_eigvals(a.handle()), a);
    }

    @Op("linalg_svd")
    public static SVD svd(Tensor a, boolean fullMatrices) {
        long[] u = new long[1], s = new long[1], vh = new long[1];
        CT.linalg_svd(a.handle(), fullMatrices ? 1 : 0, u, s, vh);
        Native.keepAlive(a);
        return new SVD(Tensor.own(u[0]), Tensor.own(s[0]), Tensor.own(vh[0]));
    }

    @Op("linalg_svdvals")
    public static Tensor svdvals(Tensor a) {
        return Tensor.own(CT.linalg_svdvals(a.handle()), a);
    }

    /** X with A X = B (left) or X A = B for triangular A (unitriangular: its diagonal is taken as 1). */
    @Op("linalg_solve_triangular")
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper, boolean left, boolean unitriangular) {
        return Tensor.own(CT.linalg_solve_triangular(a.handle(), b.handle(), upper ? 1 : 0, left ? 1 : 0,
                unitriangular ? 1 : 0), a, b);
    }

    /** A to the power n (square; n < 0 inverts first, n = 0 gives the identity). */
    @Op("linalg_matrix_power")
    public static Tensor matrixPower(Tensor a, long n) {
        return Tensor.own(CT.linalg_matrix_power(a.handle(), n), a);
    }

    /** The cross product along dim (size 3 there; same rank, broadcast). */
    @Op("linalg_cross")
    public static Tensor cross(Tensor a, Tensor b, long dim) {
        return Tensor.own(CT.linalg_cross(a.handle(), b.handle(), dim), a, b);
    }

    /** (sum |x|^ord)^(1/ord) over dims (empty: all); infinite ord: max / min |x|; 0: the nonzero count. */
    @Op("linalg_vector_norm")
    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim) {
        return Tensor.own(CT.linalg_vector_norm(x.handle(), ord, dims, keepdim ? 1 : 0), x);
    }

    /** A matrix norm over (dim0, dim1): ord "fro", "nuc", "inf", "-inf", "1", "-1", "2" or "-2". */
    @Op("linalg_matrix_norm")
    public static Tensor matrixNorm(Tensor x, String ord, long dim0, long dim1, boolean keepdim) {
        return Tensor.own(CT.linalg_matrix_norm(x.handle(), ord, dim0, dim1, keepdim ? 1 : 0), x);
    }

    /** The pseudo-inverse; null tolerances are torch's defaults. */
    @Op("linalg_pinv")
    public static Tensor pinv(Tensor a, Double atol, Double rtol) {
        return Tensor.own(CT.linalg_pinv(a.handle(), atol == null ? -1 : atol, rtol == null ? -1 : rtol), a);
    }

    /** The number (int64) of singular values above pinv's tolerance; null tolerances are torch's defaults. */
    @Op("linalg_matrix_rank")
    public static Tensor matrixRank(Tensor a, Double atol, Double rtol) {
        return Tensor.own(CT.linalg_matrix_rank(a.handle(), atol == null ? -1 : atol, rtol == null ? -1 : rtol), a);
    }

    /** The minimum-norm least-squares solution of A X = B with the default driver (GELSY, any rank). */
    @Op("linalg_lstsq")
    public static Tensor lstsq(Tensor a, Tensor b) {
        return Tensor.own(CT.linalg_lstsq(a.handle(), b.handle()), a, b);
    }

    /**
     * torch.linalg.lstsq(A, B, rcond, driver) on the CPU: B [..., m, k], or [..., m] with one dim less than A; batch
     * dims broadcast. rcond null: eps * max(m, n). The solution's gradient is that of pinv(A) @ B.
     */
    @Op("linalg_lstsq_ex")
    public static Lstsq lstsq(Tensor a, Tensor b, Double rcond, LstsqDriver driver) {
        long[] x = new long[1], res = new long[1], rank = new long[1], sv = new long[1];
        CT.linalg_lstsq_ex(a.handle(), b.handle(), rcond == null ? -1 : rcond, driver.code, x, res, rank, sv);
        Native.keepAlive(a);
        Native.keepAlive(b);
        return new Lstsq(Tensor.own(x[0]), Tensor.own(res[0]), Tensor.own(rank[0]), Tensor.own(sv[0]));
    }
}
