// Loss.java - loss functions as objects (torch.nn.CrossEntropyLoss, MSELoss, NLLLoss, BCELoss, BCEWithLogitsLoss,
// L1Loss, SmoothL1Loss, HuberLoss, KLDivLoss, the margin losses, PoissonNLLLoss, GaussianNLLLoss, CTCLoss) with torch's
// defaults; apply takes the loss's two or three inputs.
package org.ctensor.nn;

import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.ctensor.Tensor;

public final class Loss {
    private final int arity;
    private final Function<Tensor[], Tensor> fn;

    private Loss(int arity, Function<Tensor[], Tensor> fn) {
        this.arity = arity;
        this.fn = fn;
    }

    private Loss(BinaryOperator<Tensor> fn) {
        this(2, t -> fn.apply(t[0], t[1]));
    }

    /** A loss of three inputs (a named factory: a constructor overload would make method references ambiguous). */
    private static Loss ternary(Ternary fn) {
        return new Loss(3, t -> fn.apply(t[0], t[1], t[2]));
    }

    /** A loss of three tensors (margin ranking, cosine embedding, triplet margin, gaussian nll). */
    @FunctionalInterface
    public interface Ternary {
        Tensor apply(Tensor a, Tensor b, Tensor c);
    }

    /** The loss of input and target; an IllegalArgumentException for a loss of three inputs. */
    public Tensor apply(Tensor input, Tensor target) {
        return call(input, target);
    }

    /** The loss of three inputs; an IllegalArgumentException for a loss of two. */
    public Tensor apply(Tensor a, Tensor b, Tensor c) {
        return call(a, b, c);
    }

    private Tensor call(Tensor... inputs) {
        if (inputs.length != arity)
            throw new IllegalArgumentException("this loss takes " + arity + " tensors, got " + inputs.length);
        return fn.apply(inputs);
    }

    public static Loss crossEntropy() { return new Loss(Functional::crossEntropy); }
    public static Loss crossEntropy(Tensor weight, Reduction r, long ignoreIndex, double labelSmoothing) {
        return new Loss((x, y) -> Functional.crossEntropy(x, y, weight, r, ignoreIndex, labelSmoothing));
    }
    public static Loss nll() { return new Loss(Functional::nllLoss); }
    public static Loss mse() { return new Loss(Functional::mseLoss); }
    public static Loss mse(Reduction r) { return new Loss((x, y) -> Functional.mseLoss(x, y, r)); }
    public static Loss bce(Reduction r) { return new Loss((x, y) -> Functional.binaryCrossEntropy(x, y, r)); }
    public static Loss bceWithLogits(Reduction r) {
        return new Loss((x, y) -> Functional.binaryCrossEntropyWithLogits(x, y, r));
    }
    public static Loss l1(Reduction r) { return new Loss((x, y) -> Functional.l1Loss(x, y, r)); }
    public static Loss smoothL1(Reduction r, double beta) {
        return new Loss((x, y) -> Functional.smoothL1Loss(x, y, r, beta));
    }
    public static Loss huber(Reduction r, double delta) { return new Loss((x, y) -> Functional.huberLoss(x, y, r, delta)); }
    public static Loss klDiv(Reduction r, boolean logTarget) {
        return new Loss((x, y) -> Functional.klDiv(x, y, r, logTarget));
    }
    public static Loss softMargin(Reduction r) { return new Loss((x, y) -> Functional.softMarginLoss(x, y, r)); }
    public static Loss poissonNll(boolean logInput, boolean full, double eps, Reduction r) {
        return new Loss((x, y) -> Functional.poissonNllLoss(x, y, logInput, full, eps, r));
    }
    /** torch's defaults: log input, not full, eps 1e-8, mean. */
    public static Loss poissonNll() { return poissonNll(true, false, 1e-8, Reduction.MEAN); }
    public static Loss gaussianNll(boolean full, double eps, Reduction r) {
        return ternary((x, y, v) -> Functional.gaussianNllLoss(x, y, v, full, eps, r));
    }
    /** torch's defaults: not full, eps 1e-6, mean. */
    public static Loss gaussianNll() { return gaussianNll(false, 1e-6, Reduction.MEAN); }
    public static Loss hingeEmbedding(double margin, Reduction r) {
        return new Loss((x, y) -> Functional.hingeEmbeddingLoss(x, y, margin, r));
    }
    public static Loss marginRanking(double margin, Reduction r) {
        return ternary((a, b, y) -> Functional.marginRankingLoss(a, b, y, margin, r));
    }
    public static Loss multilabelSoftMargin(Tensor weight, Reduction r) {
        return new Loss((x, y) -> Functional.multilabelSoftMarginLoss(x, y, weight, r));
    }
    public static Loss multiMargin(long p, double margin, Tensor weight, Reduction r) {
        return new Loss((x, y) -> Functional.multiMarginLoss(x, y, p, margin, weight, r));
    }
    public static Loss cosineEmbedding(double margin, Reduction r) {
        return ternary((a, b, y) -> Functional.cosineEmbeddingLoss(a, b, y, margin, r));
    }
    public static Loss tripletMargin(double margin, double p, double eps, boolean swap, Reduction r) {
        return ternary((a, pos, neg) -> Functional.tripletMarginLoss(a, pos, neg, margin, p, eps, swap, r));
    }
    /** CTC with fixed lengths per sample: apply(logProbs, targets). */
    public static Loss ctc(long[] inputLengths, long[] targetLengths, long blank, Reduction r, boolean zeroInfinity) {
        return new Loss((lp, t) -> Functional.ctcLoss(lp, t, inputLengths, targetLengths, blank, r, zeroInfinity));
    }
    /** torch's defaults: margin 1, p 2, eps 1e-6, no swap, mean. */
    public static Loss tripletMargin() { return tripletMargin(1.0, 2.0, 1e-6, false, Reduction.MEAN); }
}
