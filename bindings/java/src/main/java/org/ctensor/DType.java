// DType.java - element types, with the fixed ct_dtype values of include/ctensor.h.
package org.ctensor;

public enum DType {
    FLOAT32(0, 4), FLOAT64(1, 8), INT32(2, 4), INT64(3, 8), UINT8(4, 1), BOOL(5, 1),
    /** 16-bit IEEE float; Java has no such primitive: read and write it as float (toFloatArray, to(FLOAT16)). */
    FLOAT16(6, 2),
    /** bfloat16; read and written as float, like FLOAT16. */
    BFLOAT16(7, 2),
    INT8(8, 1), INT16(9, 2),
    /** complex of two float32 (real, imag), interleaved; read as pairs with Complex.toInterleaved. */
    COMPLEX64(10, 8),
    /** complex of two float64 (real, imag), interleaved. */
    COMPLEX128(11, 16);

    /** The ct_dtype value. */
    public final int code;
    /** Bytes per element. */
    public final int itemSize;

    DType(int code, int itemSize) {
        this.code = code;
        this.itemSize = itemSize;
    }

    /** True for FLOAT32, FLOAT64, FLOAT16 and BFLOAT16. */
    public boolean isFloatingPoint() {
        return this == FLOAT32 || this == FLOAT64 || this == FLOAT16 || this == BFLOAT16;
    }

    /** True for COMPLEX64 and COMPLEX128. */
    public boolean isComplex() {
        return this == COMPLEX64 || this == COMPLEX128;
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
