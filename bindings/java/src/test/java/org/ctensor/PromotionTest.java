// PromotionTest.java - torch's type promotion queries from Java (issue 15): DType.promote and DType.canCast against
// values torch 1.13 prints (torch.promote_types / torch.can_cast), and Tensor.resultType against the dtype an op
// gives, for tensors, 0-d tensors and wrapped scalars.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class PromotionTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void promoteAndCanCastAsTorch() {
        DType[][] rows = {{DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32}, {DType.INT8, DType.UINT8, DType.INT16},
                {DType.INT64, DType.BFLOAT16, DType.BFLOAT16}, {DType.BOOL, DType.INT8, DType.INT8},
                {DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128}, {DType.INT32, DType.FLOAT16, DType.FLOAT16}};
        for (DType[] r : rows) {
            assertEquals(r[2], r[0].promote(r[1]), r[0] + " with " + r[1]);
            assertEquals(r[2], r[1].promote(r[0]), r[1] + " with " + r[0]);
        }
        assertTrue(DType.INT64.canCast(DType.FLOAT16));
        assertTrue(DType.FLOAT64.canCast(DType.FLOAT16));
        assertFalse(DType.FLOAT32.canCast(DType.INT64));
        assertFalse(DType.COMPLEX64.canCast(DType.FLOAT64));
        assertFalse(DType.INT32.canCast(DType.BOOL));
    }

    @Test
    void resultTypeIsWhatTheOpGives() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.ones(DType.INT32, 2);
            Object[][] cases = {{Tensor.wrappedScalar(2.5, false), DType.FLOAT32},
                    {Tensor.wrappedScalar(3, true), DType.INT32},
                    {Tensor.scalar(1, DType.FLOAT64, Device.CPU), DType.FLOAT64},
                    {Tensor.scalar(1, DType.INT64, Device.CPU), DType.INT32}, {Tensor.ones(DType.INT64, 2), DType.INT64}};
            for (Object[] c : cases) {
                Tensor other = (Tensor) c[0];
                assertEquals(c[1], x.resultType(other));
                assertEquals(c[1], other.resultType(x));
                assertEquals(c[1], x.add(other).dtype());
            }
        }
    }

    @Test
    void wrappedBoolKeepsTheDtypeAsTorch() {
        // torch 1.13: torch.tensor([True, False]) + True is bool; int8 & True stays int8; t - True is refused
        try (TensorScope s = new TensorScope()) {
            Tensor yes = Tensor.wrappedScalarBool(true);
            assertEquals(DType.BOOL, yes.dtype());
            Tensor mask = Tensor.fromArray(new boolean[] {true, false}, 2);
            Tensor sum = mask.add(yes);
            assertEquals(DType.BOOL, sum.dtype());
            assertArrayEquals(new boolean[] {true, true}, sum.toBooleanArray());
            assertEquals(DType.BOOL, mask.resultType(yes));
            for (DType d : new DType[] {DType.UINT8, DType.INT8, DType.INT32, DType.FLOAT16, DType.FLOAT32, DType.COMPLEX64}) {
                Tensor x = Tensor.ones(DType.INT32, 2).to(d);
                assertEquals(d, x.mul(yes).dtype(), d.toString());
                assertEquals(d, x.resultType(yes), d.toString());
                assertThrows(DTypeException.class, () -> x.sub(yes));
            }
            Tensor i8 = Tensor.ones(DType.INT32, 2).to(DType.INT8).bitwiseAnd(Tensor.wrappedScalarBool(false));
            assertEquals(DType.INT8, i8.dtype());
            assertArrayEquals(new double[] {0, 0}, i8.toDoubleArray());
        }
    }
}
