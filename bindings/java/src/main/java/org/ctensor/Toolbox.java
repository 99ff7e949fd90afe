// Toolbox.java - the everyday tensor toolbox of issue 14 for Java: static methods with torch's names (scatter_,
// scatterAdd_, indexAdd, indexCopy, indexPut and their in-place forms) over the C ABI; the in-place forms return
// their destination. Thin wrappers: the library checks the arguments and throws through the mapped exceptions.
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
}
