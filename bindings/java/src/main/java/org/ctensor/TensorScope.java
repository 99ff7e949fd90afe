// TensorScope.java - try-with-resources scope (per thread, nestable) that closes every tensor created inside it
// except those kept: keep() hands a tensor to the enclosing scope (or to nobody when there is none).
package org.ctensor;

import java.util.ArrayList;
import java.util.function.Supplier;

public final class TensorScope implements AutoCloseable {
    private static final ThreadLocal<TensorScope> CURRENT = new ThreadLocal<>();

    private final TensorScope parent;
    private final Thread thread = Thread.currentThread();
    private ArrayList<Tensor> tensors = new ArrayList<>();

    /** Opens a scope on this thread; tensors created on this thread until close() belong to it. */
    public TensorScope() {
        parent = CURRENT.get();
        CURRENT.set(this);
    }

    /** Runs body in a new scope and returns its result, which survives the scope. */
    public static Tensor run(Supplier<Tensor> body) {
        try (TensorScope scope = new TensorScope()) {
            return scope.keep(body.get());
        }
    }

    static void adopt(Tensor t) {
        TensorScope s = CURRENT.get();
        if (s != null) {
            s.tensors.add(t);
            t.scope = s;
        }
    }

    /** Lets t outlive this scope (it moves to the enclosing scope, if any); returns t. */
    public Tensor keep(Tensor t) {
        if (t != null && t.scope == this) {
            t.scope = parent;
            if (parent != null) parent.tensors.add(t);
        }
        return t;
    }

    /** Keeps every tensor of ts; returns ts. */
    public Tensor[] keep(Tensor... ts) {
        for (Tensor t : ts) keep(t);
        return ts;
    }

    /** Number of tensors this scope will close. */
    public int size() {
        int n = 0;
        if (tensors != null) for (Tensor t : tensors) if (t.scope == this && !t.isClosed()) ++n;
        return n;
    }

    /** Closes every tensor created in this scope and not kept (idempotent). */
    @Override
    public void close() {
        if (tensors == null) return;
        if (Thread.currentThread() != thread) throw new IllegalStateException("a TensorScope must be closed by the thread that opened it");
        if (CURRENT.get() == this) {
            if (parent != null) CURRENT.set(parent);
            else CURRENT.remove();
        }
        ArrayList<Tensor> list = tensors;
        tensors = null;
        for (Tensor t : list) {
            if (t.scope == this) {
                t.scope = null;
                t.close();
            }
        }
    }
}
