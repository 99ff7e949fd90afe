// Norms.java - the normalisation layers (torch's layer_norm, group_norm, batch_norm), thin wrappers of the C ABI's
// fused ct_layer_norm / ct_group_norm / ct_batch_norm; the modules LayerNorm, GroupNorm and BatchNorm call them.
package org.ctensor.nn;

import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Norms {
    private Norms() {}

    /** x normalised over its last dims, which must equal normalizedShape (biased variance), then
     *  weight * x + bias (each of normalizedShape, or null). */
    @Op("layer_norm")
    public static Tensor layerNorm(Tensor x, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        return Functional.own(CT.layer_norm(x.handle(), normalizedShape, Functional.h(weight), Functional.h(bias), eps),
                              x, weight, bias);
    }

    /** x [N, C, *] normalised in numGroups groups of channels per sample, then weight / bias per channel ([C] or
     *  null). */
    @Op("group_norm")
    public static Tensor groupNorm(Tensor x, long numGroups, Tensor weight, Tensor bias, double eps) {
        return Functional.own(CT.group_norm(x.handle(), numGroups, Functional.h(weight), Functional.h(bias), eps),
                              x, weight, bias);
    }

    /** x [N, C, *] normalised per channel: training by the batch's statistics (runningMean / runningVar, when not
     *  null, move by momentum in place, unbiased variance), else by the running statistics (required). */
    @Op("batch_norm")
    public static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
                                   boolean training, double momentum, double eps) {
        return Functional.own(CT.batch_norm(x.handle(), Functional.h(runningMean), Functional.h(runningVar),
                                            Functional.h(weight), Functional.h(bias), training ? 1 : 0, momentum, eps),
                              x, runningMean, runningVar, weight, bias);
    }
}
