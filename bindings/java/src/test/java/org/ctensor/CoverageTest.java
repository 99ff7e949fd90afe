// CoverageTest.java - every op of abi/ops.tsv is reachable from the Java API (an @Op-annotated public method)
// and every C function of ops.tsv has a generated JNI entry.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoverageTest {
    static Path opsTsv() {
        String p = System.getProperty("ctensor.ops.tsv");
        if (p != null) return Paths.get(p);
        Path dir = Paths.get("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("abi/ops.tsv"))) dir = dir.getParent();
        assertNotNull(dir, "abi/ops.tsv not found (set -Dctensor.ops.tsv)");
        return dir.resolve("abi/ops.tsv");
    }

    @Test
    void everyOpIsReachable() throws Exception {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(opsTsv())) if (!line.startsWith("#") && !line.isBlank()) rows.add(line.split("\t"));
        assertTrue(rows.size() > 100, "ops.tsv has " + rows.size() + " ops");
        Set<String> annotated = new HashSet<>();
        Class<?>[] api = {Tensor.class, TensorCore.class, TensorFactories.class, Function.class, Autograd.class, org.ctensor.nn.Functional.class,
                Linalg.class, org.ctensor.nn.ConvNd.class, org.ctensor.nn.Recurrent.class, Toolbox.class,
                org.ctensor.nn.Embeddings.class, org.ctensor.nn.Resample.class, org.ctensor.nn.Norms.class, ToolboxStats.class,
                Complex.class, GradScaler.class, UnaryMath.class, MoreOps.class};
        for (Class<?> c : api)
            for (Method m : c.getDeclaredMethods()) {
                Op op = m.getAnnotation(Op.class);
                if (op != null && java.lang.reflect.Modifier.isPublic(m.getModifiers())) annotated.addAll(List.of(op.value()));
            }
        Set<String> jni = new HashSet<>();
        for (Method m : org.ctensor.internal.CTJNI.class.getDeclaredMethods()) jni.add(m.getName());
        List<String> missing = new ArrayList<>(), missingJni = new ArrayList<>();
        for (String[] r : rows) {
            if (!annotated.contains(r[0])) missing.add(r[0]);
            String c = r[1].substring(3);
            if (!jni.contains(c) && !jni.contains("ctj_" + c)) missingJni.add(r[1]);
        }
        assertEquals(List.of(), missing, "ops of abi/ops.tsv without a Java method");
        // ct_tensor_from_blob is wrapped by ctj_tensor_from_buffer (its deleter keeps the Java buffer alive)
        missingJni.remove("ct_tensor_from_blob");
        assertEquals(List.of(), missingJni, "ops of abi/ops.tsv without a JNI entry");
    }
}
