// DistributedDataParallel.java - wraps a module for data-parallel training over a process group (torch's DDP): each
// backward leaves in every parameter's .grad the mean over the ranks of its gradient (the C ABI's ct_data_parallel).
package org.ctensor.nn;

import java.lang.ref.Reference;
import java.util.List;
import org.ctensor.NoGrad;
import org.ctensor.Tensor;
import org.ctensor.distributed.ProcessGroup;
import org.ctensor.internal.CT;
import org.ctensor.internal.NativeOwner;

/**
 * Data-parallel training: every rank runs the same model on its own part of the batch; backward averages the
 * gradients over the ranks (in buckets all-reduced while backward goes on), so an optimizer step keeps the replicas
 * equal. The constructor is collective: it broadcasts the module's parameters and buffers from rank 0 (in place) and
 * hooks the parameters. As in torch, each forward first broadcasts the buffers from rank 0 (unless broadcastBuffers is
 * off; every rank must then run the same forwards) and decides whether the coming backward averages: not when the
 * forward ran inside a {@link #noSync()} scope. The wrapped module is a child named "module" (state dict keys
 * "module.*", as torch); close() removes the hooks and closes the module like any container.
 *
 * <pre>{@code
 * try (ProcessGroup world = ProcessGroup.mpi();
 *      DistributedDataParallel ddp = new DistributedDataParallel(new Linear(4, 1), world);
 *      SGD opt = new SGD(ddp.parameters(), 0.1)) {
 *     try (DistributedDataParallel.NoSync s = ddp.noSync()) {
 *         loss(ddp.forward(xa)).backward();         // a forward inside the scope: accumulates locally
 *     }
 *     loss(ddp.forward(xb)).backward();             // averages both micro-batches over the ranks
 *     opt.step();
 * }
 * }</pre>
 */
public final class DistributedDataParallel extends Module {
    private final Module module;
    private final ProcessGroup pg;
    private final NativeOwner ref;
    private final boolean broadcastBuffers;
    private boolean requireSync = true;

    /** Wraps module with gradient buckets of the default size (25 MiB), broadcasting buffers at each forward. */
    public DistributedDataParallel(Module module, ProcessGroup pg) {
        this(module, pg, 0, true);
    }

    /** Wraps module with gradient buckets of about bucketBytes (<= 0: the default), broadcasting buffers. */
    public DistributedDataParallel(Module module, ProcessGroup pg, long bucketBytes) {
        this(module, pg, bucketBytes, true);
    }

    /** Wraps module; broadcastBuffers false: forwards do not broadcast the buffers (the constructor still does). */
    public DistributedDataParallel(Module module, ProcessGroup pg, long bucketBytes, boolean broadcastBuffers) {
        this.module = registerModule("module", module);
        this.broadcastBuffers = broadcastBuffers;
        List<Tensor> ps = module.parameters();
        long[] hs = new long[ps.size()];
        for (int i = 0; i < hs.length; ++i) hs[i] = ps.get(i).handle();
        try {
            ref = new NativeOwner(this, CT.data_parallel_new(pg.handle(), hs, bucketBytes), CT::data_parallel_release,
                    "DistributedDataParallel");
        } finally {
            Reference.reachabilityFence(pg);
            Reference.reachabilityFence(ps);
        }
        this.pg = pg.share();
        syncBuffers();
    }

    private void syncBuffers() {
        List<Tensor> bs = module.buffers();
        if (bs.isEmpty()) return;
        try (NoGrad ng = new NoGrad()) {
            for (Tensor b : bs) pg.broadcast(b, 0);
        }
    }

    /** The wrapped module. */
    public Module module() {
        return module;
    }

    /** Broadcasts the buffers (if on), sets whether the coming backward averages, and runs the module. */
    @Override
    public Tensor forward(Tensor x) {
        if (broadcastBuffers) syncBuffers();
        try {
            CT.data_parallel_set_sync(ref.get(), requireSync ? 1 : 0);
        } finally {
            Reference.reachabilityFence(this);
        }
        return module.forward(x);
    }

    /**
     * A scope whose forwards make backwards that accumulate .grad locally (torch's no_sync); the first backward of a
     * forward run after the scope averages everything accumulated.
     */
    public NoSync noSync() {
        requireSync = false;
        return new NoSync();
    }

    /** The scope of {@link #noSync()}; closing it is idempotent. */
    public final class NoSync implements AutoCloseable {
        private NoSync() {}

        @Override
        public void close() {
            requireSync = true;
        }
    }

    /**
     * Completes a reduction the last backward left open because some parameters got no gradient (they count as zero);
     * does nothing when the backward completed it. Call it before the optimizer step when parts may go unused.
     */
    public void finish() {
        try {
            CT.data_parallel_finish(ref.get());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Optional, after the forward and before a synchronising backward (torch's find_unused_parameters): parameters the
     * graph of outputs cannot reach count as zero from the start. All ranks call it or none does.
     */
    public void prepare(Tensor... outputs) {
        long[] hs = new long[outputs.length];
        for (int i = 0; i < hs.length; ++i) hs[i] = outputs[i].handle();
        try {
            CT.data_parallel_prepare(ref.get(), hs);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(outputs);
        }
    }

    /** The number of buckets the gradients are packed into (one all-reduce each per synchronising backward). */
    public int bucketCount() {
        try {
            return (int) CT.data_parallel_bucket_count(ref.get());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Removes the hooks (waiting for reductions in flight), then closes the wrapped module. Idempotent. */
    @Override
    public void close() {
        ref.close();
        pg.close();
        super.close();
    }
}
