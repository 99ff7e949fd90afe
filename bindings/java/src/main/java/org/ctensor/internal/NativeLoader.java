// NativeLoader.java - loads libctensor and the JNI library once (override directory, java.library.path, or
// extracted from the jar into a versioned cache directory) and checks the ABI version, naming every path tried.
package org.ctensor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ctensor.VersionException;

public final class NativeLoader {
    /** File name of the JNI library (System.mapLibraryName("ctensor_jni")). */
    public static final String JNI_FILE = System.mapLibraryName("ctensor_jni");
    /** File names of the core library, the SONAME first. */
    private static final String[] CORE_FILES = {"libctensor.so.1", System.mapLibraryName("ctensor")};

    private static boolean loaded;
    private static final List<String> LOADED_FROM = new ArrayList<>();

    private NativeLoader() {}

    /** Loads the libraries and checks the ABI once; throws UnsatisfiedLinkError / VersionException naming paths. */
    public static synchronized void load() {
        if (loaded) return;
        List<String> tried = new ArrayList<>();
        String libDir = setting("ctensor.lib.dir", "CTENSOR_LIB_DIR");
        String jniDir = setting("ctensor.jni.dir", "CTENSOR_JNI_DIR");
        if (libDir != null) loadFirst(Paths.get(libDir), CORE_FILES, tried);
        boolean ok = jniDir != null && loadFirst(Paths.get(jniDir), new String[] {JNI_FILE}, tried);
        if (!ok && libDir != null) ok = loadFirst(Paths.get(libDir), new String[] {JNI_FILE}, tried);
        if (!ok) {
            try {
                System.loadLibrary("ctensor_jni");
                LOADED_FROM.add("java.library.path: " + JNI_FILE);
                ok = true;
            } catch (UnsatisfiedLinkError e) {
                tried.add("java.library.path (" + System.getProperty("java.library.path") + "): " + e.getMessage());
            }
        }
        if (!ok) ok = loadFromJar(tried);
        if (!ok) {
            throw new UnsatisfiedLinkError("ctensor: cannot load the JNI library " + JNI_FILE + "; tried:\n  "
                    + String.join("\n  ", tried) + "\nSet CTENSOR_LIB_DIR (or -Dctensor.lib.dir) to the folder that "
                    + "holds libctensor.so.1, and CTENSOR_JNI_DIR (or -Dctensor.jni.dir) to the one holding " + JNI_FILE);
        }
        loaded = true;
        checkAbi();
    }

    /** Where the libraries were loaded from (for messages and diagnostics). */
    public static synchronized List<String> loadedFrom() {
        return new ArrayList<>(LOADED_FROM);
    }

    private static void checkAbi() {
        try {
            CTJNI.check_abi(CT.CT_ABI_VERSION, CT.CT_VERSION_MINOR);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            throw new VersionException(CT.CT_ERR_VERSION, "ctensor: the loaded library (" + String.join(", ", LOADED_FROM)
                    + ") does not serve this binding (ABI " + CT.CT_ABI_VERSION + ", minor >= " + CT.CT_VERSION_MINOR
                    + "): " + e.getMessage(), e);
        }
    }

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        if (v == null || v.isEmpty()) v = System.getenv(env);
        return v == null || v.isEmpty() ? null : v;
    }

    private static boolean loadFirst(Path dir, String[] names, List<String> tried) {
        for (String name : names) {
            Path p = dir.resolve(name).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                tried.add(p + ": not found");
                continue;
            }
            try {
                System.load(p.toString());
                LOADED_FROM.add(p.toString());
                return true;
            } catch (UnsatisfiedLinkError e) {
                tried.add(p + ": " + e.getMessage());
            }
        }
        return false;
    }

    /** Extracts native/<os>-<arch>/ of the jar into a cache directory named after the content's hash. */
    private static boolean loadFromJar(List<String> tried) {
        String platform = System.getProperty("os.name").toLowerCase(Locale.ROOT).replace(' ', '_') + "-"
                + System.getProperty("os.arch");
        String base = "/org/ctensor/native/" + platform + "/";
        try {
            byte[] jni = resource(base + JNI_FILE);
            if (jni == null) {
                tried.add("jar resource " + base + JNI_FILE + ": not in the jar");
                return false;
            }
            byte[] core = resource(base + CORE_FILES[0]);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(jni);
            if (core != null) sha.update(core);
            StringBuilder hex = new StringBuilder();
            for (byte b : sha.digest()) hex.append(String.format("%02x", b));
            String cacheRoot = setting("ctensor.cache.dir", "CTENSOR_CACHE_DIR");
            Path dir = cacheRoot != null ? Paths.get(cacheRoot)
                    : Paths.get(System.getProperty("user.home"), ".cache", "ctensor-java");
            dir = dir.resolve(CT.CT_VERSION_MAJOR + "." + CT.CT_VERSION_MINOR + "-" + hex.substring(0, 16));
            Files.createDirectories(dir);
            if (core != null) {
                write(dir.resolve(CORE_FILES[0]), core);
                if (!loadFirst(dir, new String[] {CORE_FILES[0]}, tried)) return false;
            }
            write(dir.resolve(JNI_FILE), jni);
            return loadFirst(dir, new String[] {JNI_FILE}, tried);
        } catch (IOException | NoSuchAlgorithmException e) {
            tried.add("jar resource " + base + JNI_FILE + ": " + e);
            return false;
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = NativeLoader.class.getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static void write(Path target, byte[] bytes) throws IOException {
        if (Files.isRegularFile(target) && Files.size(target) == bytes.length) return;
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
