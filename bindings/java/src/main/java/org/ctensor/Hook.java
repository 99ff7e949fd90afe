// Hook.java - a tensor hook: sees the gradient during backward and may return a replacement.
package org.ctensor;

@FunctionalInterface
public interface Hook {
    /** Gets the gradient (closed after the call unless returned); returns a replacement or null to keep it. */
    Tensor apply(Tensor grad);
}
