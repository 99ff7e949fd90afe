// LayerNorm.java - torch.nn.LayerNorm: normalisation over the last dims (normalizedShape) with a learnt weight
// (ones) and bias (zeros) of that shape (Norms.layerNorm).
package org.ctensor.nn;

import org.ctensor.Tensor;

public final class LayerNorm extends Module {
    public final Tensor weight, bias;
    private final long[] normalizedShape;
    private final double eps;

    public LayerNorm(long[] normalizedShape, double eps) {
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        weight = registerParameter("weight", Tensor.ones(normalizedShape));
        bias = registerParameter("bias", Tensor.zeros(normalizedShape));
    }

    public LayerNorm(long features) {
        this(new long[] {features}, 1e-5);
    }

    @Override
    public Tensor forward(Tensor x) {
        return Norms.layerNorm(x, normalizedShape, weight, bias, eps);
    }
}
