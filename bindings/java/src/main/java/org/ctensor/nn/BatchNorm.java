// BatchNorm.java - batch normalisation over dim 1 of [N, C] or [N, C, H, W] input (torch.nn.BatchNorm1d/2d):
// batch statistics and running-average updates in training, running statistics in eval (Norms.batchNorm).
package org.ctensor.nn;

import org.ctensor.Tensor;

public final class BatchNorm extends Module {
    public final Tensor weight, bias, runningMean, runningVar;
    private final double eps, momentum;

    public BatchNorm(long channels, double eps, double momentum) {
        this.eps = eps;
        this.momentum = momentum;
        weight = registerParameter("weight", Tensor.ones(channels));
        bias = registerParameter("bias", Tensor.zeros(channels));
        runningMean = registerBuffer("running_mean", Tensor.zeros(channels));
        runningVar = registerBuffer("running_var", Tensor.ones(channels));
    }

    public BatchNorm(long channels) {
        this(channels, 1e-5, 0.1);
    }

    @Override
    public Tensor forward(Tensor x) {
        int nd = x.dim();
        if (nd != 2 && nd != 4) throw new IllegalArgumentException("BatchNorm: expected [N, C] or [N, C, H, W], got " + nd + "-d input");
        return Norms.batchNorm(x, runningMean, runningVar, weight, bias, training, momentum, eps);
    }
}
