// MoreOps.java - the last reductions and products of issue 14 for Java: logcumsumexp, aminmax, varMean / stdMean,
// kron, tensordot, inner - static methods with torch's names over the C ABI. Two-result ops return a Tensor[2]
// ({min, max}, {var, mean}, {std, mean}). Thin wrappers: the library checks the arguments and throws through the
// mapped exceptions.
package org.ctensor;

import org.ctensor.internal.CT;

public final class MoreOps {
    private MoreOps() {}

    private static Tensor[] two(long[] a, long[] b) {
        return new Tensor[] {Tensor.own(a[0]), Tensor.own(b[0])};
    }

    /** log(cumsum(exp(x))) along dim, computed stably; floating x only. Differentiable. */
    @Op("logcumsumexp")
    public static Tensor logcumsumexp(Tensor x, long dim) {
        return Tensor.own(CT.logcumsumexp(x.handle(), dim), x);
    }

    /** {min, max} of x in one pass: over every element (dim null) or along dim. Not differentiable (torch 1.13). */
    @Op("aminmax")
    public static Tensor[] aminmax(Tensor x, Long dim, boolean keepdim) {
        long[] lo = new long[1], hi = new long[1];
        CT.aminmax(x.handle(), dim == null ? 0 : dim, dim == null ? 0 : 1, keepdim ? 1 : 0, lo, hi);
        Native.keepAlive(x);
        return two(lo, hi);
    }

    /** {var, mean} over dims (empty: all) with correction (1 = unbiased); differentiable in both. */
    @Op("var_mean")
    public static Tensor[] varMean(Tensor x, long[] dims, double correction, boolean keepdim) {
        long[] v = new long[1], m = new long[1];
        CT.var_mean(x.handle(), dims, correction, keepdim ? 1 : 0, v, m);
        Native.keepAlive(x);
        return two(v, m);
    }

    /** {std, mean} over dims (empty: all) with correction; differentiable in both. */
    @Op("std_mean")
    public static Tensor[] stdMean(Tensor x, long[] dims, double correction, boolean keepdim) {
        long[] s = new long[1], m = new long[1];
        CT.std_mean(x.handle(), dims, correction, keepdim ? 1 : 0, s, m);
        Native.keepAlive(x);
        return two(s, m);
    }

    /** The Kronecker product of a and b. */
    @Op("kron")
    public static Tensor kron(Tensor a, Tensor b) {
        return Tensor.own(CT.kron(a.handle(), b.handle()), a, b);
    }

    /** Contracts dimsA[i] of a with dimsB[i] of b: a's other dims then b's. */
    @Op("tensordot")
    public static Tensor tensordot(Tensor a, Tensor b, long[] dimsA, long[] dimsB) {
        return Tensor.own(CT.tensordot(a.handle(), b.handle(), dimsA, dimsB), a, b);
    }

    /** torch's integer form: the last n dims of a with the first n of b. */
    public static Tensor tensordot(Tensor a, Tensor b, int n) {
        long[] da = new long[Math.max(n, 0)], db = new long[Math.max(n, 0)];
        for (int i = 0; i < da.length; ++i) {
            da[i] = i - n;
            db[i] = i;
        }
        if (n < 0) throw new IllegalArgumentException("tensordot expects dims >= 0, but got dims=" + n);
        return tensordot(a, b, da, db);
    }

    /** The inner product over the last dims of a and b (a * b when either is 0-d). */
    @Op("inner")
    public static Tensor inner(Tensor a, Tensor b) {
        return Tensor.own(CT.inner(a.handle(), b.handle()), a, b);
    }
}
