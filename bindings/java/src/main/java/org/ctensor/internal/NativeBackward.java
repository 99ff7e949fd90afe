// NativeBackward.java - the low-level custom-backward callback that ctj_support.c calls through JNI.
package org.ctensor.internal;

/** Fills gradInputs with new handles (0 = no gradient) from borrowed gradOutputs handles; returns a ct_status. */
public interface NativeBackward {
    int backward(long[] gradOutputs, long[] gradInputs);
}
