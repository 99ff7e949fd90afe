// Pool2d.java - max, average and adaptive-average pooling layers over NCHW input.
package org.ctensor.nn;

import org.ctensor.Tensor;

public final class Pool2d extends Module {
    private enum Kind { MAX, AVG, ADAPTIVE_AVG }

    private final Kind kind;
    private final long[] a, b, c;

    private Pool2d(Kind kind, long[] a, long[] b, long[] c) {
        this.kind = kind;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    /** torch.nn.MaxPool2d(kernel, stride, padding). */
    public static Pool2d max(long kernel, long stride, long padding) {
        return new Pool2d(Kind.MAX, new long[] {kernel, kernel}, new long[] {stride, stride}, new long[] {padding, padding});
    }

    /** torch.nn.AvgPool2d(kernel, stride, padding). */
    public static Pool2d avg(long kernel, long stride, long padding) {
        return new Pool2d(Kind.AVG, new long[] {kernel, kernel}, new long[] {stride, stride}, new long[] {padding, padding});
    }

    /** torch.nn.AdaptiveAvgPool2d((oh, ow)). */
    public static Pool2d adaptiveAvg(long oh, long ow) {
        return new Pool2d(Kind.ADAPTIVE_AVG, new long[] {oh, ow}, null, null);
    }

    @Override
    public Tensor forward(Tensor x) {
        switch (kind) {
            case MAX: return Functional.maxPool2d(x, a, b, c);
            case AVG: return Functional.avgPool2d(x, a, b, c);
            default: return Functional.adaptiveAvgPool2d(x, a);
        }
    }
}
