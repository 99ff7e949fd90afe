// Bench.java - the Java bindings' benchmark, one run: tiny-op overhead from Java against the same op from C
// (target <= 2x), and the Java Fashion-MNIST MLP epoch against the C demo's epoch (target <= 1.15x); medians.
// Usage (see run_bench.sh): java Bench <bench_tiny binary> <C demo binary> <java command for FashionMnist...>
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;

public final class Bench {
    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** ns per a.add(b) + close on 1-element tensors, median of 7 runs. */
    static double javaTiny(int iters) {
        double[] runs = new double[7];
        try (Tensor a = Tensor.ones(1); Tensor b = Tensor.ones(1)) {
            for (int w = 0; w < 3; ++w) for (int i = 0; i < iters; ++i) a.add(b).close();
            for (int r = 0; r < runs.length; ++r) {
                long t0 = System.nanoTime();
                for (int i = 0; i < iters; ++i) {
                    try (Tensor c = a.add(b)) {
                        // the result is used only to be closed
                    }
                }
                runs[r] = (System.nanoTime() - t0) / (double) iters;
            }
        }
        return median(runs);
    }

    /** ns per CT.add + CT.tensor_release (the generated JNI layer alone), median of 7 runs. */
    static double jniTiny(int iters) {
        double[] runs = new double[7];
        try (Tensor a = Tensor.ones(1); Tensor b = Tensor.ones(1)) {
            long ha = a.handle(), hb = b.handle();
            for (int i = 0; i < iters; ++i) CT.tensor_release(CT.add(ha, hb, 1.0));
            for (int r = 0; r < runs.length; ++r) {
                long t0 = System.nanoTime();
                for (int i = 0; i < iters; ++i) CT.tensor_release(CT.add(ha, hb, 1.0));
                runs[r] = (System.nanoTime() - t0) / (double) iters;
            }
        }
        return median(runs);
    }

    static List<String> run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            for (String line; (line = r.readLine()) != null; ) lines.add(line);
        }
        if (p.waitFor() != 0) throw new IOException(cmd + " failed:\n" + String.join("\n", lines));
        return lines;
    }

    static final Pattern EPOCH = Pattern.compile("^epoch (\\d+) .* ([0-9.]+) s$");

    /** Median epoch seconds of a demo run (the demos print "epoch N ... X.XX s"). */
    static double epochSeconds(List<String> cmd) throws IOException, InterruptedException {
        List<Double> secs = new ArrayList<>();
        for (String line : run(cmd)) {
            Matcher m = EPOCH.matcher(line.trim());
            if (m.matches()) secs.add(Double.parseDouble(m.group(2)));
        }
        if (secs.isEmpty()) throw new IOException("no epoch lines from " + cmd);
        return median(secs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    public static void main(String[] args) throws Exception {
        int epochs = Integer.parseInt(System.getProperty("bench.epochs", "3"));
        String tiny = args[0], cDemo = args[1];
        List<String> javaDemo = new ArrayList<>(Arrays.asList(args).subList(2, args.length));
        int iters = 200_000;
        double c = Double.parseDouble(run(List.of(tiny, Integer.toString(iters))).get(0).trim());
        double jni = jniTiny(iters), java = javaTiny(iters);
        System.out.printf("tiny add (1 element), median of 7 x %d: C %.0f ns, Java JNI layer %.0f ns, Java Tensor API %.0f ns%n",
                iters, c, jni, java);
        System.out.printf("  ratio Java/C: %.2f (target <= 2.00)%n", java / c);
        List<String> cmd = new ArrayList<>(List.of(cDemo, Integer.toString(epochs), "0"));
        double cEpoch = epochSeconds(cmd);
        javaDemo.add(Integer.toString(epochs));
        javaDemo.add("0");
        double jEpoch = epochSeconds(javaDemo);
        System.out.printf("Fashion-MNIST MLP epoch, median of %d: C %.3f s, Java %.3f s%n", epochs, cEpoch, jEpoch);
        System.out.printf("  ratio Java/C: %.3f (target <= 1.15)%n", jEpoch / cEpoch);
    }
}
