// Functional.java - the neural-network functions of abi/ops.tsv as static methods (linear, losses, dropout,
// embedding, convolution and pooling); {h, w} arguments are long[2] arrays.
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Functional {
    private Functional() {}

    /** Wraps a new handle after a call that used the handles of keep (see Note [Keep alive] in Native.java). */
    static Tensor own(long h, Object... keep) {
        for (Object k : keep) java.lang.ref.Reference.reachabilityFence(k);
        return Tensor.fromHandle(h);
    }

    static long h(Tensor t) {
        return t == null ? 0 : t.handle();
    }

    /** x @ weight^T + bias (bias may be null). */
    @Op("linear")
    public static Tensor linear(Tensor x, Tensor weight, Tensor bias) {
        return own(CT.linear(x.handle(), weight.handle(), h(bias)), x, weight, bias);
    }

    @Op("cross_entropy")
    public static Tensor crossEntropy(Tensor logits, Tensor target, Reduction reduction, long ignoreIndex) {
        return own(CT.cross_entropy(logits.handle(), target.handle(), reduction.code, ignoreIndex), logits, target);
    }

    public static Tensor crossEntropy(Tensor logits, Tensor target) {
        return crossEntropy(logits, target, Reduction.MEAN, -100);
    }

    /** Cross entropy with class weights (may be null) and label smoothing in [0, 1]. */
    @Op("cross_entropy_ex")
    public static Tensor crossEntropy(Tensor logits, Tensor target, Tensor weight, Reduction reduction, long ignoreIndex,
                                      double labelSmoothing) {
        return own(CT.cross_entropy_ex(logits.handle(), target.handle(), h(weight), reduction.code, ignoreIndex, labelSmoothing), logits, target, weight);
    }

    @Op("nll_loss")
    public static Tensor nllLoss(Tensor logProbs, Tensor target, Reduction reduction, long ignoreIndex) {
        return own(CT.nll_loss(logProbs.handle(), target.handle(), reduction.code, ignoreIndex), logProbs, target);
    }

    public static Tensor nllLoss(Tensor logProbs, Tensor target) {
        return nllLoss(logProbs, target, Reduction.MEAN, -100);
    }

    @Op("nll_loss_ex")
    public static Tensor nllLoss(Tensor logProbs, Tensor target, Tensor weight, Reduction reduction, long ignoreIndex) {
        return own(CT.nll_loss_ex(logProbs.handle(), target.handle(), h(weight), reduction.code, ignoreIndex), logProbs, target, weight);
    }

    @Op("mse_loss")
    public static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
        return own(CT.mse_loss(input.handle(), target.handle(), reduction.code), input, target);
    }

    public static Tensor mseLoss(Tensor input, Tensor target) {
        return mseLoss(input, target, Reduction.MEAN);
    }

    @Op("binary_cross_entropy")
    public static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Reduction reduction) {
        return own(CT.binary_cross_entropy(probs.handle(), target.handle(), reduction.code), probs, target);
    }

    @Op("binary_cross_entropy_with_logits")
    public static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Reduction reduction) {
        return own(CT.binary_cross_entropy_with_logits(logits.handle(), target.handle(), reduction.code), logits, target);
    }

    @Op("dropout")
    public static Tensor dropout(Tensor x, double p, boolean training, Generator gen) {
        return own(CT.dropout(x.handle(), p, training ? 1 : 0, gen == null ? 0 : gen.handle()), x, gen);
    }

    @Op("embedding")
    public static Tensor embedding(Tensor weight, Tensor indices) {
        return own(CT.embedding(weight.handle(), indices.handle()), weight, indices);
    }

    @Op("conv2d")
    public static Tensor conv2d(Tensor x, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation,
                                long groups) {
        return own(CT.conv2d(x.handle(), weight.handle(), h(bias), stride, padding, dilation, groups), x, weight, bias);
    }

    @Op("max_pool2d")
    public static Tensor maxPool2d(Tensor x, long[] kernel, long[] stride, long[] padding) {
        return own(CT.max_pool2d(x.handle(), kernel, stride, padding), x);
    }

    /** Max pooling with dilation and ceil mode; returns {output, int64 argmax indices}. */
    @Op("max_pool2d_ex")
    public static Tensor[] maxPool2dWithIndices(Tensor x, long[] kernel, long[] stride, long[] padding, long[] dilation,
                                                boolean ceilMode) {
        long[] idx = new long[1];
        long out = CT.max_pool2d_ex(x.handle(), kernel, stride, padding, dilation, ceilMode ? 1 : 0, idx);
        java.lang.ref.Reference.reachabilityFence(x);
        return new Tensor[] {own(out), own(idx[0])};
    }

    @Op("avg_pool2d")
    public static Tensor avgPool2d(Tensor x, long[] kernel, long[] stride, long[] padding) {
        return own(CT.avg_pool2d(x.handle(), kernel, stride, padding), x);
    }

    @Op("avg_pool2d_ex")
    public static Tensor avgPool2d(Tensor x, long[] kernel, long[] stride, long[] padding, boolean ceilMode,
                                   boolean countIncludePad, long divisorOverride) {
        return own(CT.avg_pool2d_ex(x.handle(), kernel, stride, padding, ceilMode ? 1 : 0, countIncludePad ? 1 : 0, divisorOverride), x);
    }

    @Op("adaptive_avg_pool2d")
    public static Tensor adaptiveAvgPool2d(Tensor x, long[] outputSize) {
        return own(CT.adaptive_avg_pool2d(x.handle(), outputSize), x);
    }

    /** Adaptive max pooling; returns {output, int64 argmax indices}. */
    @Op("adaptive_max_pool2d")
    public static Tensor[] adaptiveMaxPool2d(Tensor x, long[] outputSize) {
        long[] idx = new long[1];
        long out = CT.adaptive_max_pool2d(x.handle(), outputSize, idx);
        java.lang.ref.Reference.reachabilityFence(x);
        return new Tensor[] {own(out), own(idx[0])};
    }
}
