// Recurrent.java - the recurrent nets of abi/ops.tsv (issue 14): the fused stack (ct_rnn) and one cell step
// (ct_rnn_cell), thin wrappers returning {output, hy, cy} / {hy, cy} (cy null unless LSTM).
package org.ctensor.nn;

import org.ctensor.Generator;
import org.ctensor.Op;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Recurrent {
    private Recurrent() {}

    /** ct_rnn's modes (torch's cudnn numbering). */
    public enum Mode {
        RNN_RELU(0), RNN_TANH(1), LSTM(2), GRU(3);

        final int code;

        Mode(int code) {
            this.code = code;
        }
    }

    private static long[] handles(Tensor[] ts) {
        long[] hs = new long[ts.length];
        for (int i = 0; i < ts.length; ++i) hs[i] = ts[i].handle();
        return hs;
    }

    private static Tensor wrap(long h) {
        return h == 0 ? null : Functional.own(h);
    }

    /** The stack over x [T, B, I] ([B, T, I] when batchFirst) or packed rows with batchSizes (null: padded);
     *  weights in torch's order (per layer and direction: w_ih, w_hh, [b_ih, b_hh], [w_hr]); hx, cx, gen may be
     *  null. Returns {output, hy, cy}. */
    @Op("rnn")
    public static Tensor[] rnn(Mode mode, Tensor x, Tensor hx, Tensor cx, Tensor[] weights, boolean hasBiases,
                               long numLayers, double dropout, boolean train, boolean bidirectional, boolean batchFirst,
                               long projSize, long[] batchSizes, Generator gen) {
        long[] hy = new long[1], cy = new long[1];
        long out = CT.rnn(mode.code, x.handle(), Functional.h(hx), Functional.h(cx), handles(weights), hasBiases ? 1 : 0,
                          numLayers, dropout, train ? 1 : 0, bidirectional ? 1 : 0, batchFirst ? 1 : 0, projSize,
                          batchSizes, batchSizes == null ? 0 : batchSizes.length, gen == null ? 0 : gen.handle(), hy, cy);
        java.lang.ref.Reference.reachabilityFence(x);
        java.lang.ref.Reference.reachabilityFence(hx);
        java.lang.ref.Reference.reachabilityFence(cx);
        java.lang.ref.Reference.reachabilityFence(weights);
        java.lang.ref.Reference.reachabilityFence(gen);
        return new Tensor[] {Functional.own(out), wrap(hy[0]), wrap(cy[0])};
    }

    /** One step: x [B, I] or [I]; hx, cx (LSTM), biases may be null. Returns {hy, cy}. */
    @Op("rnn_cell")
    public static Tensor[] rnnCell(Mode mode, Tensor x, Tensor hx, Tensor cx, Tensor wIh, Tensor wHh, Tensor bIh,
                                   Tensor bHh) {
        long[] hy = new long[1], cy = new long[1];
        CT.rnn_cell(mode.code, x.handle(), Functional.h(hx), Functional.h(cx), wIh.handle(), wHh.handle(),
                    Functional.h(bIh), Functional.h(bHh), hy, cy);
        java.lang.ref.Reference.reachabilityFence(new Object[] {x, hx, cx, wIh, wHh, bIh, bHh});
        return new Tensor[] {wrap(hy[0]), wrap(cy[0])};
    }
}
