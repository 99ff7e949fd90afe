// SafeTensors.java - named tensors in the safetensors format: save a map of tensors with string metadata, load a
// file into an ordered map (the file's data order), so weights move between ctensor's languages and PyTorch.
package org.ctensor;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ctensor.internal.Callbacks;
import org.ctensor.internal.CT;

/** What a safetensors file holds; closing it closes its tensors. */
public final class SafeTensors implements AutoCloseable {
    private final Map<String, Tensor> tensors;
    private final Map<String, String> metadata;

    private SafeTensors(Map<String, Tensor> tensors, Map<String, String> metadata) {
        this.tensors = Collections.unmodifiableMap(tensors);
        this.metadata = Collections.unmodifiableMap(metadata);
    }

    /** The tensors by name, in the order of their data in the file. */
    public Map<String, Tensor> tensors() {
        return tensors;
    }

    /** The file's string metadata ("__metadata__"). */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** The tensor named name, or null. */
    public Tensor get(String name) {
        return tensors.get(name);
    }

    @Override
    public void close() {
        tensors.values().forEach(Tensor::close);
    }

    /** Writes the tensors (any device; stored row-major) and metadata (may be empty) to path. */
    public static void save(Map<String, Tensor> tensors, Map<String, String> metadata, Path path) {
        long f = CT.safetensors_new();
        try {
            for (Map.Entry<String, Tensor> e : tensors.entrySet()) CT.safetensors_add(f, e.getKey(), e.getValue().handle());
            for (Map.Entry<String, String> e : metadata.entrySet()) CT.safetensors_set_metadata(f, e.getKey(), e.getValue());
            CT.save_safetensors(f, path.toString());
        } finally {
            CT.safetensors_release(f);
        }
    }

    /** Reads and checks the safetensors file at path, tensors on device; a bad file throws FileException. */
    public static SafeTensors load(Path path, Device device) {
        long f = CT.load_safetensors(path.toString(), device.encode(), 1);
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        try {
            int n = (int) CT.safetensors_count(f);
            for (int i = 0; i < n; ++i) {
                String name = text(f, i, null, Text.NAME);
                tensors.put(name, Tensor.own(CT.safetensors_get(f, name)));
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            int m = (int) CT.safetensors_metadata_count(f);
            for (int i = 0; i < m; ++i) {
                String key = text(f, i, null, Text.KEY);
                metadata.put(key, text(f, 0, key, Text.VALUE));
            }
            return new SafeTensors(tensors, metadata);
        } catch (RuntimeException e) {
            tensors.values().forEach(Tensor::close);
            throw e;
        } finally {
            CT.safetensors_release(f);
        }
    }

    private enum Text { NAME, KEY, VALUE }

    // One of the handle's texts: asks its length, then reads it into a buffer of that size.
    private static String text(long f, int i, String key, Text which) {
        byte[] buf = null;
        for (int pass = 0; pass < 2; ++pass) {
            long len = which == Text.NAME ? CT.safetensors_name(f, i, buf)
                    : which == Text.KEY ? CT.safetensors_metadata_key(f, i, buf)
                    : CT.safetensors_metadata_get(f, key, buf);
            if (buf != null) return Callbacks.utf8(buf, len);
            buf = new byte[(int) len + 1];
        }
        throw new IllegalStateException("unreachable");
    }
}
