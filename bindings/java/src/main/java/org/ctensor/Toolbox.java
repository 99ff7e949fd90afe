// Toolbox.java - the everyday tensor toolbox of issue 14 for Java: static methods with torch's names (scatter_,
// scatterAdd_, indexAdd, indexCopy, indexPut and their in-place forms, searchsorted, bucketize, bincount, histc,
// cummax, cummin, nanToNum, diff, takeAlongDim, finfo, iinfo) over the C ABI; the in-place forms return their destination. Thin wrappers: the library checks
// the arguments and throws through the mapped exceptions.
package org.ctensor;

import org.ctensor.internal.CT;

public final class Toolbox {
    private Toolbox() {}

    /** dst.scatter_(dim, index, src): src written at index along dim, in place. */
    @Op("scatter_")
    public static Tensor scatterInPlace(Tensor dst, long dim, Tensor index, Tensor src) {
        CT.scatter_(dst.handle(), dim, index.handle(), src.handle());
        Native.keepAlive(dst, index);
        Native.keepAlive(src);
        return dst;
    }

    /** dst.scatter_add_(dim, index, src): src added at index along dim, in place. */
    @Op("scatter_add_")
    public static Tensor scatterAddInPlace(Tensor dst, long dim, Tensor index, Tensor src) {
        CT.scatter_add_(dst.handle(), dim, index.handle(), src.handle());
        Native.keepAlive(dst, index);
        Native.keepAlive(src);
        return dst;
    }

    /** How scatterReduce combines the values written to one position (torch's reduce; the C ABI's CT_SCATTER_*). */
    public enum ScatterReduce {
        SUM, PROD, MEAN, AMAX, AMIN
    }

    /**
     * x.scatter_reduce(dim, index, src, reduce, include_self): a copy of x where each src value (over index's shape)
     * is combined into the position index names along dim, with x's own value when includeSelf.
     */
    @Op("scatter_reduce")
    public static Tensor scatterReduce(Tensor x, long dim, Tensor index, Tensor src, ScatterReduce reduce,
            boolean includeSelf) {
        long h = CT.scatter_reduce(x.handle(), dim, index.handle(), src.handle(), reduce.ordinal(), includeSelf ? 1 : 0);
        Native.keepAlive(x, index);
        return Tensor.own(h, src);
    }

    /** scatterReduce written into dst. */
    @Op("scatter_reduce_")
    public static Tensor scatterReduceInPlace(Tensor dst, long dim, Tensor index, Tensor src, ScatterReduce reduce,
            boolean includeSelf) {
        CT.scatter_reduce_(dst.handle(), dim, index.handle(), src.handle(), reduce.ordinal(), includeSelf ? 1 : 0);
        Native.keepAlive(dst, index);
        Native.keepAlive(src);
        return dst;
    }

    /** A copy of x with alpha * src's slices along dim added at the 1-D index (duplicates sum). */
    @Op("index_add")
    public static Tensor indexAdd(Tensor x, long dim, Tensor index, Tensor src, double alpha) {
        long h = CT.index_add(x.handle(), dim, index.handle(), src.handle(), alpha);
        Native.keepAlive(x, index);
        return Tensor.own(h, src);
    }

    /** indexAdd written into dst. */
    @Op("index_add_")
    public static Tensor indexAddInPlace(Tensor dst, long dim, Tensor index, Tensor src, double alpha) {
        CT.index_add_(dst.handle(), dim, index.handle(), src.handle(), alpha);
        Native.keepAlive(dst, index);
        Native.keepAlive(src);
        return dst;
    }

    /** A copy of x with src's slices along dim copied to the 1-D index. */
    @Op("index_copy")
    public static Tensor indexCopy(Tensor x, long dim, Tensor index, Tensor src) {
        long h = CT.index_copy(x.handle(), dim, index.handle(), src.handle());
        Native.keepAlive(x, index);
        return Tensor.own(h, src);
    }

    /** indexCopy written into dst. */
    @Op("index_copy_")
    public static Tensor indexCopyInPlace(Tensor dst, long dim, Tensor index, Tensor src) {
        CT.index_copy_(dst.handle(), dim, index.handle(), src.handle());
        Native.keepAlive(dst, index);
        Native.keepAlive(src);
        return dst;
    }

    /** A copy of x with x[indices...] = values (or += when accumulate); the indices broadcast together and
     * pick positions in x's first indices.length dims (negative values count from the end). */
    @Op("index_put")
    public static Tensor indexPut(Tensor x, Tensor[] indices, Tensor values, boolean accumulate) {
        long h = CT.index_put(x.handle(), TensorCore.handles(indices), values.handle(), accumulate ? 1 : 0);
        Native.keepAlive(x, indices);
        return Tensor.own(h, values);
    }

    /** indexPut written into dst. */
    @Op("index_put_")
    public static Tensor indexPutInPlace(Tensor dst, Tensor[] indices, Tensor values, boolean accumulate) {
        CT.index_put_(dst.handle(), TensorCore.handles(indices), values.handle(), accumulate ? 1 : 0);
        Native.keepAlive(dst, indices);
        Native.keepAlive(values);
        return dst;
    }

