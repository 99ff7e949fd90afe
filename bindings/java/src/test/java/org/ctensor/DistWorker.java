// DistWorker.java - run by DistributedTest under `mpirun -np N` (one JVM per rank): every collective of
// org.ctensor.distributed checked against values each rank computes locally (rank r contributes i + r + 1 at element
// i), async works, subgroups, a send/recv ring, a shape mismatch failing on every rank, and the live-handle count.
// Then nn.DistributedDataParallel: a few SGD steps on each rank's rows (one with a noSync micro-batch) equal the
// single-process steps over the combined batch; buffers, finish and bucket counts. Prints "rank R of N: K checks
// passed". With the argument "not-compiled" (and CTENSOR_MPI_BACKEND naming a missing file) it checks instead that the
// first distributed call throws NotCompiledException.
package org.ctensor;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.ctensor.distributed.ProcessGroup;
import org.ctensor.distributed.ReduceOp;
import org.ctensor.distributed.Work;
import org.ctensor.nn.Activation;
import org.ctensor.nn.BatchNorm;
import org.ctensor.nn.DistributedDataParallel;
import org.ctensor.nn.Functional;
import org.ctensor.nn.Linear;
import org.ctensor.nn.Module;
import org.ctensor.nn.Sequential;
import org.ctensor.optim.SGD;

public final class DistWorker {
    private static int rank = -1;
    private static int checks = 0;

