// Adam.java - Adam with L2 weight decay (torch.optim.Adam).
package org.ctensor.optim;

import java.util.List;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Adam extends Optimizer {
    public Adam(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
        super(CT.optim_adam_new(handles(params), lr, beta1, beta2, eps, weightDecay));
        java.lang.ref.Reference.reachabilityFence(params); // see Note [Keep alive] in org.ctensor.Native
    }

    /** Defaults: betas (0.9, 0.999), eps 1e-8, weight decay 0. */
    public Adam(List<Tensor> params, double lr) {
        this(params, lr, 0.9, 0.999, 1e-8, 0);
    }
}
