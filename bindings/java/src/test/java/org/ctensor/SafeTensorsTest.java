// SafeTensorsTest.java - SafeTensors.save / load: dtypes, views and metadata round-trip in file order; bad files
// throw FileException; nothing leaks.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafeTensorsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    @Test
    void roundTripInFileOrder(@TempDir Path dir) {
        Path path = dir.resolve("model.safetensors");
        try (TensorScope s = new TensorScope()) {
            Tensor w = Tensor.fromArray(new float[][] {{1.5f, -2f}, {3f, 4f}});
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            tensors.put("w", w);
            tensors.put("w.T", w.transpose(0, 1));
            tensors.put("step", Tensor.fromArray(new long[] {Long.MIN_VALUE, 7}));
            tensors.put("mask", Tensor.fromArray(new boolean[] {true, false}));
            SafeTensors.save(tensors, Map.of("format", "pt", "who", "java ✓"), path);
            try (SafeTensors got = SafeTensors.load(path, Device.CPU)) {
                assertEquals(List.of("w", "w.T", "step", "mask"), List.copyOf(got.tensors().keySet()));
                assertArrayEquals(new float[] {1.5f, -2f, 3f, 4f}, got.get("w").toFloatArray());
                assertArrayEquals(new float[] {1.5f, 3f, -2f, 4f}, got.get("w.T").toFloatArray());
                assertArrayEquals(new long[] {Long.MIN_VALUE, 7}, got.get("step").toLongArray());
                assertEquals(DType.BOOL, got.get("mask").dtype());
                assertEquals(Map.of("format", "pt", "who", "java ✓"), got.metadata());
                assertNull(got.get("absent"));
            }
        }
    }

    @Test
    void badFilesThrowFileException(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.safetensors");
        Files.write(bad, new byte[] {16, 0, 0, 0, 0, 0, 0, 0, '{', 'n', 'o', 't'});
        FileException e = assertThrows(FileException.class, () -> SafeTensors.load(bad, Device.CPU));
        assertTrue(e.getMessage().contains("header claims"), e.getMessage());
        assertThrows(FileException.class, () -> SafeTensors.load(dir.resolve("missing"), Device.CPU));
        try (TensorScope s = new TensorScope()) {
            Map<String, Tensor> reserved = Map.of("__metadata__", Tensor.zeros(1));
            assertThrows(InvalidArgumentException.class, () -> SafeTensors.save(reserved, Map.of(), dir.resolve("x")));
        }
    }
}
