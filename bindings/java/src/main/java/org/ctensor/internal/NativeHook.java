// NativeHook.java - the low-level tensor-hook callback that ctj_support.c calls through JNI.
package org.ctensor.internal;

/** Gets a borrowed gradient handle; returns a new handle to use instead, or 0 to keep the gradient. */
public interface NativeHook {
    long apply(long grad);
}
