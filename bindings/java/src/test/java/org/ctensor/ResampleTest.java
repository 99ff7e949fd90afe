// ResampleTest.java - org.ctensor.nn.Resample / Upsample: nearest and linear values against hand-computed ones, the
// gradient of a bilinear upsample, the module, and the exception classes of the errors.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.nn.Resample;
import org.ctensor.nn.Resample.Mode;
import org.ctensor.nn.Upsample;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ResampleTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void valuesGradientsAndErrors() {
        try (TensorScope s = new TensorScope()) {
            Tensor x = Tensor.fromArray(new double[] {0, 1, 2, 3}, 1, 1, 4);
            assertArrayEquals(new double[] {0, 0, 1, 1, 2, 2, 3, 3},
                    Resample.interpolate(x, null, new double[] {2}, Mode.NEAREST, null, false).toDoubleArray(), 0);
            assertArrayEquals(new double[] {0, 0.5, 1, 1.5, 2, 2.5, 3},
                    Resample.interpolate(x, new long[] {7}, null, Mode.LINEAR, true, false).toDoubleArray(), 0);
            Tensor img = Tensor.fromArray(new double[] {1, 2, 3, 4}, 1, 1, 2, 2).requiresGrad(true);
            Tensor y = new Upsample(null, new double[] {2, 2}, Mode.LINEAR, false).forward(img);
            assertArrayEquals(new long[] {1, 1, 4, 4}, y.shape());
            y.sum().backward();
            assertArrayEquals(new double[] {4, 4, 4, 4}, img.grad().toDoubleArray(), 0);
            assertThrows(ShapeException.class, () -> Resample.interpolate(x, new long[] {4, 4}, null, Mode.LINEAR, null, false));
            assertThrows(InvalidArgumentException.class,
                    () -> Resample.interpolate(x, new long[] {4}, null, Mode.NEAREST, true, false));
            assertThrows(InvalidArgumentException.class,
                    () -> Resample.interpolate(x, new long[] {4}, new double[] {2}, Mode.NEAREST, null, false));
        }
    }
}
