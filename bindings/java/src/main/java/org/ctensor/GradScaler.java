// GradScaler.java - gradient scaling as torch's GradScaler (issue 15): scale the loss, unscale the gradients and
// look for inf/NaN, run the optimizer step only when none was found, then back the scale off or grow it. The scale
// and growth tracker stay tensors on the gradients' device; close() releases them.
package org.ctensor;

import java.util.ArrayList;
import java.util.List;
import org.ctensor.internal.CT;

public final class GradScaler implements AutoCloseable {
    private final Tensor scale;
    private final Tensor growthTracker;
    private Tensor foundInf;
    private final double growthFactor;
    private final double backoffFactor;
    private final long growthInterval;

    /** torch's defaults (init_scale 65536, growth 2, backoff 0.5, interval 2000) on the CPU. */
    public GradScaler() {
        this(65536.0, 2.0, 0.5, 2000, Device.CPU);
    }

    public GradScaler(double initScale, double growthFactor, double backoffFactor, long growthInterval, Device device) {
        if (!(growthFactor > 1.0) || !(backoffFactor < 1.0) || growthInterval < 1)
            throw new IllegalArgumentException("GradScaler: growthFactor (" + growthFactor + ") must be > 1, "
                    + "backoffFactor (" + backoffFactor + ") < 1 and growthInterval (" + growthInterval + ") >= 1");
        this.growthFactor = growthFactor;
        this.backoffFactor = backoffFactor;
        this.growthInterval = growthInterval;
        scale = Tensor.full(new long[] {1}, initScale, DType.FLOAT32, device);
        growthTracker = Tensor.zeros(new long[] {1}, DType.INT32, device);
    }

    /** loss * scale (a new Tensor). */
    public Tensor scale(Tensor loss) {
        return loss.mul(scale);
    }

    /** The current scale (read back from the device). */
    public double getScale() {
        return scale.item();
    }

    /** Clean steps since the last growth or backoff. */
    public long growthTracker() {
        return (long) growthTracker.item();
    }

    /** Divides the parameters' gradients by the scale in place (once per iteration) and records inf/NaN. */
    @Op("amp_non_finite_check_and_unscale_")
    public void unscale(List<Tensor> params) {
        if (foundInf != null) throw new IllegalStateException("GradScaler.unscale: already unscaled since update()");
        List<Tensor> grads = new ArrayList<>();
        try (Tensor inv = Tensor.full(new long[] {1}, 1.0 / getScale(), DType.FLOAT32, scale.device())) {
            for (Tensor p : params) {
                Tensor g = p.grad();
                if (g != null) grads.add(g);
            }
            long[] hs = new long[grads.size()];
            for (int i = 0; i < hs.length; ++i) hs[i] = grads.get(i).handle();
            Tensor found = Tensor.zeros(new long[] {1}, DType.FLOAT32, scale.device());
            try {
                CT.amp_non_finite_check_and_unscale_(hs, found.handle(), inv.handle());
            } catch (RuntimeException e) {
                found.close();
                throw e;
            }
            foundInf = found;
        } finally {
            for (Tensor g : grads) g.close();
        }
    }

    /** Unscales (unless unscale ran) and runs step only when no gradient held an inf or NaN; returns whether it ran. */
    public boolean step(List<Tensor> params, Runnable step) {
        if (foundInf == null) unscale(params);
        if (foundInf.item() != 0.0) return false;
        step.run();
        return true;
    }

    /** Backs the scale off after an iteration that found inf/NaN, grows it after growthInterval clean ones. */
    @Op("amp_update_scale_")
    public void update() {
        if (foundInf == null) throw new IllegalStateException("GradScaler.update: no inf checks were recorded");
        try {
            CT.amp_update_scale_(scale.handle(), growthTracker.handle(), foundInf.handle(), growthFactor,
                    backoffFactor, growthInterval);
        } finally {
            foundInf.close();
            foundInf = null;
        }
    }

    @Override
    public void close() {
        scale.close();
        growthTracker.close();
        if (foundInf != null) foundInf.close();
        foundInf = null;
    }
}