    private DistWorker() {}

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("rank " + rank + ": " + what);
        checks++;
    }

    /** Rank r's input: element i is i + r + 1 (6 elements, shape [2, 3]). */
    static double[] contribution(int r) {
        double[] v = new double[6];
        for (int i = 0; i < 6; ++i) v[i] = i + r + 1;
        return v;
    }

    /** op over the ranks' element i, in the dtype's arithmetic (integers wrap; uint8 modulo 256). */
    static double reduceLocal(int size, int i, ReduceOp op, DType dtype) {
        if (!dtype.isFloatingPoint() && (op == ReduceOp.SUM || op == ReduceOp.PRODUCT)) {
            long acc = op == ReduceOp.SUM ? 0 : 1;
            for (int r = 0; r < size; ++r) acc = op == ReduceOp.SUM ? acc + (long) contribution(r)[i] : acc * (long) contribution(r)[i];
            return dtype == DType.UINT8 ? (double) (acc & 0xff) : dtype == DType.INT32 ? (double) (int) acc : (double) acc;
        }
        double acc = op == ReduceOp.SUM || op == ReduceOp.MEAN ? 0 : op == ReduceOp.PRODUCT ? 1
                : op == ReduceOp.MAX ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (int r = 0; r < size; ++r) {
            double v = contribution(r)[i];
            acc = switch (op) {
                case SUM, MEAN -> acc + v;
                case PRODUCT -> acc * v;
                case MAX -> Math.max(acc, v);
                case MIN -> Math.min(acc, v);
            };
        }
        return op == ReduceOp.MEAN ? acc / size : acc;
    }

    static void collectives(ProcessGroup world) {
        int size = world.size();
        Tensor mine = Tensor.fromArray(contribution(rank), 2, 3);
        for (DType dtype : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT32, DType.INT64, DType.UINT8}) {
            for (ReduceOp op : ReduceOp.values()) {
                Tensor t = mine.to(dtype).copy(); // to() of the same dtype may be mine itself
                if (op == ReduceOp.MEAN && !dtype.isFloatingPoint()) {
                    try {
                        world.allReduce(t, op);
                        check(false, "mean of " + dtype + " throws");
                    } catch (DTypeException e) {
                        check(true, "mean of an integer dtype is a DTypeException");
                    }
                    continue;
                }
                world.allReduce(t, op);
                double[] want = new double[6];
                for (int i = 0; i < 6; ++i) want[i] = reduceLocal(size, i, op, dtype);
                check(Arrays.equals(t.toDoubleArray(), want), "allReduce " + dtype + " " + op + ": "
                        + Arrays.toString(t.toDoubleArray()) + " vs " + Arrays.toString(want));
            }
        }
        for (ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PRODUCT}) {
            boolean[] flags = new boolean[6];
            boolean[] want = new boolean[6];
            boolean any = op == ReduceOp.SUM || op == ReduceOp.MAX;
            for (int i = 0; i < 6; ++i) {
                flags[i] = (i + rank) % 3 == 0;
                want[i] = !any;
                for (int r = 0; r < size; ++r) want[i] = any ? want[i] || (i + r) % 3 == 0 : want[i] && (i + r) % 3 == 0;
            }
            Tensor t = Tensor.fromArray(flags, 6);
            world.allReduce(t, op);
            check(Arrays.equals(t.toBooleanArray(), want), "allReduce bool " + op);
        }

        double[] sum = new double[6];
        for (int i = 0; i < 6; ++i) sum[i] = reduceLocal(size, i, ReduceOp.SUM, DType.FLOAT64);
        Tensor t = mine.copy();
        try (Work w = world.allReduceAsync(t, ReduceOp.SUM)) {
            w.waitFor();
            check(w.isCompleted(), "async allReduce completes");
        }
        check(Arrays.equals(t.toDoubleArray(), sum), "async allReduce value");
        Tensor b = mine.to(DType.INT64);
        try (Work w = world.broadcastAsync(b, 0)) {
            while (!w.isCompleted()) Thread.onSpinWait();
            w.waitFor();
        }
        check(Arrays.equals(b.toDoubleArray(), contribution(0)), "async broadcast value");
        Tensor m = mine.copy();
        world.allReduceAsync(m, ReduceOp.MAX).close(); // closing an unfinished work waits for it
        check(Arrays.equals(m.toDoubleArray(), contribution(size - 1)), "closed async allReduce finished");

        Tensor tr = mine.copy().transpose(0, 1); // a non-contiguous view of a copy
        world.broadcast(tr, size - 1);
        double[] last = contribution(size - 1);
        double[] wantT = {last[0], last[3], last[1], last[4], last[2], last[5]};
        check(Arrays.equals(tr.toDoubleArray(), wantT), "broadcast into a transposed view");

        for (DType dtype : new DType[] {DType.FLOAT32, DType.INT32, DType.UINT8}) {
            Tensor g = world.allGather(mine.to(dtype));
            double[] want = new double[6 * size];
            for (int r = 0; r < size; ++r) System.arraycopy(contribution(r), 0, want, 6 * r, 6);
            check(Arrays.equals(g.shape(), new long[] {size, 2, 3}) && g.dtype() == dtype, "allGather shape and dtype");
            check(Arrays.equals(g.toDoubleArray(), want), "allGather " + dtype);
        }

        double[] rows = new double[2 * size]; // row i holds rank * 10 + i; this rank's chunk is row `rank` of the sum
        for (int i = 0; i < size; ++i) rows[2 * i] = rows[2 * i + 1] = rank * 10 + i;
        for (DType dtype : new DType[] {DType.FLOAT64, DType.INT64}) {
            Tensor out = world.reduceScatter(Tensor.fromArray(rows, size, 2).to(dtype), ReduceOp.SUM);
            double v = 0;
            for (int r = 0; r < size; ++r) v += r * 10 + rank;
            check(Arrays.equals(out.shape(), new long[] {1, 2}) && Arrays.equals(out.toDoubleArray(), new double[] {v, v}),
                    "reduceScatter " + dtype);
        }

        int next = (rank + 1) % size, prev = (rank + size - 1) % size; // a ring; even ranks send first
        Tensor payload = Tensor.fromArray(new long[] {rank, (long) rank * rank}, 2);
        Tensor got = Tensor.zeros(DType.INT64, 2);
        if (rank % 2 == 0) {
            world.send(payload, next, 7);
            world.recv(got, prev, 7);
        } else {
            world.recv(got, prev, 7);
            world.send(payload, next, 7);
        }
        check(Arrays.equals(got.toLongArray(), new long[] {prev, (long) prev * prev}), "send/recv ring");

        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; ++i) evens[i] = 2 * i;
        try (ProcessGroup group = world.subgroup(evens)) {
            Tensor one = Tensor.ones(1);
            if (rank % 2 == 0) {
                group.allReduce(one, ReduceOp.SUM);
                check(group.rank() == rank / 2 && group.size() == evens.length, "subgroup rank and size");
                check(one.item() == evens.length, "subgroup allReduce");
            } else {
                check(group.rank() == -1 && group.size() == 0 && !group.isMember(), "non-member of a subgroup");
                try {
                    group.allReduce(one, ReduceOp.SUM);
                    check(false, "a non-member's collective throws");
                } catch (InvalidArgumentException e) {
                    check(true, "a non-member's collective is an InvalidArgumentException");
                }
            }
        }
        world.barrier();

        ProcessGroup other = world.share(); // a second reference: closing it twice is fine, using it after is not
        check(other.rank() == rank && other.size() == size, "a shared group");
        other.close();
        other.close();
        try {
            other.barrier();
            check(false, "a closed group throws");
        } catch (IllegalStateException e) {
            check(e.getMessage().contains("closed"), "a closed group: " + e.getMessage());
        }
        world.setChecks(false); // without the agreement checks results stay right; back on, the mismatch is caught
        Tensor unchecked = mine.copy();
        world.allReduce(unchecked, ReduceOp.SUM);
        check(Arrays.equals(unchecked.toDoubleArray(), sum), "allReduce without checks");
        world.setChecks(true);
        Tensor bad = Tensor.ones(rank == 0 ? 3 : 4); // every rank throws, none hangs; the group stays usable
        try {
            world.allReduce(bad, ReduceOp.SUM);
            check(false, "a shape mismatch throws");
        } catch (DistributedException e) {
            check(e.getMessage().contains("all_reduce") && e.getMessage().contains("shape"), "mismatch: " + e.getMessage());
        }
        try {
            world.broadcast(bad, size);
            check(false, "a root outside the group throws");
        } catch (IndexException e) {
            check(true, "root outside the group: IndexException");
        }
        world.barrier();
    }

    /** Rows ids of step's global batch: {x [n, 3], y [n, 1]} in float32. */
    static Tensor[] batch(long[] ids, int step) {
        float[] x = new float[ids.length * 3], y = new float[ids.length];
        for (int k = 0; k < ids.length; ++k) {
            for (int j = 0; j < 3; ++j) x[3 * k + j] = (float) Math.sin((ids[k] * 3 + j + step * 11) * 0.13);
            y[k] = (float) Math.cos(ids[k] * 0.7 + step);
        }
        return new Tensor[] {Tensor.fromArray(x, ids.length, 3), Tensor.fromArray(y, ids.length, 1)};
    }

    static Tensor loss(Module m, Tensor[] xy) {
        return Functional.mseLoss(m.forward(xy[0]), xy[1]);
    }

    static long[] range(long from, long to, java.util.function.LongPredicate keep) {
        return java.util.stream.LongStream.range(from, to).filter(keep).toArray();
    }

    static Sequential mlp(long seed) {
        Generator gen = new Generator(seed);
        Sequential m = new Sequential(new Linear(3, 4, gen), Activation.tanh(), new Linear(4, 1, gen));
        gen.close();
        return m;
    }

    static void dataParallel(ProcessGroup world) {
        int size = world.size();
        // rank-dependent initial weights: the DDP constructor broadcasts rank 0's (seed 100), like the reference
        try (DistributedDataParallel ddp = new DistributedDataParallel(mlp(100 + rank), world, 64); // 64 B: several buckets
             Sequential ref = mlp(100);
             SGD opt = new SGD(ddp.parameters(), 0.1);
             SGD refOpt = new SGD(ref.parameters(), 0.1)) {
            List<Tensor> ps = ddp.parameters(), qs = ref.parameters();
            for (int i = 0; i < ps.size(); ++i)
                check(Arrays.equals(ps.get(i).toDoubleArray(), qs.get(i).toDoubleArray()), "DDP broadcast rank 0's params");
            check(ddp.bucketCount() >= 2, "64-byte buckets: " + ddp.bucketCount());
            long[] local = range(4L * rank, 4L * rank + 4, i -> true), global = range(0, 4L * size, i -> true);
            for (int step = 0; step < 3; ++step) {
                opt.zeroGrad();
                loss(ddp, batch(local, step)).backward();
                opt.step();
                refOpt.zeroGrad();
                loss(ref, batch(global, step)).backward();
                refOpt.step();
            }
            opt.zeroGrad(); // gradient accumulation: the first two local rows under noSync, then the last two
            Tensor first;
            try (DistributedDataParallel.NoSync s = ddp.noSync()) {
                first = loss(ddp, batch(range(4L * rank, 4L * rank + 2, i -> true), 3));
            }
            first.backward(); // as torch: the forward ran inside noSync, so this backward accumulates locally
            loss(ddp, batch(range(4L * rank + 2, 4L * rank + 4, i -> true), 3)).backward();
            ddp.finish(); // nothing left open: a no-op
            opt.step();
            refOpt.zeroGrad();
            loss(ref, batch(range(0, 4L * size, i -> i % 4 < 2), 3)).add(loss(ref, batch(range(0, 4L * size, i -> i % 4 >= 2), 3))).backward();
            refOpt.step();
            for (int i = 0; i < ps.size(); ++i) {
                double[] a = ps.get(i).toDoubleArray(), b = qs.get(i).toDoubleArray();
                boolean close = true;
                for (int k = 0; k < a.length; ++k) close &= Math.abs(a[k] - b[k]) <= 1e-5;
                check(close, "DDP params " + Arrays.toString(a) + " vs single process " + Arrays.toString(b));
            }
        }
        try (DistributedDataParallel one = new DistributedDataParallel(mlp(7), world)) { // default 25 MiB buckets
            check(one.bucketCount() == 1, "default buckets: one per dtype");
        }
        // a parameter the backward never reaches leaves the round open until finish(), which counts it as zero
        try (Linear half = new Linear(2, 1); Linear idle = new Linear(2, 1);
             DistributedDataParallel d = new DistributedDataParallel(new Sequential(half, idle), world)) {
            half.forward(Tensor.ones(1, 2)).mul(rank + 1).sum().backward();
            d.finish();
            double mean = (size + 1) / 2.0;
            check(Arrays.equals(half.bias.grad().toDoubleArray(), new double[] {mean}), "finish() averages a round left open");
        }
        // buffers: broadcast from rank 0 by the constructor and by each forward
        BatchNorm bn = new BatchNorm(3);
        bn.runningMean.fill(rank + 1);
        try (DistributedDataParallel d = new DistributedDataParallel(new Sequential(bn), world)) {
            check(Arrays.equals(bn.runningMean.toDoubleArray(), new double[] {1, 1, 1}), "constructor broadcasts buffers");
            bn.runningMean.fill(rank + 5);
            d.eval();
            d.forward(Tensor.ones(2, 3));
            check(Arrays.equals(bn.runningMean.toDoubleArray(), new double[] {5, 5, 5}), "forward broadcasts buffers");
        }
        try (Linear odd = new Linear(rank == 0 ? 2 : 3, 1)) { // other shapes on some rank: every rank throws
            new DistributedDataParallel(odd, world).close();
            check(false, "DDP over mismatched shapes throws");
        } catch (DistributedException e) {
            check(true, e.getMessage());
        }
    }

    static void notCompiled() {
        try (ProcessGroup pg = ProcessGroup.mpi()) {
            throw new AssertionError("expected NotCompiledException, got " + pg);
        } catch (NotCompiledException e) {
            if (!e.getMessage().contains("/nonexistent/libctensor_mpi.so.1")) throw new AssertionError(e.getMessage());
        }
        try (Tensor t = Tensor.ones(3).mul(2.0)) {
            if (!Arrays.equals(t.toDoubleArray(), new double[] {2, 2, 2})) throw new AssertionError("tensors still work");
        }
        System.out.println("not compiled: NotCompiledException as expected");
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("not-compiled")) {
            notCompiled();
            return;
        }
        long before = Tensor.liveHandles();
        int size;
        try (ProcessGroup world = ProcessGroup.mpi().setTimeout(Duration.ofSeconds(30))) {
            rank = world.rank();
            size = world.size();
            try (TensorScope scope = new TensorScope()) {
                collectives(world);
                dataParallel(world);
            }
        }
        check(Tensor.liveHandles() == before, "no handles leaked (" + Tensor.liveHandles() + " vs " + before + ")");
        System.out.println("rank " + rank + " of " + size + ": " + checks + " checks passed");
    }
}
