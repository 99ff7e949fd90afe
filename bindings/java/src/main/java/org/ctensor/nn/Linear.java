// Linear.java - y = x @ weight^T + bias, initialised like torch.nn.Linear (U(+-1/sqrt(in))).
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Tensor;

public final class Linear extends Module {
    public final Tensor weight;
    public final Tensor bias;

    public Linear(long in, long out, boolean withBias, Generator gen) {
        double bound = 1.0 / Math.sqrt(in);
        weight = registerParameter("weight", uniform(gen, bound, out, in));
        bias = withBias ? registerParameter("bias", uniform(gen, bound, out)) : null;
    }

    public Linear(long in, long out, Generator gen) {
        this(in, out, true, gen);
    }

    public Linear(long in, long out) {
        this(in, out, true, null);
    }

    @Override
    public Tensor forward(Tensor x) {
        return Functional.linear(x, weight, bias);
    }
}
