// DType.java - element types, with the fixed ct_dtype values of include/ctensor.h.
package org.ctensor;

import org.ctensor.internal.CT;

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

    /** The dtype two tensors of dtypes this and other promote to (torch.promote_types: FLOAT16 with BFLOAT16
     *  gives FLOAT32, INT8 with UINT8 gives INT16); the rule is the core's (ct_promote_types). */
    public DType promote(DType other) {
        return of((int) CT.promote_types(code, other.code));
    }

    /** Whether an op's result of this dtype may be stored in a tensor of dtype to (torch.can_cast): never to a
     *  lower category (BOOL < integer < floating < complex); within one any cast is allowed. */
    public boolean canCast(DType to) {
        return CT.can_cast(code, to.code) != 0;
    }

    /** PyTorch-style name ("float32"). */
    public String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
