// NoGrad.java - try-with-resources scope that turns this thread's grad mode off and restores it on close.
package org.ctensor;

import org.ctensor.internal.CT;

public final class NoGrad implements AutoCloseable {
    private final int previous;
    private boolean closed;

    /** Turns grad mode off on this thread. */
    public NoGrad() {
        this(false);
    }

    NoGrad(boolean enabled) {
        previous = (int) CT.set_grad_enabled(enabled ? 1 : 0);
    }

    /** Sets this thread's grad mode; returns a scope that restores the previous one. */
    public static NoGrad setEnabled(boolean enabled) {
        return new NoGrad(enabled);
    }

    /** This thread's grad mode. */
    public static boolean isEnabled() {
        return CT.is_grad_enabled() != 0;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        CT.set_grad_enabled(previous);
    }
}
