// Dropout.java - zeroes elements with probability p in training (scaling the rest by 1/(1-p)); identity in eval.
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Tensor;

public final class Dropout extends Module {
    private final double p;
    private final Generator gen;

    public Dropout(double p, Generator gen) {
        this.p = p;
        this.gen = gen;
    }

    public Dropout(double p) {
        this(p, null);
    }

    @Override
    public Tensor forward(Tensor x) {
        return Functional.dropout(x, p, training, gen);
    }
}
