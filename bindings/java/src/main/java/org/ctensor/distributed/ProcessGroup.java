// ProcessGroup.java - a group of processes (ranks) started by mpirun and the collectives between them, over the
// C ABI's ct_process_group (Open MPI for CPU tensors; docs/distributed.md).
package org.ctensor.distributed;

import java.lang.ref.Reference;
import java.time.Duration;
import org.ctensor.Tensor;
import org.ctensor.internal.CT;
import org.ctensor.internal.NativeOwner;

/**
 * A process group. Every rank must make the same calls in the same order; a rank that disagrees (shape, dtype, op)
 * or does not arrive within the timeout makes every rank throw {@link org.ctensor.DistributedException} instead of
 * hanging. Without the MPI backend every call throws {@link org.ctensor.NotCompiledException}.
 *
 * <pre>{@code
 * try (ProcessGroup world = ProcessGroup.mpi(); Tensor g = Tensor.ones(1000)) {
 *     world.allReduce(g, ReduceOp.MEAN);      // in place: the mean over the ranks
 *     world.broadcast(g, 0);
 * }
 * }</pre>
 */
public final class ProcessGroup implements AutoCloseable {
    private final NativeOwner ref;

    private ProcessGroup(long handle) {
        ref = new NativeOwner(this, handle, CT::process_group_release, "ProcessGroup");
    }

    /** The world group of the MPI launch (mpirun/srun); initialises MPI if the program has not. */
    public static ProcessGroup mpi() {
        return new ProcessGroup(CT.process_group_new_mpi());
    }

    /**
     * A group of the given ranks of this group (members get their position in ranks as rank). Collective: every rank
     * of this group must call it with the same ranks; a rank not listed gets a group of size 0 and rank -1, on which
     * collectives throw.
     */
    public ProcessGroup subgroup(int... ranks) {
        long[] rs = new long[ranks.length];
        for (int i = 0; i < ranks.length; ++i) rs[i] = ranks[i];
        try {
            return new ProcessGroup(CT.process_group_new_subgroup(handle(), rs));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** A second Java object for the same group (its own reference, closed independently). */
    public ProcessGroup share() {
        try {
            return new ProcessGroup(CT.process_group_retain(handle()));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The native handle (borrowed: valid while this group is open). */
    public long handle() {
        return ref.get();
    }

    /** This process's rank in the group (-1 when it is not a member). */
    public int rank() {
        try {
            return (int) CT.process_group_rank(handle());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The number of ranks (0 when this process is not a member). */
    public int size() {
        try {
            return (int) CT.process_group_size(handle());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Whether this process belongs to the group. */
    public boolean isMember() {
        return rank() >= 0;
    }

    /** How long later calls wait for the other ranks (> 0; default $CTENSOR_DIST_TIMEOUT, else 300 s). */
    public ProcessGroup setTimeout(Duration timeout) {
        try {
            CT.process_group_set_timeout(handle(), timeout.toNanos() / 1e9);
        } finally {
            Reference.reachabilityFence(this);
        }
        return this;
    }

    /**
     * false trades safety for latency: later collectives skip the agreement round trip, so ranks that disagree (shape,
     * dtype, op) are no longer reported (MPI's undefined behaviour: a hang, an error or wrong data) and a blocking
     * collective waits for absent ranks without a timeout. true (the default) turns the checks back on.
     */
    public ProcessGroup setChecks(boolean enabled) {
        try {
            CT.process_group_set_checks(handle(), enabled ? 1 : 0);
        } finally {
            Reference.reachabilityFence(this);
        }
        return this;
    }

    /** In place: t = op over the ranks' t. */
    public void allReduce(Tensor t, ReduceOp op) {
        try {
            CT.all_reduce(handle(), t.handle(), op.value());
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    /** In place: t = rank root's t on every rank. */
    public void broadcast(Tensor t, int root) {
        try {
            CT.broadcast(handle(), t.handle(), root);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    /** The ranks' inputs stacked in rank order: shape [size, *input.shape]. */
    public Tensor allGather(Tensor input) {
        try {
            return Tensor.fromHandle(CT.all_gather(handle(), input.handle()));
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(input);
        }
    }

    /** This rank's chunk (dim 0 split in size parts) of op over the ranks' inputs. */
    public Tensor reduceScatter(Tensor input, ReduceOp op) {
        try {
            return Tensor.fromHandle(CT.reduce_scatter(handle(), input.handle(), op.value()));
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(input);
        }
    }

    /** Returns once every rank of the group has called it. */
    public void barrier() {
        try {
            CT.barrier(handle());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Sends t to rank dst, matched by a recv there with the same tag (>= 0); a large send may wait for its recv. */
    public void send(Tensor t, int dst, int tag) {
        try {
            CT.send(handle(), t.handle(), dst, tag);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    /** Receives into t (the sender's number of elements and dtype) from rank src with tag. */
    public void recv(Tensor t, int src, int tag) {
        try {
            CT.recv(handle(), t.handle(), src, tag);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    /** Starts allReduce; t must stay unused until the returned work is done. */
    public Work allReduceAsync(Tensor t, ReduceOp op) {
        try {
            return new Work(CT.all_reduce_async(handle(), t.handle(), op.value()));
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    /** Starts broadcast; t must stay unused until the returned work is done. */
    public Work broadcastAsync(Tensor t, int root) {
        try {
            return new Work(CT.broadcast_async(handle(), t.handle(), root));
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(t);
        }
    }

    public boolean isClosed() {
        return ref.isClosed();
    }

    /** Releases this reference to the group (works in flight keep it alive); idempotent. */
    @Override
    public void close() {
        ref.close();
    }

    @Override
    public String toString() {
        return isClosed() ? "ProcessGroup(closed)" : "ProcessGroup(rank " + rank() + " of " + size() + ")";
    }
}
