// GroupNorm.java - torch.nn.GroupNorm: [N, C, *] normalised in numGroups groups of channels per sample, then a
// learnt weight (ones) and bias (zeros) per channel (Norms.groupNorm).
package org.ctensor.nn;

import org.ctensor.Tensor;

public final class GroupNorm extends Module {
    public final Tensor weight, bias;
    private final long numGroups;
    private final double eps;

    public GroupNorm(long numGroups, long channels, double eps) {
        this.numGroups = numGroups;
        this.eps = eps;
        weight = registerParameter("weight", Tensor.ones(channels));
        bias = registerParameter("bias", Tensor.zeros(channels));
    }

    public GroupNorm(long numGroups, long channels) {
        this(numGroups, channels, 1e-5);
    }

    @Override
    public Tensor forward(Tensor x) {
        return Norms.groupNorm(x, numGroups, weight, bias, eps);
    }
}
