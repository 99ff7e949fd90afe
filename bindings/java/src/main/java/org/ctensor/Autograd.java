// Autograd.java - gradients of outputs with respect to inputs without touching .grad (torch.autograd.grad).
package org.ctensor;

import org.ctensor.internal.CT;

public final class Autograd {
    private Autograd() {}

    /** d(outputs)/d(inputs); gradOutputs may be null (ones); entries are null for unused inputs when allowed. */
    public static Tensor[] grad(Tensor[] outputs, Tensor[] gradOutputs, Tensor[] inputs, boolean retainGraph,
                                boolean createGraph, boolean allowUnused) {
        long[] res = new long[inputs.length];
        CT.ctj_autograd_grad(Tensor.handles(outputs), gradOutputs == null ? null : Tensor.handles(gradOutputs),
                Tensor.handles(inputs), retainGraph ? 1 : 0, createGraph ? 1 : 0, allowUnused ? 1 : 0, res);
        Native.keepAlive(outputs, inputs);
        Native.keepAlive(gradOutputs);
        Tensor[] out = new Tensor[res.length];
        for (int i = 0; i < res.length; ++i) out[i] = res[i] == 0 ? null : Tensor.own(res[i]);
        return out;
    }

    /** d(output)/d(inputs) of a one-element output. */
    public static Tensor[] grad(Tensor output, Tensor... inputs) {
        return grad(new Tensor[] {output}, null, inputs, false, false, false);
    }
}
