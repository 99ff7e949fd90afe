// Work.java - an asynchronous collective in flight (ProcessGroup.allReduceAsync / broadcastAsync).
package org.ctensor.distributed;

import java.lang.ref.Reference;
import org.ctensor.internal.CT;
import org.ctensor.internal.NativeOwner;

/**
 * An asynchronous collective. Its tensor must stay unused until the work is done; the work holds a native reference
 * to it, so closing the Java tensor early is safe. close() of an unfinished work waits for it (a failure is then
 * lost: call {@link #waitFor()} to see it); use try-with-resources.
 */
public final class Work implements AutoCloseable {
    private final NativeOwner ref;

    Work(long handle) {
        ref = new NativeOwner(this, handle, CT::work_release, "Work");
    }

    /** Waits for the collective (at most its group's timeout); throws its failure (a DistributedException, ...). */
    public void waitFor() {
        try {
            CT.work_wait(ref.get());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Whether the collective has finished (successfully or not; waitFor() says which). */
    public boolean isCompleted() {
        try {
            return CT.work_is_completed(ref.get()) != 0;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Releases the work (waiting for it when unfinished); idempotent. */
    @Override
    public void close() {
        ref.close();
    }
}
