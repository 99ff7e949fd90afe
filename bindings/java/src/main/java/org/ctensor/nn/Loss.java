// Loss.java - loss functions as objects (torch.nn.CrossEntropyLoss, MSELoss, NLLLoss, BCELoss, BCEWithLogitsLoss).
package org.ctensor.nn;

import java.util.function.BinaryOperator;
import org.ctensor.Tensor;

public final class Loss {
    private final BinaryOperator<Tensor> fn;

    private Loss(BinaryOperator<Tensor> fn) {
        this.fn = fn;
    }

    public Tensor apply(Tensor input, Tensor target) {
        return fn.apply(input, target);
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
}
