// DistributedTest.java - org.ctensor.distributed under real `mpirun --oversubscribe -np 2` and `-np 4`: DistWorker
// runs in one JVM per rank and each rank must report its checks passed; and without the MPI backend
// (CTENSOR_MPI_BACKEND naming a missing file) the first call throws NotCompiledException. Skipped, saying why, where
// mpirun or libctensor_mpi.so.1 is missing.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DistributedTest {
    /** Runs a command, returning its exit code and output (stdout and stderr). */
    static Object[] run(List<String> cmd, String backendEnv) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (backendEnv != null) pb.environment().put("CTENSOR_MPI_BACKEND", backendEnv);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return new Object[] {p.exitValue(), new String(out, StandardCharsets.UTF_8)};
    }

    /** java with this JVM's ctensor properties and a class path holding the jar and the test classes. */
    static List<String> javaCommand() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        for (String prop : new String[] {"ctensor.lib.dir", "ctensor.jni.dir"}) {
            String v = System.getProperty(prop);
            if (v != null && !v.isEmpty()) cmd.add("-D" + prop + "=" + v);
        }
        String cp = Paths.get(Tensor.class.getProtectionDomain().getCodeSource().getLocation().toURI()) + File.pathSeparator
                + Paths.get(DistWorker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(DistWorker.class.getName());
        return cmd;
    }

    static String mpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Paths.get(dir, "mpirun");
            if (Files.isExecutable(p)) return p.toString();
        }
        return null;
    }

    static Path mpiBackend() {
        String dir = System.getProperty("ctensor.lib.dir");
        if (dir == null || dir.isEmpty()) dir = System.getenv("CTENSOR_LIB_DIR");
        return dir == null || dir.isEmpty() ? null : Paths.get(dir, "libctensor_mpi.so.1");
    }

    void underMpirun(int ranks) throws Exception {
        String mpirun = mpirun();
        assumeTrue(mpirun != null, "SKIPPED: Open MPI's mpirun is not installed");
        Path backend = mpiBackend();
        assumeTrue(backend != null && Files.exists(backend), "SKIPPED: the MPI backend is not built (" + backend + " missing)");
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "" + ranks));
        cmd.addAll(javaCommand());
        Object[] res = run(cmd, null);
        String out = (String) res[1];
        assertEquals(0, res[0], out);
        for (int r = 0; r < ranks; ++r) {
            String prefix = "rank " + r + " of " + ranks + ": ";
            assertTrue(out.lines().anyMatch(l -> l.startsWith(prefix) && l.endsWith("checks passed")), "rank " + r + ":\n" + out);
        }
    }

    @Test
    void collectivesWithTwoRanks() throws Exception {
        underMpirun(2);
    }

    @Test
    void collectivesWithFourRanks() throws Exception {
        underMpirun(4);
    }

    @Test
    void missingBackendThrowsNotCompiled() throws Exception {
        List<String> cmd = javaCommand();
        cmd.add("not-compiled");
        Object[] res = run(cmd, "/nonexistent/libctensor_mpi.so.1");
        String out = (String) res[1];
        assertEquals(0, res[0], out);
        assertTrue(out.contains("NotCompiledException as expected"), out);
    }
}
