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

    /** |input - target| (broadcast). */
    @Op("l1_loss")
    public static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
        return own(CT.l1_loss(input.handle(), target.handle(), reduction.code), input, target);
    }

    /** 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target, beta >= 0). */
    @Op("smooth_l1_loss")
    public static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
        return own(CT.smooth_l1_loss(input.handle(), target.handle(), reduction.code, beta), input, target);
    }

    /** 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (d = input - target, delta > 0). */
    @Op("huber_loss")
    public static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
        return own(CT.huber_loss(input.handle(), target.handle(), reduction.code, delta), input, target);
    }

    /** KL divergence of log-probabilities input from target (or from log-target); reduction may be BATCHMEAN. */
    @Op("kl_div")
    public static Tensor klDiv(Tensor input, Tensor target, Reduction reduction, boolean logTarget) {
        return own(CT.kl_div(input.handle(), target.handle(), reduction.code, logTarget ? 1 : 0), input, target);
    }

    /** log(1 + exp(-target * input)); target broadcasts to the input's shape. */
    @Op("soft_margin_loss")
    public static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
        return own(CT.soft_margin_loss(input.handle(), target.handle(), reduction.code), input, target);
    }

    /** Poisson NLL: exp(input) - target input (logInput), else input - target log(input + eps); full adds Stirling's term. */
    @Op("poisson_nll_loss")
    public static Tensor poissonNllLoss(Tensor input, Tensor target, boolean logInput, boolean full, double eps,
                                        Reduction reduction) {
        return own(CT.poisson_nll_loss(input.handle(), target.handle(), reduction.code, logInput ? 1 : 0, full ? 1 : 0, eps),
                   input, target);
    }

    /** Gaussian NLL 0.5 (log v + (input - target)^2 / v), v = max(var, eps); full adds 0.5 log(2 pi). */
    @Op("gaussian_nll_loss")
    public static Tensor gaussianNllLoss(Tensor input, Tensor target, Tensor var, boolean full, double eps,
                                         Reduction reduction) {
        return own(CT.gaussian_nll_loss(input.handle(), target.handle(), var.handle(), reduction.code, full ? 1 : 0, eps),
                   input, target, var);
    }

    /** input where target is 1, max(margin - input, 0) where it is -1. */
    @Op("hinge_embedding_loss")
    public static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
        return own(CT.hinge_embedding_loss(input.handle(), target.handle(), reduction.code, margin), input, target);
    }

    /** max(-target (input1 - input2) + margin, 0); the three have the same number of dims. */
    @Op("margin_ranking_loss")
    public static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
        return own(CT.margin_ranking_loss(input1.handle(), input2.handle(), target.handle(), reduction.code, margin),
                   input1, input2, target);
    }

    /** Binary cross entropy of sigmoid(input) against 0/1 targets times weight (may be null), averaged over classes. */
    @Op("multilabel_soft_margin_loss")
    public static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
        return own(CT.multilabel_soft_margin_loss(input.handle(), target.handle(), h(weight), reduction.code),
                   input, target, weight);
    }

    /** Multi-class hinge loss of input [N, C] against int64 classes [N] (p 1 or 2; weight [C] may be null). */
    @Op("multi_margin_loss")
    public static Tensor multiMarginLoss(Tensor input, Tensor target, long p, double margin, Tensor weight,
                                         Reduction reduction) {
        return own(CT.multi_margin_loss(input.handle(), target.handle(), reduction.code, p, margin, h(weight)),
                   input, target, weight);
    }

    /** 1 - cos(input1, input2) where target is 1, max(cos - margin, 0) where it is -1. */
    @Op("cosine_embedding_loss")
    public static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target, double margin,
                                             Reduction reduction) {
        return own(CT.cosine_embedding_loss(input1.handle(), input2.handle(), target.handle(), reduction.code, margin),
                   input1, input2, target);
    }

    /** max(margin + d(anchor, positive) - d(anchor, negative), 0), d the p-norm of x1 - x2 + eps over the last dim. */
    @Op("triplet_margin_loss")
    public static Tensor tripletMarginLoss(Tensor anchor, Tensor positive, Tensor negative, double margin, double p,
                                           double eps, boolean swap, Reduction reduction) {
        return own(CT.triplet_margin_loss(anchor.handle(), positive.handle(), negative.handle(), reduction.code, margin, p,
                                          eps, swap ? 1 : 0), anchor, positive, negative);
    }

    /** CTC loss of logProbs [T, N, C] (or [T, C]) against targets [N, S] or concatenated; one input and one target
     *  length per sample. Mean divides each loss by its target length, then averages. */
    @Op("ctc_loss")
    public static Tensor ctcLoss(Tensor logProbs, Tensor targets, long[] inputLengths, long[] targetLengths, long blank,
                                 Reduction reduction, boolean zeroInfinity) {
        if (inputLengths.length != targetLengths.length)
            throw new IllegalArgumentException("ctcLoss: " + inputLengths.length + " input lengths and " + targetLengths.length
                                               + " target lengths");
        return own(CT.ctc_loss(logProbs.handle(), targets.handle(), inputLengths, targetLengths, inputLengths.length,
                               reduction.code, blank, zeroInfinity ? 1 : 0), logProbs, targets);
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
    /**
     * softmax(q k^T * scale + mask) v for q [..., L, E], k [..., S, E], v [..., S, Ev]; attnMask null, bool (true =
     * attend) or floating (added), broadcastable to [..., L, S]; isCausal masks key j &gt; query i; scale NaN = 1/sqrt(E);
     * dropoutP of the probabilities dropped, drawn from gen (null: the default generator).
     */
    @Op("scaled_dot_product_attention")
    public static Tensor scaledDotProductAttention(Tensor q, Tensor k, Tensor v, Tensor attnMask, double dropoutP,
                                                   boolean isCausal, double scale, Generator gen) {
        return own(CT.scaled_dot_product_attention(q.handle(), k.handle(), v.handle(), h(attnMask), dropoutP,
                                                   isCausal ? 1 : 0, scale, gen == null ? 0 : gen.handle()),
                   q, k, v, attnMask, gen);
    }

    /**
     * torch's multi_head_attention_forward with a packed in-projection: query [L, N, E], key/value [S, N, E],
     * inProjWeight [3E, E], outProjWeight [E, E] (biases and masks may be null; masks bool = not allowed, or floating
     * = added). Returns {output [L, N, E], weights [N, L, S] averaged over heads, or null without needWeights}.
     */
    @Op("multi_head_attention_forward")
    public static Tensor[] multiHeadAttentionForward(Tensor query, Tensor key, Tensor value, long numHeads,
                                                     Tensor inProjWeight, Tensor inProjBias, Tensor outProjWeight,
                                                     Tensor outProjBias, Tensor keyPaddingMask, Tensor attnMask,
                                                     boolean needWeights, double dropoutP, boolean training,
                                                     Generator gen) {
        long[] w = new long[1];
        long out = CT.multi_head_attention_forward(query.handle(), key.handle(), value.handle(), numHeads,
                                                   inProjWeight.handle(), h(inProjBias), 0, 0, 0, dropoutP,
                                                   outProjWeight.handle(), h(outProjBias), training ? 1 : 0,
                                                   h(keyPaddingMask), needWeights ? 1 : 0, h(attnMask), 0, 0, 0, 1, 0,
                                                   gen == null ? 0 : gen.handle(), w);
        Tensor o = own(out, query, key, value, inProjWeight, inProjBias, outProjWeight, outProjBias, keyPaddingMask,
                       attnMask, gen);
        return new Tensor[] {o, w[0] == 0 ? null : Tensor.fromHandle(w[0])};
    }
}
