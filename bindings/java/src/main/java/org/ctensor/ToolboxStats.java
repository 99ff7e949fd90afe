// ToolboxStats.java - the rest of the tensor toolbox of issue 14 for Java: repeatInterleave, meshgrid,
// median / nanmedian (all or along a dim), quantile / nanquantile, cdist - static methods with torch's names over
// the C ABI. Thin wrappers: the library checks the arguments and throws through the mapped exceptions.
package org.ctensor;

import org.ctensor.internal.CT;

public final class ToolboxStats {
    private ToolboxStats() {}

    /** quantile's interpolation between the two nearest ranks (the CT_QUANTILE_* codes). */
    public enum Interpolation {
        LINEAR, LOWER, HIGHER, MIDPOINT, NEAREST
    }

    /** x with each element repeated repeats times along dim (null: over the flattened x). */
    @Op("repeat_interleave")
    public static Tensor repeatInterleave(Tensor x, long repeats, Long dim) {
        long h = CT.repeat_interleave(x.handle(), 0, repeats, dim == null ? 0 : dim, dim == null ? 0 : 1, 0, 0);
        return Tensor.own(h, x);
    }

    /** x with slice i along dim repeated repeats[i] times (an integer tensor of one value or of dim's length). */
    public static Tensor repeatInterleave(Tensor x, Tensor repeats, Long dim, Long outputSize) {
        long h = CT.repeat_interleave(x.handle(), repeats.handle(), 0, dim == null ? 0 : dim, dim == null ? 0 : 1,
                outputSize == null ? 0 : outputSize, outputSize == null ? 0 : 1);
        Native.keepAlive(x, repeats);
        return Tensor.own(h);
    }

    /** The coordinate grids of 0-d or 1-D tensors of one dtype (xy: numpy's Cartesian indexing); expanded views. */
    @Op("meshgrid")
    public static Tensor[] meshgrid(boolean xy, Tensor... tensors) {
        long[] outs = new long[tensors.length];
        CT.meshgrid(TensorCore.handles(tensors), xy ? 1 : 0, outs);
        Native.keepAlive(tensors);
        Tensor[] ts = new Tensor[outs.length];
        for (int i = 0; i < ts.length; ++i) ts[i] = Tensor.own(outs[i]);
        return ts;
    }

    /** The 0-d lower median of all elements (NaN when one is NaN). */
    @Op("median")
    public static Tensor median(Tensor x) {
        return Tensor.own(CT.median(x.handle()), x);
    }

    /** The 0-d lower median of the non-NaN elements. */
    @Op("nanmedian")
    public static Tensor nanmedian(Tensor x) {
        return Tensor.own(CT.nanmedian(x.handle()), x);
    }

    /** The lower median along dim and its int64 position (a row holding NaN gives its first NaN). */
    @Op("median_dim")
    public static Tensor.Pair median(Tensor x, long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.median_dim(x.handle(), dim, keepdim ? 1 : 0, v, i);
        Native.keepAlive(x);
        return Tensor.Pair.own(v, i);
    }

    /** median along dim ignoring NaN. */
    @Op("nanmedian_dim")
    public static Tensor.Pair nanmedian(Tensor x, long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.nanmedian_dim(x.handle(), dim, keepdim ? 1 : 0, v, i);
        Native.keepAlive(x);
        return Tensor.Pair.own(v, i);
    }

    /** The q-quantile (0 <= q <= 1) of float32/float64 x along dim (null: of all elements). */
    @Op("quantile")
    public static Tensor quantile(Tensor x, double q, Long dim, boolean keepdim, Interpolation mode) {
        long h = CT.quantile(x.handle(), 0, q, dim == null ? 0 : dim, dim == null ? 0 : 1, keepdim ? 1 : 0, mode.ordinal());
        return Tensor.own(h, x);
    }

    /** The quantiles for each value of the 0-d or 1-D tensor q (x's dtype); a 1-D q puts its dim first. */
    public static Tensor quantile(Tensor x, Tensor q, Long dim, boolean keepdim, Interpolation mode) {
        long h = CT.quantile(x.handle(), q.handle(), 0, dim == null ? 0 : dim, dim == null ? 0 : 1, keepdim ? 1 : 0,
                mode.ordinal());
        Native.keepAlive(x, q);
        return Tensor.own(h);
    }

    /** quantile ignoring NaN. */
    @Op("nanquantile")
    public static Tensor nanquantile(Tensor x, double q, Long dim, boolean keepdim, Interpolation mode) {
        long h = CT.nanquantile(x.handle(), 0, q, dim == null ? 0 : dim, dim == null ? 0 : 1, keepdim ? 1 : 0,
                mode.ordinal());
        return Tensor.own(h, x);
    }

    /** nanquantile for each value of the 0-d or 1-D tensor q (x's dtype); a 1-D q puts its dim first. */
    public static Tensor nanquantile(Tensor x, Tensor q, Long dim, boolean keepdim, Interpolation mode) {
        long h = CT.nanquantile(x.handle(), q.handle(), 0, dim == null ? 0 : dim, dim == null ? 0 : 1, keepdim ? 1 : 0,
                mode.ordinal());
        Native.keepAlive(x, q);
        return Tensor.own(h);
    }

    /** The p-norm distances [B.., P, R] between the rows of x1 [B.., P, M] and x2 [B.., R, M]; computeMode as torch
     * (0: matmul form for p = 2 when P or R > 25, 1: always, 2: never). */
    @Op("cdist")
    public static Tensor cdist(Tensor x1, Tensor x2, double p, int computeMode) {
        long h = CT.cdist(x1.handle(), x2.handle(), p, computeMode);
        Native.keepAlive(x1, x2);
        return Tensor.own(h);
    }
}
