// DType.java - element types, with the fixed ct_dtype values of include/ctensor.h.
package org.ctensor;

public enum DType {
    FLOAT32(0, 4), FLOAT64(1, 8), INT32(2, 4), INT64(3, 8), UINT8(4, 1), BOOL(5, 1);

    /** The ct_dtype value. */
    public final int code;
    /** Bytes per element. */
    public final int itemSize;

    DType(int code, int itemSize) {
        this.code = code;
        this.itemSize = itemSize;
    }

    /** True for FLOAT32 and FLOAT64. */
    public boolean isFloatingPoint() {
        return this == FLOAT32 || this == FLOAT64;
    }

    /** The dtype of a ct_dtype value. */
    public static DType of(int code) {
        for (DType d : values()) if (d.code == code) return d;
        throw new IllegalArgumentException("unknown ct_dtype " + code);
    }

    /** PyTorch-style name ("float32"). */
    public String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
