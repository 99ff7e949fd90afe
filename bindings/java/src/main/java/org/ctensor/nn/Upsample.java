// Upsample.java - torch.nn.Upsample: Resample.interpolate with fixed options, no parameters.
package org.ctensor.nn;

import org.ctensor.Tensor;

public final class Upsample extends Module {
    public final long[] size;
    public final double[] scaleFactor;
    public final Resample.Mode mode;
    public final Boolean alignCorners;

    /** size or scaleFactor (the other null); alignCorners null = unset. */
    public Upsample(long[] size, double[] scaleFactor, Resample.Mode mode, Boolean alignCorners) {
        this.size = size;
        this.scaleFactor = scaleFactor;
        this.mode = mode;
        this.alignCorners = alignCorners;
    }

    @Override
    public Tensor forward(Tensor x) {
        return Resample.interpolate(x, size, scaleFactor, mode, alignCorners, false);
    }
}
