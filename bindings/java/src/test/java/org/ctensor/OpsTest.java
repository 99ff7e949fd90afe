// OpsTest.java - op values against hand-computed results: elementwise, reductions, views, indexing, sorting,
// linear algebra, nn functions and in-place ops.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.Functional;
import org.ctensor.nn.Reduction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpsTest {
    private TensorScope scope;

    @BeforeEach
    void open() {
        scope = new TensorScope();
    }

    @AfterEach
    void close() {
        scope.close();
    }

    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static Tensor f(float... v) {
        return Tensor.fromArray(v);
    }

    static void near(float[] expected, Tensor t) {
        assertArrayEquals(expected, t.toFloatArray(), 1e-5f, t.toString());
    }

    @Test
    void elementwise() {
        Tensor x = f(-2, -0.5f, 0, 1.5f);
        near(new float[] {2, 0.5f, 0, 1.5f}, x.abs());
        near(new float[] {2, 0.5f, -0f, -1.5f}, x.neg());
        near(new float[] {-1, -1, 0, 1}, x.sign());
        near(new float[] {0, 0, 0, 1.5f}, x.relu());
        near(new float[] {-1, -0.5f, 0, 1}, x.clamp(-1, 1));
        near(new float[] {-2, -1, 0, 1}, x.floor());
        near(new float[] {-2, -0f, 0, 2}, x.ceil());
        near(new float[] {4, 0.25f, 0, 2.25f}, x.pow(2));
        near(new float[] {(float) Math.exp(-2), (float) Math.exp(-0.5), 1, (float) Math.exp(1.5)}, x.exp());
        near(new float[] {(float) Math.tanh(-2), (float) Math.tanh(-0.5), 0, (float) Math.tanh(1.5)}, x.tanh());
        near(new float[] {(float) (1 / (1 + Math.exp(2))), (float) (1 / (1 + Math.exp(0.5))), 0.5f, (float) (1 / (1 + Math.exp(-1.5)))}, x.sigmoid());
        Tensor y = f(1, 4, 9);
        near(new float[] {1, 2, 3}, y.sqrt());
        near(new float[] {1, 0.5f, 1 / 3f}, y.rsqrt());
        near(new float[] {0, (float) Math.log(4), (float) Math.log(9)}, y.log());
        near(new float[] {1, 0.25f, 1 / 9f}, y.reciprocal());
        near(new float[] {1, 0, 1, 2}, f(7, -3, 4, -1).remainder(3.0));
        near(new float[] {2, -1, 1, -1}, f(7, -3, 4, -1).floorDivide(3.0));
        near(new float[] {2, 6, 12}, y.add(f(1, 2, 3)));
        near(new float[] {-1, 0, 1}, f(1, 2, 3).sub(2.0));
        near(new float[] {0.5f, 2, 4.5f}, y.mul(0.5));
        near(new float[] {1, 2, 3}, y.div(f(1, 2, 3)));
        near(new float[] {2, 4, 9}, y.maximum(f(2, 2, 2)).maximum(f(0, 0, 0)).minimum(f(2, 4, 9)));
        assertArrayEquals(new boolean[] {false, true, false}, y.eq(4.0).toBooleanArray());
        assertArrayEquals(new boolean[] {true, false, false}, y.lt(2.0).toBooleanArray());
        assertArrayEquals(new boolean[] {false, true, true}, y.ge(f(4, 4, 4)).toBooleanArray());
        near(new float[] {1, 0, 9}, Tensor.where(y.ne(4.0), y, y.zerosLike()));
    }

    @Test
    void broadcastingAndPromotion() {
        Tensor a = Tensor.fromArray(new float[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor b = f(10, 20, 30);
        near(new float[] {11, 22, 33, 14, 25, 36}, a.add(b));
        Tensor i = Tensor.fromArray(new long[] {1, 2, 3});
        assertEquals(DType.INT64, i.add(i).dtype());
        assertEquals(DType.FLOAT32, i.add(b).dtype());
        assertEquals(DType.FLOAT32, b.add(Tensor.fromArray(new double[] {1}).squeeze()).dtype(), "0-d double keeps float32");
    }

    @Test
    void reductions() {
        Tensor a = Tensor.fromArray(new float[][] {{1, 2, 3}, {4, 5, 6}});
        assertEquals(21, a.sum().item());
        near(new float[] {5, 7, 9}, a.sum(0));
        near(new float[] {2, 5}, a.mean(1));
        assertArrayEquals(new long[] {2, 1}, a.sum(new long[] {1}, true).shape());
        assertEquals(720, a.prod().item());
        assertEquals(3.5, a.var().item(), 1e-6);
        assertEquals(Math.sqrt(3.5), a.std().item(), 1e-6);
        assertEquals(Math.sqrt(91), a.norm().item(), 1e-5);
        assertEquals(Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3)), f(1, 2, 3).logsumexp(0).item(), 1e-6);
        assertEquals(6, a.max().item());
        assertEquals(1, a.min().item());
        assertEquals(5, a.argmax().itemLong());
        try (Tensor.Pair p = a.max(1, false)) {
            near(new float[] {3, 6}, p.values);
            assertArrayEquals(new long[] {2, 2}, p.indices.toLongArray());
        }
        try (Tensor.Pair p = a.min(0, false)) {
            near(new float[] {1, 2, 3}, p.values);
        }
        assertArrayEquals(new long[] {0, 0}, a.argmin(1, false).toLongArray());
        assertArrayEquals(new long[] {0, 0, 0}, a.argmin(0, false).toLongArray());
        assertEquals(0, a.argmin().itemLong());
        near(new float[] {1, 3, 6}, f(1, 2, 3).cumsum(0));
        near(new float[] {1, 2, 6}, f(1, 2, 3).cumprod(0));
        assertTrue(a.gt(0.0).all().item() != 0);
        assertTrue(a.gt(5.0).any().item() != 0);
    }

    @Test
    void viewsAndIndexing() {
        Tensor a = Tensor.arange(0, 6, 1).reshape(2, 3);
        near(new float[] {0, 3, 1, 4, 2, 5}, a.t().contiguous());
        near(new float[] {0, 3, 1, 4, 2, 5}, a.transpose(0, 1));
        near(new float[] {0, 3, 1, 4, 2, 5}, a.permute(1, 0));
        assertArrayEquals(new long[] {1, 2, 3}, a.unsqueeze(0).shape());
        assertArrayEquals(new long[] {2, 3}, a.unsqueeze(0).squeeze(0).shape());
        assertArrayEquals(new long[] {2, 3}, a.view(1, 2, 3).squeeze().shape());
        assertArrayEquals(new long[] {6}, a.flatten().shape());
        assertArrayEquals(new long[] {2, 2, 3}, a.unsqueeze(0).expand(2, -1, -1).shape());
        near(new float[] {1, 2, 4, 5}, a.narrow(1, 1, 2));
        near(new float[] {0, 2, 3, 5}, a.slice(1, 0, 3, 2));
        near(new float[] {3, 4, 5}, a.select(0, 1));
        assertEquals(5, a.get(1, 2).item());
        near(new float[] {0, 4}, a.diagonal());
        assertTrue(a.t().sharesStorage(a));
        assertFalse(a.copy().sharesStorage(a));
        near(new float[] {2, 1, 0, 5, 4, 3}, a.flip(1));
        near(new float[] {5, 0, 1, 2, 3, 4}, a.roll(1));
        near(new float[] {0, 0, 0, 3, 4, 0}, a.tril(0).mul(a.ge(3.0).to(DType.FLOAT32)));
        near(new float[] {0, 1, 2, 0, 4, 5}, a.triu(0));
        Tensor idx = Tensor.fromArray(new long[] {2, 0});
        near(new float[] {2, 0, 5, 3}, a.indexSelect(1, idx));
        near(new float[] {2, 3}, a.gather(1, Tensor.fromArray(new long[] {2, 0}, 2, 1)));
        near(new float[] {0, 1, 9, 3, 4, 5}, a.scatter(1, Tensor.fromArray(new long[] {2}, 1, 1), Tensor.full(new long[] {1, 1}, 9)));
        near(new float[] {0, 1, 11, 3, 4, 5}, a.scatterAdd(1, Tensor.fromArray(new long[] {2}, 1, 1), Tensor.full(new long[] {1, 1}, 9)));
        Tensor mask = a.gt(3.0);
        near(new float[] {0, 1, 2, 3, -1, -1}, a.maskedFill(mask, -1));
        near(new float[] {4, 5}, a.maskedSelect(mask));
        assertArrayEquals(new long[] {1, 0, 1, 1}, a.nonzero().slice(0, 2, 4).toLongArray());
        near(new float[] {0, 1, 2, 3, 4, 5, 0, 1, 2}, Tensor.cat(0, a, a.slice(0, 0, 1)));
        assertArrayEquals(new long[] {2, 2, 3}, Tensor.stack(0, a, a).shape());
        Tensor[] parts = Tensor.arange(0, 5, 1).split(2, 0);
        assertEquals(3, parts.length);
        near(new float[] {4}, parts[2]);
        Tensor[] chunks = Tensor.arange(0, 6, 1).chunk(3, 0);
        assertEquals(3, chunks.length);
        near(new float[] {2, 3}, chunks[1]);
    }

    @Test
    void sortingAndUnique() {
        Tensor x = f(3, 1, 2, 1);
        try (Tensor.Pair p = x.sort(0, false)) {
            near(new float[] {1, 1, 2, 3}, p.values);
            assertArrayEquals(new long[] {1, 3, 2, 0}, p.indices.toLongArray());
        }
        assertArrayEquals(new long[] {0, 2, 1, 3}, x.argsort(0, true).toLongArray());
        try (Tensor.Pair p = x.topk(2, 0, true)) {
            near(new float[] {3, 2}, p.values);
        }
        try (Tensor.Pair p = x.kthvalue(3, 0, false)) {
            assertEquals(2, p.values.item());
        }
        Tensor[] u = x.unique(true);
        near(new float[] {1, 2, 3}, u[0]);
        assertArrayEquals(new long[] {2, 0, 1, 0}, u[1].toLongArray());
        assertArrayEquals(new long[] {2, 1, 1}, u[2].toLongArray());
    }

    @Test
    void linearAlgebra() {
        Tensor a = Tensor.fromArray(new float[][] {{1, 2}, {3, 4}});
        Tensor b = Tensor.fromArray(new float[][] {{5, 6}, {7, 8}});
        near(new float[] {19, 22, 43, 50}, a.matmul(b));
        near(new float[] {19, 22, 43, 50}, Tensor.einsum("ij,jk->ik", a, b));
        assertEquals(11, f(1, 2).dot(f(3, 4)).item());
        near(new float[] {3, 4, 6, 8}, f(1, 2).outer(f(3, 4)));
        near(new float[] {1, 0, 0, 1}, Tensor.eye(2));
        near(new float[] {0, 0.5f, 1}, Tensor.linspace(0, 1, 3));
        near(new float[] {7, 7}, Tensor.full(new long[] {2}, 7));
        near(new float[] {1, 1}, Tensor.ones(2));
        assertEquals(DType.INT64, Tensor.arange(3).dtype());
    }

    @Test
    void nnFunctions() {
        Tensor logits = Tensor.fromArray(new float[][] {{1, 2, 3}, {1, 1, 1}});
        Tensor target = Tensor.fromArray(new long[] {2, 0});
        double l0 = -Math.log(Math.exp(3) / (Math.exp(1) + Math.exp(2) + Math.exp(3))), l1 = Math.log(3);
        assertEquals((l0 + l1) / 2, Functional.crossEntropy(logits, target).item(), 1e-5);
        assertEquals(l0 + l1, Functional.crossEntropy(logits, target, null, Reduction.SUM, -100, 0.0).item(), 1e-5);
        assertEquals((l0 + l1) / 2, Functional.nllLoss(logits.logSoftmax(1), target).item(), 1e-5);
        assertEquals(l0 + l1, Functional.nllLoss(logits.logSoftmax(1), target, null, Reduction.SUM, -100).item(), 1e-5);
        near(new float[] {1 / 3f, 1 / 3f, 1 / 3f}, logits.softmax(1).select(0, 1));
        assertEquals(2.5, Functional.mseLoss(f(1, 2), f(0, 4)).item(), 1e-6);
        assertEquals(-Math.log(0.8), Functional.binaryCrossEntropy(f(0.8f), f(1), Reduction.MEAN).item(), 1e-5);
        assertEquals(Math.log(1 + Math.exp(-2)), Functional.binaryCrossEntropyWithLogits(f(2), f(1), Reduction.MEAN).item(), 1e-5);
        Tensor w = Tensor.fromArray(new float[][] {{1, 0}, {0, 2}, {1, 1}});
        near(new float[] {1, 4, 3}, Functional.linear(f(1, 2), w, null));
        near(new float[] {2, 5, 4}, Functional.linear(f(1, 2), w, f(1, 1, 1)));
        near(new float[] {0, 2, 1, 1}, Functional.embedding(w, Tensor.fromArray(new long[] {1, 2})));
        near(new float[] {1, 2}, Functional.dropout(f(1, 2), 0.5, false, null));
        Tensor img = Tensor.arange(0, 16, 1).reshape(1, 1, 4, 4);
        long[] k2 = {2, 2}, z = {0, 0};
        near(new float[] {5, 7, 13, 15}, Functional.maxPool2d(img, k2, k2, z));
        near(new float[] {2.5f, 4.5f, 10.5f, 12.5f}, Functional.avgPool2d(img, k2, k2, z));
        near(new float[] {2.5f, 4.5f, 10.5f, 12.5f}, Functional.avgPool2d(img, k2, k2, z, false, true, 0));
        near(new float[] {2.5f, 4.5f, 10.5f, 12.5f}, Functional.adaptiveAvgPool2d(img, k2));
        Tensor[] mp = Functional.maxPool2dWithIndices(img, k2, k2, z, new long[] {1, 1}, false);
        assertArrayEquals(new long[] {5, 7, 13, 15}, mp[1].toLongArray());
        near(new float[] {5, 7, 13, 15}, Functional.adaptiveMaxPool2d(img, k2)[0]);
        Tensor kernel = Tensor.ones(1, 1, 2, 2);
        near(new float[] {10, 18, 42, 50}, Functional.conv2d(img, kernel, null, k2, z, new long[] {1, 1}, 1));
    }

    @Test
    void inPlaceAndRandom() {
        Tensor x = f(1, 2, 3);
        long v0 = x.version();
        x.addInPlace(f(1, 1, 1), 2).mulInPlace(f(2, 2, 2)).subInPlace(f(1, 1, 1), 1).divInPlace(f(1, 1, 1));
        near(new float[] {5, 7, 9}, x);
        assertTrue(x.version() > v0);
        x.clampInPlace(6, 8);
        near(new float[] {6, 7, 8}, x);
        x.slice(0, 0, 1).copyFrom(f(0));
        near(new float[] {0, 7, 8}, x);
        near(new float[] {4, 4, 4}, x.fill(4));
        near(new float[] {0, 0, 0}, x.zero());
        try (Generator g1 = new Generator(5); Generator g2 = new Generator(5)) {
            assertArrayEquals(Tensor.randn(g1, 4).toFloatArray(), Tensor.randn(g2, 4).toFloatArray());
            float[] u = Tensor.rand(g1, 1000).toFloatArray();
            for (float e : u) assertTrue(e >= 0 && e < 1);
            long[] r = Tensor.randint(g1, 3, 5, 100).toLongArray();
            for (long e : r) assertTrue(e >= 3 && e < 5);
            long[] perm = Tensor.randperm(g1, 10).sort(0, false).values.toLongArray();
            for (int i = 0; i < 10; ++i) assertEquals(i, perm[i]);
            near(new float[] {0, 1, 1}, f(0, 1, 1).bernoulli(g1));
        }
        Tensor w = Tensor.wrappedScalar(2, true);
        assertEquals(DType.INT64, Tensor.fromArray(new long[] {1}).mul(w).dtype());
        assertEquals(3, Tensor.scalar(3).item());
        assertEquals(0, Tensor.empty(0).numel());
        assertArrayEquals(new long[] {2}, Tensor.empty(2).emptyLike().shape());
        near(new float[] {1, 1}, Tensor.empty(2).onesLike());
        near(new float[] {5, 5}, Tensor.empty(2).fullLike(5));
    }

    @Test
    void cudaRoundTripWhereAvailable() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Device.cudaAvailable(), "no usable CUDA device");
        Tensor x = f(1, 2, 3).to(Device.cuda(0));
        assertEquals(Device.cuda(0), x.device());
        Tensor y = x.mul(x).add(1.0).to(Device.CPU);
        near(new float[] {2, 5, 10}, y);
        assertThrows(DeviceException.class, () -> x.add(f(1, 1, 1)));
    }

    @Test
    void repr() {
        Tensor x = f(1, 2).requiresGrad(true);
        assertEquals("tensor([1., 2.], requires_grad=True)", x.toString());
        assertEquals("tensor([1, 2])", Tensor.fromArray(new long[] {1, 2}).toString());
    }
}
