// Embedding.java - a lookup table [num, dim] (N(0, 1) init like torch.nn.Embedding) indexed by integer tensors.
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Tensor;

public final class Embedding extends Module {
    public final Tensor weight;

    public Embedding(long num, long dim, Generator gen) {
        weight = registerParameter("weight", Tensor.randn(gen, num, dim));
    }

    @Override
    public Tensor forward(Tensor indices) {
        return Functional.embedding(weight, indices);
    }
}
