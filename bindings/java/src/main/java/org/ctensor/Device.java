// Device.java - a device (DLPack type numbering plus an index); passed to the JNI layer as one long.
package org.ctensor;

import org.ctensor.internal.CT;

public final class Device {
    /** The device kinds (DLPack numbering). */
    public enum Type {
        CPU(1), CUDA(2);
        public final int code;

        Type(int code) {
            this.code = code;
        }
    }

    public static final Device CPU = new Device(Type.CPU, 0);

    private final Type type;
    private final int index;

    private Device(Type type, int index) {
        this.type = type;
        this.index = index;
    }

    /** CUDA device number index. */
    public static Device cuda(int index) {
        if (index < 0) throw new IllegalArgumentException("CUDA device index must be >= 0, got " + index);
        return new Device(Type.CUDA, index);
    }

    /** "cpu", "cuda" or "cuda:N". */
    public static Device parse(String name) {
        if (name.equals("cpu")) return CPU;
        if (name.equals("cuda")) return cuda(0);
        if (name.startsWith("cuda:")) return cuda(Integer.parseInt(name.substring(5)));
        throw new IllegalArgumentException("unknown device '" + name + "' (expected cpu, cuda or cuda:N)");
    }

    public Type type() {
        return type;
    }

    public int index() {
        return index;
    }

    /** Number of usable CUDA devices (0 without the backend, driver or a GPU). */
    public static int cudaDeviceCount() {
        return CT.cuda_device_count();
    }

    /** Whether CUDA can be used. */
    public static boolean cudaAvailable() {
        return CT.cuda_is_available(null) != 0;
    }

    long encode() {
        return ((long) type.code << 32) | (index & 0xffffffffL);
    }

    static Device decode(long code) {
        int t = (int) (code >>> 32), i = (int) code;
        if (t == Type.CPU.code) return CPU;
        if (t == Type.CUDA.code) return new Device(Type.CUDA, i);
        throw new IllegalStateException("unknown device type " + t);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Device && ((Device) o).type == type && ((Device) o).index == index;
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + index;
    }

    @Override
    public String toString() {
        return type == Type.CPU ? "cpu" : "cuda:" + index;
    }
}
