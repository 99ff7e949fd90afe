// FashionMnist.java - the Java demo: the MLP of examples/fashion_mnist/fashion_mnist.c (784-256-128-10, Adam 1e-3,
// batch 128, the same normalisation, seeds and shuffling) through org.ctensor; one progress line per epoch, and
// exit status 1 below the target test accuracy. Usage: java FashionMnist [epochs] [target]
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.ctensor.DType;
import org.ctensor.Device;
import org.ctensor.Generator;
import org.ctensor.NoGrad;
import org.ctensor.Tensor;
import org.ctensor.TensorScope;
import org.ctensor.nn.Activation;
import org.ctensor.nn.Functional;
import org.ctensor.nn.Linear;
import org.ctensor.nn.Sequential;
import org.ctensor.optim.Adam;

public final class FashionMnist {
    /** Images n x pixels (normalised floats) and labels. */
    record Dataset(int n, int pixels, float[] images, long[] labels) {}

    static Dataset load(String dir, String prefix) throws IOException {
        byte[] img = readGz(dir + "/" + prefix + "-images-idx3-ubyte.gz");
        byte[] lab = readGz(dir + "/" + prefix + "-labels-idx1-ubyte.gz");
        if (be32(img, 0) != 2051 || be32(lab, 0) != 2049) throw new IOException("bad IDX magic in " + dir + "/" + prefix);
        int n = be32(img, 4), pixels = be32(img, 8) * be32(img, 12);
        if (img.length < 16 + (long) n * pixels || lab.length < 8 + n) throw new IOException("truncated IDX file for " + prefix);
        float[] images = new float[n * pixels];
        for (int i = 0; i < images.length; ++i) images[i] = ((img[16 + i] & 0xff) / 255.0f - 0.2860f) / 0.3530f;
        long[] labels = new long[n];
        for (int i = 0; i < n; ++i) labels[i] = lab[8 + i] & 0xff;
        return new Dataset(n, pixels, images, labels);
    }

    static byte[] readGz(String path) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new FileInputStream(path), 1 << 16)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IOException("cannot read " + path + " (install the Debian package dataset-fashion-mnist)", e);
        }
    }

    static int be32(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    /** Batch rows [start, start+count) in the order of perm (sequential when perm is null). */
    static Tensor[] batch(Dataset d, long[] perm, int start, int count, float[] xbuf, long[] ybuf) {
        for (int i = 0; i < count; ++i) {
            int r = perm != null ? (int) perm[start + i] : start + i;
            System.arraycopy(d.images, r * d.pixels, xbuf, i * d.pixels, d.pixels);
            ybuf[i] = d.labels[r];
        }
        float[] x = count * d.pixels == xbuf.length ? xbuf : java.util.Arrays.copyOf(xbuf, count * d.pixels);
        long[] y = count == ybuf.length ? ybuf : java.util.Arrays.copyOf(ybuf, count);
        return new Tensor[] {Tensor.fromData(x, new long[] {count, d.pixels}, DType.FLOAT32, Device.CPU),
                Tensor.fromData(y, new long[] {count}, DType.INT64, Device.CPU)};
    }

    static long correct(Tensor logits, Tensor y) {
        try (NoGrad ng = new NoGrad(); Tensor pred = logits.argmax(1, false); Tensor hit = pred.eq(y);
             Tensor total = hit.sum()) {
            return total.itemLong();
        }
    }

    public static void main(String[] args) throws IOException {
        String dir = System.getenv().getOrDefault("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist");
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        double target = args.length > 1 ? Double.parseDouble(args[1]) : 0.84;
        final int batch = 128, evalBatch = 1000;
        Dataset train = load(dir, "train"), test = load(dir, "t10k");
        System.out.printf("ctensor %d (Java): Fashion-MNIST %d train / %d test images, MLP 784-256-128-10, Adam, batch %d, %d threads%n",
                Tensor.libraryVersion(), train.n, test.n, batch, Tensor.numThreads());

        double testAcc = 0;
        try (Generator gen = new Generator(42); Generator shuffle = new Generator(7);
             Sequential model = new Sequential(new Linear(train.pixels, 256, gen), Activation.relu(),
                     new Linear(256, 128, gen), Activation.relu(), new Linear(128, 10, gen));
             Adam opt = new Adam(model.parameters(), 1e-3, 0.9, 0.999, 1e-8, 0.0)) {
            float[] xbuf = new float[batch * train.pixels];
            long[] ybuf = new long[batch];
            for (int epoch = 1; epoch <= epochs; ++epoch) {
                long t0 = System.nanoTime(), hits = 0;
                double lossSum = 0;
                int steps = 0;
                long[] perm;
                try (Tensor p = Tensor.randperm(shuffle, train.n)) {
                    perm = p.toLongArray();
                }
                for (int start = 0; start + batch <= train.n; start += batch) {
                    try (TensorScope scope = new TensorScope()) {
                        Tensor[] xy = batch(train, perm, start, batch, xbuf, ybuf);
                        Tensor logits = model.forward(xy[0]);
                        Tensor loss = Functional.crossEntropy(logits, xy[1]);
                        opt.zeroGrad();
                        loss.backward();
                        opt.step();
                        lossSum += loss.item();
                        hits += correct(logits, xy[1]);
                        ++steps;
                    }
                }
                testAcc = evaluate(model, test, evalBatch);
                System.out.printf("epoch %d  loss %.4f  train acc %.2f%%  test acc %.2f%%  %.2f s%n", epoch, lossSum / steps,
                        100.0 * hits / ((long) steps * batch), 100.0 * testAcc, (System.nanoTime() - t0) * 1e-9);
            }
        }
        System.gc();
        if (Tensor.liveHandles() != 0) {
            System.err.println("leak: " + Tensor.liveHandles() + " live handles at exit");
            System.exit(1);
        }
        if (testAcc < target) {
            System.err.printf("test accuracy %.2f%% is below the target %.2f%%%n", 100 * testAcc, 100 * target);
            System.exit(1);
        }
        System.out.printf("test accuracy %.2f%% >= target %.2f%%%n", 100 * testAcc, 100 * target);
    }

    static double evaluate(Sequential model, Dataset d, int evalBatch) {
        long hits = 0;
        float[] xbuf = new float[evalBatch * d.pixels];
        long[] ybuf = new long[evalBatch];
        try (NoGrad ng = new NoGrad()) {
            for (int start = 0; start < d.n; start += evalBatch) {
                int count = Math.min(evalBatch, d.n - start);
                try (TensorScope scope = new TensorScope()) {
                    Tensor[] xy = batch(d, null, start, count, xbuf, ybuf);
                    hits += correct(model.forward(xy[0]), xy[1]);
                }
            }
        }
        return (double) hits / d.n;
    }
}
