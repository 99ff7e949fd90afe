// ConvNdTest.java - issue 14 through the Java API: conv1d / conv3d / transposed convolution, 1-d and 3-d pooling,
// unfold / fold and pixel_shuffle against hand-computed values, and the errors mapped to exceptions.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.ConvNd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ConvNdTest {
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

    static void near(float[] expected, Tensor t) {
        assertArrayEquals(expected, t.toFloatArray(), 1e-5f, t.toString());
    }

    @Test
    void convolutionValues() {
        Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4}, 1, 1, 4);
        Tensor w = Tensor.fromArray(new float[] {1, 10}, 1, 1, 2);
        near(new float[] {10.5f, 21.5f, 32.5f, 43.5f, 4.5f}, ConvNd.conv1d(x, w, Tensor.fromArray(new float[] {0.5f}), 1, 1, 1, 1));
        near(new float[] {1, 10, 2, 20, 3, 30, 4, 40},
             ConvNd.convTranspose(x, w, null, new long[] {2}, new long[] {0}, new long[] {0}, 1, new long[] {1}));
        Tensor cube = Tensor.ones(1, 1, 2, 2, 2);
        long[] one = {1, 1, 1}, zero = {0, 0, 0};
        near(new float[] {8}, ConvNd.conv3d(cube, Tensor.ones(1, 1, 2, 2, 2), null, one, zero, one, 1));
        assertThrows(ShapeException.class, () -> ConvNd.conv1d(Tensor.ones(1, 3, 5), Tensor.ones(2, 1, 3), null, 1, 0, 1, 2));
        assertThrows(IllegalArgumentException.class,
                     () -> ConvNd.convolution(x, w, null, new long[] {1}, new long[] {0, 0}, new long[] {1}, false, new long[] {0}, 1));
    }

    @Test
    void poolingFoldAndPixelShuffle() {
        Tensor x = Tensor.fromArray(new float[] {1, 5, 2, 4, 3, 0}, 1, 1, 6);
        long[] k2 = {2}, z = {0}, d1 = {1};
        Tensor[] mp = ConvNd.maxPool(x, k2, k2, z, d1, false);
        near(new float[] {5, 4, 3}, mp[0]);
        assertArrayEquals(new long[] {1, 3, 4}, mp[1].toLongArray());
        near(new float[] {8f / 3, 7f / 3}, ConvNd.avgPool(x, new long[] {3}, new long[] {3}, z, false, true, 0));
        Tensor cube = Tensor.arange(0, 8, 1).reshape(1, 1, 2, 2, 2).to(DType.FLOAT32);
        Tensor[] am = ConvNd.adaptiveMaxPool(cube, new long[] {1, 1, 1});
        near(new float[] {7}, am[0]);
        near(new float[] {3, 4}, ConvNd.adaptiveAvgPool(cube, new long[] {1, 1, 2}));
        Tensor img = Tensor.arange(0, 32, 1).reshape(1, 2, 4, 4).to(DType.FLOAT32);
        long[] hw2 = {2, 2}, hw1 = {1, 1}, hw0 = {0, 0};
        Tensor cols = ConvNd.unfold(img, hw2, hw1, hw0, hw2);
        assertArrayEquals(new long[] {1, 8, 4}, cols.shape());
        near(img.toFloatArray(), ConvNd.fold(cols, new long[] {4, 4}, hw2, hw1, hw0, hw2));
        Tensor ps = ConvNd.pixelShuffle(img.reshape(1, 8, 2, 2), 2);
        assertArrayEquals(new long[] {1, 2, 4, 4}, ps.shape());
        near(img.toFloatArray(), ConvNd.pixelUnshuffle(ps, 2));
        assertThrows(InvalidArgumentException.class, () -> ConvNd.maxPool(x, new long[] {2}, new long[] {0}, z, d1, false));
    }
}
