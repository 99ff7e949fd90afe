// Activation.java - layers without parameters to learn: the activations (relu ... glu), softmax, logSoftmax,
// flatten.
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
    public static Activation elu(double alpha) { return new Activation(x -> x.elu(alpha)); }
    public static Activation selu() { return new Activation(Tensor::selu); }
    public static Activation celu(double alpha) { return new Activation(x -> x.celu(alpha)); }
    public static Activation leakyRelu(double negativeSlope) { return new Activation(x -> x.leakyRelu(negativeSlope)); }
    public static Activation hardtanh(double minVal, double maxVal) { return new Activation(x -> x.hardtanh(minVal, maxVal)); }
    public static Activation relu6() { return new Activation(Tensor::relu6); }
    public static Activation hardsigmoid() { return new Activation(Tensor::hardsigmoid); }
    public static Activation hardswish() { return new Activation(Tensor::hardswish); }
    public static Activation softshrink(double lambd) { return new Activation(x -> x.softshrink(lambd)); }
    public static Activation hardshrink(double lambd) { return new Activation(x -> x.hardshrink(lambd)); }
    public static Activation threshold(double threshold, double value) { return new Activation(x -> x.threshold(threshold, value)); }
    public static Activation mish() { return new Activation(Tensor::mish); }
    public static Activation logSigmoid() { return new Activation(Tensor::logSigmoid); }
    public static Activation softsign() { return new Activation(Tensor::softsign); }
    public static Activation tanhshrink() { return new Activation(Tensor::tanhshrink); }
    public static Activation softmin(long dim) { return new Activation(x -> x.softmin(dim)); }
    public static Activation glu(long dim) { return new Activation(x -> x.glu(dim)); }
    public static Activation softmax(long dim) { return new Activation(x -> x.softmax(dim)); }
    public static Activation logSoftmax(long dim) { return new Activation(x -> x.logSoftmax(dim)); }
    /** Flattens every dim after the first (torch.nn.Flatten). */
    public static Activation flatten() { return new Activation(x -> x.flatten(1, -1)); }

    @Override
    public Tensor forward(Tensor x) {
        return fn.apply(x);
    }
}
