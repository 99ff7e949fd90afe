// Optimizer.java - base of SGD, Adam and AdamW: one native optimizer over a list of parameters, with step,
// zeroGrad, learning rate and named hyper-parameters, and per-parameter state for checkpoints.
package org.ctensor.optim;

import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.List;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;
import org.ctensor.internal.Callbacks;

public abstract class Optimizer implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private final long[] holder;
    private final Cleaner.Cleanable cleanable;

    protected Optimizer(long handle) {
        long[] box = {handle};
        holder = box;
        cleanable = CLEANER.register(this, () -> {
            long h = box[0];
            box[0] = 0;
            CT.optimizer_release(h);
        });
    }

    static long[] handles(List<Tensor> params) {
        long[] hs = new long[params.size()];
        for (int i = 0; i < hs.length; ++i) hs[i] = params.get(i).handle();
        return hs;
    }

    /** The native handle (borrowed). */
    public long handle() {
        long h = holder[0];
        if (h == 0) throw new IllegalStateException("ctensor: this optimizer is closed");
        return h;
    }

    /** One update of every parameter that has a gradient. */
    public void step() {
        CT.optimizer_step(handle());
    }

    /** Drops the gradients (setToNone) or fills them with zeros. */
    public void zeroGrad(boolean setToNone) {
        CT.optimizer_zero_grad(handle(), setToNone ? 1 : 0);
    }

    public void zeroGrad() {
        zeroGrad(true);
    }

    public double lr() {
        return CT.optimizer_get_lr(handle());
    }

    public void setLr(double lr) {
        CT.optimizer_set_lr(handle(), lr);
    }

    /** Hyper-parameter by name ("lr", "momentum", "beta1", "weight_decay", ...). */
    public double get(String name) {
        return CT.optimizer_get_hparam(handle(), name);
    }

    public void set(String name, double value) {
        CT.optimizer_set_hparam(handle(), name, value);
    }

    public int numParams() {
        return (int) CT.optimizer_num_params(handle());
    }

    /** Names of the per-parameter state tensors. */
    public List<String> stateNames() {
        long h = handle();
        long len = CT.optimizer_state_names(h, null);
        byte[] buf = new byte[(int) len + 1];
        CT.optimizer_state_names(h, buf);
        String s = Callbacks.utf8(buf, len);
        return s.isEmpty() ? List.of() : Arrays.asList(s.split(","));
    }

    /** A copy of state `name` of parameter param, or null before the first step. */
    public Tensor getState(int param, String name) {
        long t = CT.optimizer_get_state(handle(), param, name);
        return t == 0 ? null : Tensor.fromHandle(t);
    }

    public void setState(int param, String name, Tensor value) {
        CT.optimizer_set_state(handle(), param, name, value == null ? 0 : value.handle());
    }

    /** Updates applied to parameter param (Adam/AdamW). */
    public long getStep(int param) {
        return CT.optimizer_get_step(handle(), param);
    }

    public void setStep(int param, long step) {
        CT.optimizer_set_step(handle(), param, step);
    }

    @Override
    public void close() {
        cleanable.clean();
    }
}
