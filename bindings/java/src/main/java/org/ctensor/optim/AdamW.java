// AdamW.java - AdamW with decoupled weight decay (torch.optim.AdamW).
package org.ctensor.optim;

import java.util.List;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class AdamW extends Optimizer {
    public AdamW(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
        super(CT.optim_adamw_new(handles(params), lr, beta1, beta2, eps, weightDecay));
        java.lang.ref.Reference.reachabilityFence(params); // see Note [Keep alive] in org.ctensor.Native
    }

    /** Defaults: betas (0.9, 0.999), eps 1e-8, weight decay 0.01. */
    public AdamW(List<Tensor> params, double lr) {
        this(params, lr, 0.9, 0.999, 1e-8, 0.01);
    }
}
