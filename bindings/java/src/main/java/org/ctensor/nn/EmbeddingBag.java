// EmbeddingBag.java - torch.nn.EmbeddingBag: a [num, dim] table (N(0, 1) init) whose forward reduces bags of rows
// (2-D indices: a bag per row; forward(indices, offsets) for 1-D indices).
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Tensor;

public final class EmbeddingBag extends Module {
    public final Tensor weight;
    public final Embeddings.BagMode mode;

    public EmbeddingBag(long num, long dim, Embeddings.BagMode mode, Generator gen) {
        this.mode = mode;
        weight = registerParameter("weight", Tensor.randn(gen, num, dim));
    }

    @Override
    public Tensor forward(Tensor indices) {
        return Embeddings.embeddingBag(weight, indices, null, mode, null, false, null, false);
    }

    /** The bags of 1-D indices starting at offsets. */
    public Tensor forward(Tensor indices, Tensor offsets) {
        return Embeddings.embeddingBag(weight, indices, offsets, mode, null, false, null, false);
    }
}
