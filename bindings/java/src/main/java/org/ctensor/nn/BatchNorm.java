// BatchNorm.java - batch normalisation over dim 1 of [N, C] or [N, C, H, W] input (torch.nn.BatchNorm1d/2d):
// batch statistics and running-average updates in training, running statistics in eval.
package org.ctensor.nn;

import org.ctensor.NoGrad;
import org.ctensor.Tensor;
import org.ctensor.TensorScope;

public final class BatchNorm extends Module {
    public final Tensor weight, bias, runningMean, runningVar;
    private final double eps, momentum;
    private final long channels;

    public BatchNorm(long channels, double eps, double momentum) {
        this.channels = channels;
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
        long[] dims = nd == 2 ? new long[] {0} : new long[] {0, 2, 3};
        long[] bshape = nd == 2 ? new long[] {1, channels} : new long[] {1, channels, 1, 1};
        try (TensorScope scope = new TensorScope()) {
            Tensor mean, var;
            if (training) {
                mean = x.mean(dims, true);
                var = x.var(dims, 0.0, true);
                try (NoGrad ng = new NoGrad()) {
                    double n = (double) x.numel() / channels;
                    Tensor unbiased = var.mul(n / Math.max(1.0, n - 1)).reshape(channels);
                    runningMean.mulInPlace(1 - momentum).addInPlace(mean.reshape(channels), momentum);
                    runningVar.mulInPlace(1 - momentum).addInPlace(unbiased, momentum);
                }
            } else {
                mean = runningMean.reshape(bshape);
                var = runningVar.reshape(bshape);
            }
            Tensor y = x.sub(mean).mul(var.add(eps).rsqrt()).mul(weight.reshape(bshape)).add(bias.reshape(bshape));
            return scope.keep(y);
        }
    }
}
