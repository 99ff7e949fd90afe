// SGD.java - stochastic gradient descent with momentum, dampening, weight decay and Nesterov (torch.optim.SGD).
package org.ctensor.optim;

import java.util.List;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class SGD extends Optimizer {
    public SGD(List<Tensor> params, double lr, double momentum, double dampening, double weightDecay, boolean nesterov) {
        super(CT.optim_sgd_new(handles(params), lr, momentum, dampening, weightDecay, nesterov ? 1 : 0));
        java.lang.ref.Reference.reachabilityFence(params); // see Note [Keep alive] in org.ctensor.Native
    }

    public SGD(List<Tensor> params, double lr) {
        this(params, lr, 0, 0, 0, false);
    }

    public SGD(List<Tensor> params, double lr, double momentum) {
        this(params, lr, momentum, 0, 0, false);
    }
}