    private static long opt(Tensor t) {
        return t == null ? 0 : t.handle();
    }

    /** Where each of values would be inserted into the last dim of sortedSequence (the first element >= it; right:
     * >); int64, or int32 with outInt32; sorter (null: none) is the int64 order that sorts the sequence. */
    @Op("searchsorted")
    public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right, boolean outInt32, Tensor sorter) {
        long h = CT.searchsorted(sortedSequence.handle(), values.handle(), right ? 1 : 0, outInt32 ? 1 : 0, opt(sorter));
        Native.keepAlive(sortedSequence, values);
        return Tensor.own(h, sorter);
    }

    /** torch.bucketize: the bucket of each element of input among the sorted 1-D boundaries. */
    public static Tensor bucketize(Tensor input, Tensor boundaries, boolean right, boolean outInt32) {
        return searchsorted(boundaries, input, right, outInt32, null);
    }

    /** Counts of each value of the non-negative 1-D integer x (sums of weights when not null), >= minlength bins. */
    @Op("bincount")
    public static Tensor bincount(Tensor x, Tensor weights, long minlength) {
        long h = CT.bincount(x.handle(), opt(weights), minlength);
        Native.keepAlive(x);
        return Tensor.own(h, weights);
    }

    /** The histogram of floating x over bins equal bins of [min, max] (min == max: the data's range). */
    @Op("histc")
    public static Tensor histc(Tensor x, long bins, double min, double max) {
        return Tensor.own(CT.histc(x.handle(), bins, min, max), x);
    }

    /** The running maximum along dim and the int64 position it came from (differentiable in the values). */
    @Op("cummax")
    public static Tensor.Pair cummax(Tensor x, long dim) {
        long[] v = new long[1], i = new long[1];
        CT.cummax(x.handle(), dim, v, i);
        Native.keepAlive(x);
        return Tensor.Pair.own(v, i);
    }

    /** The running minimum along dim and the int64 position it came from (differentiable in the values). */
    @Op("cummin")
    public static Tensor.Pair cummin(Tensor x, long dim) {
        long[] v = new long[1], i = new long[1];
        CT.cummin(x.handle(), dim, v, i);
        Native.keepAlive(x);
        return Tensor.Pair.own(v, i);
    }

    /** x with NaN, +inf and -inf replaced (null: torch's defaults 0, the dtype's max, its lowest). */
    @Op("nan_to_num")
    public static Tensor nanToNum(Tensor x, Double nan, Double posinf, Double neginf) {
        long h = CT.nan_to_num(x.handle(), nan == null ? 0 : nan, nan == null ? 0 : 1, posinf == null ? 0 : posinf,
                posinf == null ? 0 : 1, neginf == null ? 0 : neginf, neginf == null ? 0 : 1);
        return Tensor.own(h, x);
    }

    /** The n-th forward difference along dim, with prepend / append (null: none) joined before / after. */
    @Op("diff")
    public static Tensor diff(Tensor x, long n, long dim, Tensor prepend, Tensor append) {
        long h = CT.diff(x.handle(), n, dim, opt(prepend), opt(append));
        Native.keepAlive(x, prepend);
        return Tensor.own(h, append);
    }

    /** Gathers along dim after broadcasting x and indices in every other dim (dim null: over the flattened x). */
    @Op("take_along_dim")
    public static Tensor takeAlongDim(Tensor x, Tensor indices, Long dim) {
        long h = CT.take_along_dim(x.handle(), indices.handle(), dim == null ? 0 : dim, dim == null ? 0 : 1);
        Native.keepAlive(x);
        return Tensor.own(h, indices);
    }

    /** torch.finfo: the limits of a floating dtype, read from the library. */
    public static final class FInfo {
        public final int bits;
        public final double eps, max, min, tiny, resolution;

        FInfo(DType d) {
            bits = (int) field(d, CT.CT_FINFO_BITS);
            eps = field(d, CT.CT_FINFO_EPS);
            max = field(d, CT.CT_FINFO_MAX);
            min = field(d, CT.CT_FINFO_MIN);
            tiny = field(d, CT.CT_FINFO_TINY);
            resolution = field(d, CT.CT_FINFO_RESOLUTION);
        }

        private static double field(DType d, int f) {
            return Double.longBitsToDouble(CT.finfo(d.code, f));
        }
    }

    /** torch.iinfo: the limits of an integer dtype, read from the library. */
    public static final class IInfo {
        public final int bits;
        public final long min, max;

        IInfo(DType d) {
            bits = (int) CT.iinfo(d.code, CT.CT_IINFO_BITS);
            min = CT.iinfo(d.code, CT.CT_IINFO_MIN);
            max = CT.iinfo(d.code, CT.CT_IINFO_MAX);
        }
    }

    /** The limits of floating dtype (DTypeException for others). */
    public static FInfo finfo(DType dtype) {
        return new FInfo(dtype);
    }

    /** The limits of integer dtype (DTypeException for others). */
    public static IInfo iinfo(DType dtype) {
        return new IInfo(dtype);
    }
}
