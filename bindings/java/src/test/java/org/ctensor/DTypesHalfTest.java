// DTypesHalfTest.java - FLOAT16, BFLOAT16, INT8 and INT16 from Java: enum codes, conversions read as float
// (rounded as the library rounds), integer promotion and half arithmetic.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class DTypesHalfTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void codesSizesAndNames() {
        assertEquals(DType.FLOAT16, DType.of(6));
        assertEquals(DType.BFLOAT16, DType.of(7));
        assertEquals(DType.INT8, DType.of(8));
        assertEquals(DType.INT16, DType.of(9));
        assertEquals(2, DType.BFLOAT16.itemSize);
        assertTrue(DType.FLOAT16.isFloatingPoint());
        assertFalse(DType.INT16.isFloatingPoint());
    }

    @Test
    void halfValuesAreRoundedAndComputedInFloat32() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new float[] {0.1f, 1.5f, 65504f, 1e6f});
            Tensor h = x.to(DType.FLOAT16);
            assertEquals(DType.FLOAT16, h.dtype());
            float[] v = h.toFloatArray();
            assertEquals(0.0999755859375f, v[0]);
            assertEquals(65504f, v[2]);
            assertTrue(Float.isInfinite(v[3]));
            Tensor b = x.to(DType.BFLOAT16);
            assertArrayEquals(new float[] {0.10009765625f, 1.5f, 65536f, 999424f}, b.toFloatArray());
            Tensor sum = h.add(h);
            assertEquals(DType.FLOAT16, sum.dtype());
            assertEquals(3f, sum.toFloatArray()[1]);
        }
    }

    @Test
    void int8PlusUint8IsInt16() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = Tensor.fromArray(new float[] {100, -100}).to(DType.INT8);
            Tensor u = Tensor.fromArray(new float[] {1, 1}).to(DType.UINT8);
            assertEquals(DType.INT16, a.add(u).dtype());
            assertEquals(DType.INT8, a.add(a).dtype());
            assertArrayEquals(new float[] {-56, 56}, a.add(a).toFloatArray());
        }
    }
}
