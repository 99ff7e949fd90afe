// Conv2d.java - 2-D convolution over NCHW input, initialised like torch.nn.Conv2d (U(+-1/sqrt(fan_in))).
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Tensor;

public final class Conv2d extends Module {
    public final Tensor weight;
    public final Tensor bias;
    private final long[] stride, padding, dilation;
    private final long groups;

    public Conv2d(long inChannels, long outChannels, long kernel, long stride, long padding, Generator gen) {
        this(inChannels, outChannels, new long[] {kernel, kernel}, new long[] {stride, stride},
                new long[] {padding, padding}, new long[] {1, 1}, 1, true, gen);
    }

    public Conv2d(long inChannels, long outChannels, long[] kernel, long[] stride, long[] padding, long[] dilation,
                  long groups, boolean withBias, Generator gen) {
        if (groups <= 0 || inChannels % groups != 0)
            throw new IllegalArgumentException("Conv2d: groups " + groups + " must divide inChannels " + inChannels);
        double bound = 1.0 / Math.sqrt((double) (inChannels / groups) * kernel[0] * kernel[1]);
        weight = registerParameter("weight", uniform(gen, bound, outChannels, inChannels / groups, kernel[0], kernel[1]));
        bias = withBias ? registerParameter("bias", uniform(gen, bound, outChannels)) : null;
        this.stride = stride.clone();
        this.padding = padding.clone();
        this.dilation = dilation.clone();
        this.groups = groups;
    }

    @Override
    public Tensor forward(Tensor x) {
        return Functional.conv2d(x, weight, bias, stride, padding, dilation, groups);
    }
}
