// Autocast.java - try-with-resources autocast region (issue 15): inside it matmul, linear and convolutions run in
// the chosen half dtype and losses / linear algebra in float32 (thread-local; closing restores the outer state and
// clears the cast cache when the outermost region exits). Mirrors NoGrad.
package org.ctensor;

import org.ctensor.internal.CT;

public final class Autocast implements AutoCloseable {
    private final int deviceType;
    private final int previousEnabled;
    private final int previousDtype;
    private boolean closed;

    /** An enabled region on the CPU with bfloat16 (torch.cpu.amp.autocast's default). */
    public Autocast() {
        this(Device.Type.CPU, DType.BFLOAT16, true);
    }

    /** A region for deviceType with dtype (FLOAT16 or BFLOAT16; others throw DTypeException). */
    public Autocast(Device.Type deviceType, DType dtype, boolean enabled) {
        this.deviceType = deviceType.code;
        previousDtype = (int) CT.autocast_set_dtype(this.deviceType, dtype.code);
        previousEnabled = (int) CT.autocast_set_enabled(this.deviceType, enabled ? 1 : 0);
        CT.autocast_increment_nesting();
    }

    /** Whether this thread is inside an enabled region for deviceType. */
    public static boolean isEnabled(Device.Type deviceType) {
        return CT.autocast_is_enabled(deviceType.code) != 0;
    }

    /** The region's lower-precision dtype for deviceType on this thread. */
    public static DType dtype(Device.Type deviceType) {
        return DType.of((int) CT.autocast_get_dtype(deviceType.code));
    }

    /** Number of casts in this thread's cache (for tests). */
    public static long cacheSize() {
        return CT.autocast_cache_size();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        CT.autocast_decrement_nesting();
        CT.autocast_set_enabled(deviceType, previousEnabled);
        CT.autocast_set_dtype(deviceType, previousDtype);
    }
}
