// Embeddings.java - embedding with torch's options (paddingIdx, scaleGradByFreq), embeddingRenorm_ (maxNorm) and
// embeddingBag (sum / mean / max over bags), thin wrappers of ct_embedding_ex / _renorm_ / _bag.
package org.ctensor.nn;

import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Embeddings {
    private Embeddings() {}

    /** How embeddingBag reduces a bag (CT_EMBEDDING_BAG_* codes). */
    public enum BagMode {
        SUM(0), MEAN(1), MAX(2);
        final int code;

        BagMode(int code) {
            this.code = code;
        }
    }

    /** Rows of weight at indices; paddingIdx's row (null: none; negative counts from the end) gets no gradient,
     *  scaleGradByFreq divides each row's gradient by its count in indices. */
    @Op("embedding_ex")
    public static Tensor embedding(Tensor weight, Tensor indices, Long paddingIdx, boolean scaleGradByFreq) {
        return Functional.own(CT.embedding_ex(weight.handle(), indices.handle(), paddingIdx == null ? 0 : paddingIdx,
                                              paddingIdx == null ? 0 : 1, scaleGradByFreq ? 1 : 0), weight, indices);
    }

    /** Scales the rows of weight named in indices whose normType-norm exceeds maxNorm, in place (no autograd). */
    @Op("embedding_renorm_")
    public static void embeddingRenorm_(Tensor weight, Tensor indices, double maxNorm, double normType) {
        CT.embedding_renorm_(weight.handle(), indices.handle(), maxNorm, normType);
        java.lang.ref.Reference.reachabilityFence(weight);
        java.lang.ref.Reference.reachabilityFence(indices);
    }

    /** Bags of weight's rows reduced to [bags, dim]: indices 2-D (offsets null) or 1-D with offsets starting each
     *  bag; perSampleWeights (null, or indices' shape; SUM only) scale the rows; paddingIdx rows are left out. */
    @Op("embedding_bag")
    public static Tensor embeddingBag(Tensor weight, Tensor indices, Tensor offsets, BagMode mode,
                                      Tensor perSampleWeights, boolean includeLastOffset, Long paddingIdx,
                                      boolean scaleGradByFreq) {
        return Functional.own(CT.embedding_bag(weight.handle(), indices.handle(), Functional.h(offsets), mode.code,
                                               Functional.h(perSampleWeights), includeLastOffset ? 1 : 0,
                                               paddingIdx == null ? 0 : paddingIdx, paddingIdx == null ? 0 : 1,
                                               scaleGradByFreq ? 1 : 0),
                              weight, indices, offsets, perSampleWeights);
    }
}
