// RnnTest.java - the recurrent-net wrappers (nn.Recurrent): an RNN_TANH cell against its closed form, an LSTM stack
// equal to stepping its cell, the output shapes of a bidirectional packed GRU, and a shape error as its exception.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.Recurrent;
import org.ctensor.nn.Recurrent.Mode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class RnnTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void tanhCellMatchesItsClosedForm() {
        try (TensorScope s = new TensorScope()) {
            // one unit, input size 2: h' = tanh(w . x + b_ih + u * h + b_hh)
            Tensor x = Tensor.fromArray(new double[] {0.5, -1.0}, 1, 2);
            Tensor h = Tensor.fromArray(new double[] {0.25}, 1, 1);
            Tensor w = Tensor.fromArray(new double[] {0.3, 0.7}, 1, 2), u = Tensor.fromArray(new double[] {-0.4}, 1, 1);
            Tensor b1 = Tensor.fromArray(new double[] {0.1}, 1), b2 = Tensor.fromArray(new double[] {-0.2}, 1);
            Tensor[] r = Recurrent.rnnCell(Mode.RNN_TANH, x, h, null, w, u, b1, b2);
            assertNull(r[1]);
            double want = Math.tanh(0.3 * 0.5 - 0.7 + 0.1 - 0.4 * 0.25 - 0.2);
            assertArrayEquals(new double[] {want}, r[0].toDoubleArray(), 1e-12);
        }
    }

    @Test
    void lstmStackEqualsSteppingTheCell() {
        try (TensorScope s = new TensorScope(); Generator g = new Generator(3)) {
            Tensor wIh = Tensor.rand(g, new long[] {8, 3}, DType.FLOAT64, Device.CPU);
            Tensor wHh = Tensor.rand(g, new long[] {8, 2}, DType.FLOAT64, Device.CPU);
            Tensor x = Tensor.rand(g, new long[] {4, 1, 3}, DType.FLOAT64, Device.CPU);
            Tensor[] out = Recurrent.rnn(Mode.LSTM, x, null, null, new Tensor[] {wIh, wHh}, false, 1, 0, false, false,
                                         false, 0, null, null);
            assertArrayEquals(new long[] {4, 1, 2}, out[0].shape());
            Tensor hc = null, cc = null;
            for (long t = 0; t < 4; ++t) {
                Tensor[] r = Recurrent.rnnCell(Mode.LSTM, x.select(0, t), hc, cc, wIh, wHh, null, null);
                hc = r[0];
                cc = r[1];
            }
            assertArrayEquals(hc.toDoubleArray(), out[1].toDoubleArray(), 1e-12);
            assertArrayEquals(cc.toDoubleArray(), out[2].toDoubleArray(), 1e-12);
        }
    }

    @Test
    void packedBidirectionalGruShapesAndErrors() {
        try (TensorScope s = new TensorScope(); Generator g = new Generator(4)) {
            Tensor[] w = new Tensor[8];
            for (int d = 0; d < 2; ++d) {
                w[4 * d] = Tensor.rand(g, new long[] {9, 2}, DType.FLOAT32, Device.CPU);
                w[4 * d + 1] = Tensor.rand(g, new long[] {9, 3}, DType.FLOAT32, Device.CPU);
                w[4 * d + 2] = Tensor.rand(g, new long[] {9}, DType.FLOAT32, Device.CPU);
                w[4 * d + 3] = Tensor.rand(g, new long[] {9}, DType.FLOAT32, Device.CPU);
            }
            Tensor x = Tensor.rand(g, new long[] {6, 2}, DType.FLOAT32, Device.CPU);
            Tensor[] r = Recurrent.rnn(Mode.GRU, x, null, null, w, true, 1, 0, false, true, false, 0,
                                       new long[] {3, 2, 1}, null);
            assertArrayEquals(new long[] {6, 6}, r[0].shape());
            assertArrayEquals(new long[] {2, 3, 3}, r[1].shape());
            assertNull(r[2]);
            ShapeException e = assertThrows(ShapeException.class, () -> Recurrent.rnn(Mode.GRU, x, null, null, w, true, 1, 0,
                    false, true, false, 0, new long[] {3, 2}, null));
            assertTrue(e.getMessage().contains("batch_sizes sum to 5 but the packed input has 6 rows"), e.getMessage());
        }
    }
}
