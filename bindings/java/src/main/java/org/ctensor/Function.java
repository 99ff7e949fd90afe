// Function.java - custom autograd functions from Java lambdas: the caller computes the outputs, and backward
// (run on the thread that calls backward) maps output gradients to input gradients. An exception thrown in it
// fails that backward with a CallbackException whose cause is the exception.
package org.ctensor;

import org.ctensor.internal.CT;
import org.ctensor.internal.NativeBackward;

public final class Function {
    /** The backward of a custom function. */
    @FunctionalInterface
    public interface Backward {
        /** Gradients w.r.t. the inputs (null entries: no gradient) from the gradients w.r.t. the outputs. */
        Tensor[] apply(Tensor[] gradOutputs);
    }

    private Function() {}

    /** Attaches outputs (computed by the caller from inputs) to a node named name; returns the recorded outputs. */
    @Op("custom_function_apply")
    public static Tensor[] apply(String name, Tensor[] inputs, Tensor[] outputs, Backward backward) {
        if (backward == null) throw new NullPointerException("backward");
        int nIn = inputs.length;
        NativeBackward trampoline = (gradOut, gradIn) -> {
            if (gradIn.length != nIn) throw new IllegalStateException("custom function: input count changed");
            long[] made = new long[nIn];
            try (TensorScope scope = new TensorScope()) {
                Tensor[] g = new Tensor[gradOut.length];
                for (int i = 0; i < g.length; ++i) g[i] = Tensor.own(CT.tensor_retain(gradOut[i]));
                Tensor[] r = backward.apply(g);
                if (r == null || r.length != nIn) {
                    throw new IllegalStateException("custom function '" + name + "': backward returned "
                            + (r == null ? "null" : r.length + " gradients") + " for " + nIn + " inputs");
                }
                for (int i = 0; i < nIn; ++i) if (r[i] != null) r[i].handle(); // throws if closed
                for (int i = 0; i < nIn; ++i) made[i] = r[i] == null ? 0 : CT.tensor_retain(r[i].handle());
            }
            System.arraycopy(made, 0, gradIn, 0, nIn);
            return 0;
        };
        long[] results = new long[outputs.length];
        CT.ctj_custom_function_apply(name, Tensor.handles(inputs), Tensor.handles(outputs), trampoline, results);
        Native.keepAlive(inputs, outputs);
        Tensor[] out = new Tensor[results.length];
        for (int i = 0; i < out.length; ++i) out[i] = Tensor.own(results[i]);
        return out;
    }

    /** apply() for one input and one output. */
    public static Tensor apply(String name, Tensor input, Tensor output, java.util.function.UnaryOperator<Tensor> backward) {
        return apply(name, new Tensor[] {input}, new Tensor[] {output}, g -> new Tensor[] {backward.apply(g[0])})[0];
    }
}
