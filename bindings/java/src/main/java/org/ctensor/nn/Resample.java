// Resample.java - torch.nn.functional.interpolate over ct_interpolate: nearest, nearest-exact, linear (bi-, tri-),
// bicubic and area on [N, C, d1..dk] tensors (k = 1..3), to a size or by scale factors; differentiable.
package org.ctensor.nn;

import static org.ctensor.nn.Functional.own;

import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Resample {
    private Resample() {}

    /** Sampling modes (CT_INTERP_* codes); LINEAR is linear / bilinear / trilinear by the spatial rank. */
    public enum Mode {
        NEAREST(0), NEAREST_EXACT(1), LINEAR(2), BICUBIC(3), AREA(4);
        final int code;

        Mode(int code) {
            this.code = code;
        }
    }

    /** interpolate(x) to size (one per spatial dim) or by scaleFactor (one per spatial dim; the other null);
     *  alignCorners null = unset (LINEAR and BICUBIC only); recompute: interpolate at the computed size. */
    @Op("interpolate")
    public static Tensor interpolate(Tensor x, long[] size, double[] scaleFactor, Mode mode, Boolean alignCorners,
                                     boolean recompute) {
        double[] f = scaleFactor == null ? new double[0] : scaleFactor;
        int n = f.length;
        return own(CT.ctj_interpolate(x.handle(), size, n > 0 ? f[0] : 0, n > 1 ? f[1] : 0, n > 2 ? f[2] : 0,
                                      n > 3 ? 4 : n, mode.code, alignCorners == null ? -1 : (alignCorners ? 1 : 0),
                                      recompute ? 1 : 0), x);
    }
}
