// Activation.java - parameter-free layers: relu, tanh, sigmoid, gelu, silu, softmax, logSoftmax, flatten.
package org.ctensor.nn;

import java.util.function.UnaryOperator;
import org.ctensor.Tensor;

public final class Activation extends Module {
    private final UnaryOperator<Tensor> fn;

    public Activation(UnaryOperator<Tensor> fn) {
        this.fn = fn;
    }

    public static Activation relu() { return new Activation(Tensor::relu); }
    public static Activation tanh() { return new Activation(Tensor::tanh); }
    public static Activation sigmoid() { return new Activation(Tensor::sigmoid); }
    public static Activation gelu() { return new Activation(Tensor::gelu); }
    public static Activation silu() { return new Activation(Tensor::silu); }
    public static Activation softmax(long dim) { return new Activation(x -> x.softmax(dim)); }
    public static Activation logSoftmax(long dim) { return new Activation(x -> x.logSoftmax(dim)); }
    /** Flattens every dim after the first (torch.nn.Flatten). */
    public static Activation flatten() { return new Activation(x -> x.flatten(1, -1)); }

    @Override
    public Tensor forward(Tensor x) {
        return fn.apply(x);
    }
}
