// BufferTest.java - data round trips: Java arrays, direct buffers (zero-copy in, copies out) and DLPack.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class BufferTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void arrays() {
        try (TensorScope s = new TensorScope()) {
            double[] d = {1.5, -2.25, 3};
            assertArrayEquals(d, Tensor.fromArray(d).toDoubleArray());
            long[] l = {Long.MAX_VALUE, -1, 0};
            assertArrayEquals(l, Tensor.fromArray(l).toLongArray());
            assertEquals(Long.MAX_VALUE, Tensor.fromArray(l).get(0).itemLong());
            int[] i = {7, -8};
            assertArrayEquals(i, Tensor.fromArray(i).toIntArray());
            boolean[] b = {true, false, true};
            assertArrayEquals(b, Tensor.fromArray(b).toBooleanArray());
            assertEquals(DType.UINT8, Tensor.fromArray(new byte[] {(byte) 200}).dtype());
            assertEquals(200, Tensor.fromArray(new byte[] {(byte) 200}).itemLong());
            assertArrayEquals(new float[] {1, 2, 3, 4}, Tensor.fromArray(new double[][] {{1, 2}, {3, 4}}).toFloatArray());
            assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new float[][] {{1}, {2, 3}}));
        }
    }

    @Test
    void directBufferIsZeroCopy() {
        FloatBuffer fb = ByteBuffer.allocateDirect(6 * 4).order(ByteOrder.nativeOrder()).asFloatBuffer();
        for (int i = 0; i < 6; ++i) fb.put(i, i);
        try (Tensor t = Tensor.fromBuffer(fb, 2, 3)) {
            assertEquals(DType.FLOAT32, t.dtype());
            fb.put(4, 40);
            assertEquals(40, t.get(1, 1).item(), "the tensor sees writes to the buffer");
            try (Tensor row = t.select(0, 0)) {
                row.fill(-1);
            }
            assertEquals(-1, fb.get(2), "the buffer sees writes to the tensor");
            assertThrows(ShapeException.class, () -> Tensor.fromBuffer(fb, 7));
        }
        // a heap or big-endian buffer is copied
        FloatBuffer heap = FloatBuffer.wrap(new float[] {1, 2, 3});
        try (Tensor t = Tensor.fromBuffer(heap, 3)) {
            heap.put(0, 9);
            assertArrayEquals(new float[] {1, 2, 3}, t.toFloatArray());
        }
        ByteBuffer raw = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        raw.putDouble(0, 2.5).putDouble(8, -1);
        try (Tensor t = Tensor.fromBuffer(raw, DType.FLOAT64, 2)) {
            assertArrayEquals(new double[] {2.5, -1}, t.toDoubleArray());
            ByteBuffer out = t.toBuffer();
            assertEquals(2.5, out.getDouble(0));
            assertEquals(-1, out.getDouble(8));
        }
    }

    @Test
    void bufferOutlivesItsJavaReference() throws InterruptedException {
        Tensor t = Tensor.fromBuffer(ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder()).asFloatBuffer(), 1024);
        for (int i = 0; i < 5; ++i) {
            System.gc();
            Thread.sleep(10);
        }
        t.fill(3);
        assertEquals(3 * 1024, t.sum().item(), 0.0);
        t.close();
    }

    @Test
    void dlpackRoundTrip() {
        try (Tensor a = Tensor.fromArray(new float[] {1, 2, 3})) {
            try (Tensor b = Tensor.fromDLPack(a.toDLPack())) {
                assertArrayEquals(new float[] {1, 2, 3}, b.toFloatArray());
                assertEquals(a.dataPtr(), b.dataPtr(), "zero-copy");
            }
            try (Tensor c = Tensor.fromDLPackVersioned(a.toDLPackVersioned())) {
                assertEquals(a.dataPtr(), c.dataPtr());
            }
        }
    }
}
