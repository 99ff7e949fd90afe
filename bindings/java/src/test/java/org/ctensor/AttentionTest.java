// AttentionTest.java - Functional.scaledDotProductAttention against softmax(q k^T / sqrt(E)) v computed in Java (with a
// causal mask), multiHeadAttentionForward's shapes and weights, and the error for heads not dividing the width.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.Functional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class AttentionTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static double[] values(int n, double seed) {
        double[] v = new double[n];
        for (int i = 0; i < n; ++i) v[i] = Math.sin((i + 1) * 0.37 + seed) * 1.5;
        return v;
    }

    /** softmax(q k^T / sqrt(e)) v of one [l, e] x [s, e] x [s, ev] problem, key j > i masked when causal. */
    static double[] naive(double[] q, double[] k, double[] v, int l, int s, int e, int ev, boolean causal) {
        double[] out = new double[l * ev];
        for (int i = 0; i < l; ++i) {
            double[] w = new double[s];
            double max = Double.NEGATIVE_INFINITY, sum = 0;
            for (int j = 0; j < s; ++j) {
                double d = 0;
                for (int c = 0; c < e; ++c) d += q[i * e + c] * k[j * e + c];
                w[j] = causal && j > i ? Double.NEGATIVE_INFINITY : d / Math.sqrt(e);
                max = Math.max(max, w[j]);
            }
            for (int j = 0; j < s; ++j) sum += (w[j] = Math.exp(w[j] - max));
            for (int c = 0; c < ev; ++c)
                for (int j = 0; j < s; ++j) out[i * ev + c] += w[j] / sum * v[j * ev + c];
        }
        return out;
    }

    @Test
    void sdpaMatchesTheMath() {
        int l = 70, s = 140, e = 3, ev = 2;
        double[] q = values(l * e, 0.1), k = values(s * e, 0.2), v = values(s * ev, 0.3);
        try (TensorScope scope = new TensorScope()) {
            Tensor tq = Tensor.fromArray(q, l, e), tk = Tensor.fromArray(k, s, e), tv = Tensor.fromArray(v, s, ev);
            for (boolean causal : new boolean[] {false, true})
                assertArrayEquals(naive(q, k, v, l, s, e, ev, causal),
                                  Functional.scaledDotProductAttention(tq, tk, tv, null, 0, causal, Double.NaN, null).toDoubleArray(),
                                  1e-10);
        }
    }

    @Test
    void multiHeadAttentionShapesWeightsAndErrors() {
        try (TensorScope scope = new TensorScope()) {
            Tensor x = Tensor.fromArray(values(5 * 2 * 8, 0.4), 5, 2, 8);
            Tensor win = Tensor.fromArray(values(24 * 8, 0.5), 24, 8), wout = Tensor.fromArray(values(64, 0.6), 8, 8);
            Tensor[] r = Functional.multiHeadAttentionForward(x, x, x, 2, win, null, wout, null, null, null, true, 0, false, null);
            assertArrayEquals(new long[] {5, 2, 8}, r[0].shape());
            assertArrayEquals(new long[] {2, 5, 5}, r[1].shape());
            for (double rowSum : r[1].sum(new long[] {-1}, false).toDoubleArray()) assertEquals(1.0, rowSum, 1e-10);
            assertNull(Functional.multiHeadAttentionForward(x, x, x, 2, win, null, wout, null, null, null, false, 0, false, null)[1]);
            InvalidArgumentException ex = assertThrows(InvalidArgumentException.class,
                    () -> Functional.multiHeadAttentionForward(x, x, x, 3, win, null, wout, null, null, null, true, 0, false, null));
            assertTrue(ex.getMessage().contains("not divisible by num_heads 3"), ex.getMessage());
        }
    }
}
