// GradTest.java - autograd gradients against central finite differences in float64, plus the autograd API
// (requiresGrad, leaves, retainGrad, grad_fn names, NoGrad, Autograd.grad, double backward errors).
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.util.function.UnaryOperator;
import org.ctensor.nn.Functional;
import org.ctensor.nn.Loss;
import org.ctensor.nn.Reduction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class GradTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    /** Checks d f(x).sum() / dx from backward against central differences at x0. */
    static void check(String what, double[] x0, long[] shape, UnaryOperator<Tensor> f) {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromData(x0, shape, DType.FLOAT64, Device.CPU).requiresGrad(true);
            f.apply(x).sum().backward();
            double[] g = x.grad().toDoubleArray();
            double eps = 1e-6;
            for (int i = 0; i < x0.length; ++i) {
                double[] p = x0.clone(), m = x0.clone();
                p[i] += eps;
                m[i] -= eps;
                double fp, fm;
                try (NoGrad ng = new NoGrad()) {
                    fp = f.apply(Tensor.fromData(p, shape, DType.FLOAT64, Device.CPU)).sum().item();
                    fm = f.apply(Tensor.fromData(m, shape, DType.FLOAT64, Device.CPU)).sum().item();
                }
                double fd = (fp - fm) / (2 * eps);
                assertEquals(fd, g[i], 1e-5 * Math.max(1, Math.abs(fd)), what + " d/dx[" + i + "]");
            }
        }
    }

    static final double[] X = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5};
    static final long[] S = {2, 3};

    @Test
    void unaryAndBinary() {
        check("exp", X, S, Tensor::exp);
        check("tanh", X, S, Tensor::tanh);
        check("sigmoid", X, S, Tensor::sigmoid);
        check("gelu", X, S, Tensor::gelu);
        check("silu", X, S, Tensor::silu);
        check("softplus", X, S, Tensor::softplus);
        check("sin*cos", X, S, x -> x.sin().mul(x.cos()));
        check("x^3", X, S, x -> x.pow(3));
        check("abs", X, S, Tensor::abs);
        check("log(x^2+1)", X, S, x -> x.mul(x).add(1.0).log());
        check("div", X, S, x -> x.div(x.mul(x).add(2.0)));
        check("atan2", X, S, x -> x.atan2(x.add(3.0)));
        check("maximum", X, S, x -> x.maximum(x.mul(0.5)));
    }

    @Test
    void activations() {
        check("elu", X, S, x -> x.elu(0.7));
        check("selu", X, S, Tensor::selu);
        check("celu", X, S, x -> x.celu(1.5));
        check("leakyRelu", X, S, x -> x.leakyRelu(0.2));
        check("hardtanh", X, S, x -> x.hardtanh(-1.0, 1.0));
        check("relu6", X, S, x -> x.mul(3.0).relu6());
        check("hardsigmoid", X, S, Tensor::hardsigmoid);
        check("hardswish", X, S, x -> x.mul(1.7).hardswish());
        check("softshrink", X, S, x -> x.softshrink(0.5));
        check("hardshrink", X, S, x -> x.hardshrink(0.5));
        check("threshold", X, S, x -> x.threshold(0.5, -1.0));
        check("mish", X, S, Tensor::mish);
        check("logSigmoid", X, S, Tensor::logSigmoid);
        check("softsign", X, S, Tensor::softsign);
        check("tanhshrink", X, S, Tensor::tanhshrink);
        check("softmin", X, S, x -> x.softmin(1).mul(x));
        check("glu", X, S, x -> x.glu(0));
        check("prelu", X, S, x -> x.prelu(Tensor.fromData(new double[] {0.1, 0.2, 0.3}, new long[] {3}, DType.FLOAT64, Device.CPU)));
        check("rrelu eval", X, S, x -> x.rrelu(0.1, 0.3, false, null));
        assertThrows(InvalidArgumentException.class, () -> Tensor.fromData(X, S, DType.FLOAT64, Device.CPU).celu(0.0));
        assertThrows(ShapeException.class, () -> Tensor.fromData(X, S, DType.FLOAT64, Device.CPU).glu(1));
    }

    static Tensor t(double[] v, long... shape) {
        return Tensor.fromData(v, shape, DType.FLOAT64, Device.CPU);
    }

    @Test
    void losses() {
        double[] y = {0.5, -0.3, 1.1, 0.2, 0.9, -1.4}, signs = {1, -1, -1, 1, 1, -1}, pos = {0.4, 1.3, 0.8, 2.0, 0.6, 1.1};
        Reduction r = Reduction.SUM;
        check("l1", X, S, x -> Functional.l1Loss(x, t(y, S), Reduction.NONE));
        check("smoothL1", X, S, x -> Functional.smoothL1Loss(x, t(new double[] {0.5, -0.3, 1.1}, 3), r, 0.7));
        check("huber", X, S, x -> Functional.huberLoss(x, t(y, S), Reduction.MEAN, 0.5));
        check("klDiv", X, S, x -> Functional.klDiv(x, t(pos, S), Reduction.BATCHMEAN, false));
        check("softMargin", X, S, x -> Functional.softMarginLoss(x, t(signs, S), r));
        check("poissonNll", X, S, x -> Functional.poissonNllLoss(x, t(pos, S), true, true, 1e-8, r));
        check("gaussianNll var", pos, S, v -> Functional.gaussianNllLoss(t(X, S), t(y, S), v, true, 1e-6, r));
        check("hingeEmbedding", X, S, x -> Functional.hingeEmbeddingLoss(x, t(signs, S), 0.5, r));
        check("marginRanking", X, S, x -> Loss.marginRanking(0.2, r).apply(x, t(y, S), t(signs, S)));
        check("multilabelSoftMargin", X, S, x -> Functional.multilabelSoftMarginLoss(x, t(new double[] {1, 0, 1, 0, 0, 1}, S), t(new double[] {0.4, 1.3, 0.8}, 3), r));
        check("multiMargin", X, S, x -> Functional.multiMarginLoss(x, Tensor.fromArray(new long[] {2, 0}), 2, 0.9, null, r));
        check("cosineEmbedding", X, S, x -> Loss.cosineEmbedding(0.1, r).apply(x, t(y, S), t(new double[] {1, -1}, 2)));
        check("tripletMargin", X, S, x -> Loss.tripletMargin(0.5, 1.0, 1e-6, true, r).apply(x, t(y, S), t(pos, S)));
        // CTC of log_softmax(x) over C = 3 (T = 2, N = 1): torch's gradient convention is the true one through log_softmax
        check("ctcLoss", X, S, x -> Functional.ctcLoss(x.reshape(2, 1, 3).logSoftmax(2), Tensor.fromArray(new long[] {1}),
                                                      new long[] {2}, new long[] {1}, 0, r, false));
        try (TensorScope s = new TensorScope()) {
            Tensor x = t(X, S);
            assertThrows(IndexException.class, () -> Functional.multiMarginLoss(x, Tensor.fromArray(new long[] {2, 3}), 1, 1.0, null, r));
            assertThrows(InvalidArgumentException.class, () -> Functional.multiMarginLoss(x, Tensor.fromArray(new long[] {2, 0}), 3, 1.0, null, r));
            assertThrows(ShapeException.class, () -> Loss.tripletMargin().apply(x, t(y, 6), t(y, S)));
            assertThrows(IllegalArgumentException.class, () -> Loss.tripletMargin().apply(x, x));
            assertThrows(InvalidArgumentException.class, () -> Functional.l1Loss(x, x, Reduction.BATCHMEAN));
        }
    }

    @Test
    void reductionsAndShapes() {
        check("mean", X, S, x -> x.mean(1));
        check("var", X, S, x -> x.var(1));
        check("std", X, S, x -> x.std(new long[] {0}, 1.0, false));
        check("logsumexp", X, S, x -> x.logsumexp(1));
        check("norm", X, S, Tensor::norm);
        check("prod", X, S, x -> x.prod(1));
        check("softmax*x", X, S, x -> x.softmax(1).mul(x));
        check("log_softmax", X, S, x -> x.logSoftmax(0).mul(x));
        check("cumsum", X, S, x -> x.cumsum(1).mul(x));
        check("matmul", X, S, x -> x.matmul(x.t()).mul(x.matmul(x.t())));
        check("permute/reshape", X, S, x -> x.permute(1, 0).reshape(6).mul(Tensor.arange(0, 6, 1).to(DType.FLOAT64)));
        check("slice/select", X, S, x -> x.slice(1, 0, 3, 2).mul(x.select(1, 1).unsqueeze(1)));
        check("max", X, S, x -> x.max().mul(x.min()));
        check("cat", X, S, x -> Tensor.cat(0, x, x.mul(x)).exp());
        check("where", X, S, x -> Tensor.where(x.gt(0.0), x.mul(x), x.neg()));
    }

    @Test
    void nn() {
        check("linear+relu", X, S, x -> Functional.linear(x, x.t().matmul(x), null).relu());
        check("cross_entropy", X, S, x -> Functional.crossEntropy(x, Tensor.fromArray(new long[] {2, 0})));
        check("mse", X, S, x -> Functional.mseLoss(x, x.mul(x)));
        check("custom", X, S, x -> Function.apply("Cube", x, x.detach().pow(3), g -> g.mul(x.detach().pow(2).mul(3.0))));
    }

    @Test
    void api() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad(true);
            assertTrue(x.requiresGrad());
            assertTrue(x.isLeaf());
            assertNull(x.grad());
            Tensor y = x.mul(x);
            assertFalse(y.isLeaf());
            assertEquals("MulBackward", y.gradFnName());
            assertEquals("", x.gradFnName());
            y.retainGrad();
            Tensor loss = y.sum();
            loss.backward(null, true, false);
            assertArrayEquals(new float[] {2, 4, 6}, x.grad().toFloatArray());
            assertArrayEquals(new float[] {1, 1, 1}, y.grad().toFloatArray());
            loss.backward();
            assertArrayEquals(new float[] {4, 8, 12}, x.grad().toFloatArray(), "gradients accumulate");
            assertThrows(AutogradException.class, loss::backward, "second backward without retain_graph");
            x.setGrad(null);
            assertNull(x.grad());
            Tensor[] g = Autograd.grad(x.mul(x).sum(), x);
            assertArrayEquals(new float[] {2, 4, 6}, g[0].toFloatArray());
            assertNull(x.grad(), "Autograd.grad leaves .grad alone");
            try (NoGrad ng = new NoGrad()) {
                assertFalse(NoGrad.isEnabled());
                assertFalse(x.mul(x).requiresGrad());
            }
            assertTrue(NoGrad.isEnabled());
            assertFalse(x.detach().requiresGrad());
            Tensor v = Tensor.fromArray(new float[] {1, 1, 1});
            x.mul(x).backward(v);
            assertArrayEquals(new float[] {2, 4, 6}, x.grad().toFloatArray());
        }
    }
}
