// ConvNd.java - issue 14's ops as static methods: N-d (transposed) convolution (conv1d/2d/3d, convTranspose1d/2d/3d),
// N-d pooling (arrays of N = 1, 2 or 3 values), unfold / fold ({h, w} arrays) and pixel_shuffle / pixel_unshuffle.
package org.ctensor.nn;

import static org.ctensor.nn.Functional.h;
import static org.ctensor.nn.Functional.own;

import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class ConvNd {
    private ConvNd() {}

    /** The arrays one after another (the packed form of the ctj_* wrappers); their common length is the rank. */
    static long[] packed(long[]... arrays) {
        int n = arrays[0].length, at = 0;
        long[] out = new long[n * arrays.length];
        for (long[] a : arrays) {
            if (a.length != n)
                throw new IllegalArgumentException("expected arrays of " + n + " values (one per spatial dim), got " + a.length);
            System.arraycopy(a, 0, out, at, n);
            at += n;
        }
        return out;
    }

    /** N-d convolution (N = stride.length); transposed: weight [C, O/groups, k...] and outputPadding. */
    @Op("convolution")
    public static Tensor convolution(Tensor x, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation,
                                     boolean transposed, long[] outputPadding, long groups) {
        long[] dims = packed(stride, padding, dilation, outputPadding);
        return own(CT.ctj_convolution(x.handle(), weight.handle(), h(bias), dims, transposed ? 1 : 0, groups), x, weight, bias);
    }

    public static Tensor conv1d(Tensor x, Tensor weight, Tensor bias, long stride, long padding, long dilation, long groups) {
        return convolution(x, weight, bias, new long[] {stride}, new long[] {padding}, new long[] {dilation}, false,
                           new long[] {0}, groups);
    }

    public static Tensor conv3d(Tensor x, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation,
                                long groups) {
        return convolution(x, weight, bias, stride, padding, dilation, false, new long[3], groups);
    }

    /** Transposed convolution over stride.length spatial dims. */
    public static Tensor convTranspose(Tensor x, Tensor weight, Tensor bias, long[] stride, long[] padding,
                                       long[] outputPadding, long groups, long[] dilation) {
        return convolution(x, weight, bias, stride, padding, dilation, true, outputPadding, groups);
    }

    /** Max pooling over kernel.length spatial dims; returns {output, int64 argmax (flat per input plane)}. */
    @Op("max_pool_nd")
    public static Tensor[] maxPool(Tensor x, long[] kernel, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        long[] idx = new long[1];
        long out = CT.ctj_max_pool_nd(x.handle(), packed(kernel, stride, padding, dilation), ceilMode ? 1 : 0, idx);
        java.lang.ref.Reference.reachabilityFence(x);
        return new Tensor[] {own(out), own(idx[0])};
    }

    @Op("avg_pool_nd")
    public static Tensor avgPool(Tensor x, long[] kernel, long[] stride, long[] padding, boolean ceilMode,
                                 boolean countIncludePad, long divisorOverride) {
        return own(CT.ctj_avg_pool_nd(x.handle(), packed(kernel, stride, padding), ceilMode ? 1 : 0, countIncludePad ? 1 : 0,
                                      divisorOverride), x);
    }

    @Op("adaptive_avg_pool_nd")
    public static Tensor adaptiveAvgPool(Tensor x, long[] outputSize) {
        return own(CT.ctj_adaptive_avg_pool_nd(x.handle(), outputSize), x);
    }

    /** Returns {output, int64 argmax}. */
    @Op("adaptive_max_pool_nd")
    public static Tensor[] adaptiveMaxPool(Tensor x, long[] outputSize) {
        long[] idx = new long[1];
        long out = CT.ctj_adaptive_max_pool_nd(x.handle(), outputSize, idx);
        java.lang.ref.Reference.reachabilityFence(x);
        return new Tensor[] {own(out), own(idx[0])};
    }

    /** Sliding blocks [N, C, H, W] -> [N, C * kh * kw, L]; arrays are {h, w}. */
    @Op("unfold")
    public static Tensor unfold(Tensor x, long[] kernel, long[] dilation, long[] padding, long[] stride) {
        return own(CT.unfold(x.handle(), kernel, dilation, padding, stride), x);
    }

    /** The adjoint of unfold: blocks summed into [N, C, outputSize...]. */
    @Op("fold")
    public static Tensor fold(Tensor x, long[] outputSize, long[] kernel, long[] dilation, long[] padding, long[] stride) {
        return own(CT.fold(x.handle(), outputSize, kernel, dilation, padding, stride), x);
    }

    @Op("pixel_shuffle")
    public static Tensor pixelShuffle(Tensor x, long upscaleFactor) {
        return own(CT.pixel_shuffle(x.handle(), upscaleFactor), x);
    }

    @Op("pixel_unshuffle")
    public static Tensor pixelUnshuffle(Tensor x, long downscaleFactor) {
        return own(CT.pixel_unshuffle(x.handle(), downscaleFactor), x);
    }
}
