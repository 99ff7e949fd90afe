// TensorCore.java - the part of Tensor that owns the native reference (released once by close(), by its
// TensorScope, or by the Cleaner backstop) and reads it: metadata, repr, data out, autograd state and hooks,
// DLPack export. Package-private: users see these methods on Tensor.
package org.ctensor;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.ctensor.internal.CT;
import org.ctensor.internal.Callbacks;
import org.ctensor.internal.NativeHook;

abstract class TensorCore extends TensorFactories implements AutoCloseable {
    private final Native.Ref ref;
    private final Cleaner.Cleanable cleanable;
    /** The scope that will close this tensor (null: none). Only touched by the creating thread. */
    TensorScope scope;

    TensorCore(long handle) {
        ref = new Native.Ref(handle, Native.RELEASE_TENSOR);
        cleanable = Native.track(this, ref);
        TensorScope.adopt((Tensor) this); // Tensor is the only subclass
    }

    /** Wraps a new native reference from the low-level API (org.ctensor.internal.CT); the Tensor owns it. */
    public static Tensor fromHandle(long ownedHandle) {
        if (ownedHandle == 0) throw new IllegalArgumentException("null tensor handle");
        return Tensor.own(ownedHandle);
    }

    /** The native handle (borrowed: valid while this tensor is open). */
    public long handle() {
        long h = ref.get();
        if (h == 0) throw new IllegalStateException("ctensor: this Tensor is closed");
        return h;
    }

    static long[] handles(Tensor... ts) {
        long[] hs = new long[ts.length];
        for (int i = 0; i < ts.length; ++i) hs[i] = ts[i].handle();
        return hs;
    }

    static long handleOrZero(Tensor t) {
        return t == null ? 0 : t.handle();
    }

    /** Releases the native reference now (idempotent). */
    @Override
    public void close() {
        cleanable.clean();
    }

    /** Takes this tensor out of its TensorScope (only close() or the Cleaner release it then); returns this. */
    public Tensor unscoped() {
        scope = null;
        return (Tensor) this;
    }

    public boolean isClosed() {
        return ref.get() == 0;
    }

    /** A second Java object for the same tensor (its own reference, closed independently). */
    public Tensor share() {
        return Tensor.own(CT.tensor_retain(handle()), this);
    }

    public int dim() {
        return Native.kept((int) CT.tensor_ndim(handle()), this);
    }

    public long[] shape() {
        long h = handle();
        long[] dims = new long[(int) CT.tensor_ndim(h)];
        CT.tensor_shape(h, dims);
        return dims;
    }

    /** Size of dim (negative counts from the end). */
    public long size(int dim) {
        long[] s = shape();
        int d = dim < 0 ? dim + s.length : dim;
        if (d < 0 || d >= s.length) throw new IndexOutOfBoundsException("dim " + dim + " of a " + s.length + "-d tensor");
        return s[d];
    }

    public long[] strides() {
        long h = handle();
        long[] st = new long[(int) CT.tensor_ndim(h)];
        CT.tensor_strides(h, st);
        return st;
    }

    public long offset() {
        return Native.kept(CT.tensor_offset(handle()), this);
    }

    public long numel() {
        return Native.kept(CT.tensor_numel(handle()), this);
    }

    public DType dtype() {
        return Native.kept(DType.of((int) CT.tensor_dtype(handle())), this);
    }

    public Device device() {
        return Native.kept(Device.decode(CT.tensor_device(handle())), this);
    }

    public boolean isContiguous() {
        return Native.kept(CT.tensor_is_contiguous(handle()) != 0, this);
    }

    /** Address of the first element (valid while this tensor is open). */
    public long dataPtr() {
        return Native.kept(CT.tensor_data_ptr(handle()), this);
    }

    /** Version counter bumped by in-place writes. */
    public long version() {
        return Native.kept(CT.tensor_version(handle()), this);
    }

    public boolean sharesStorage(Tensor other) {
        return Native.kept(CT.tensor_shares_storage(handle(), other.handle()) != 0, this, other);
    }

    /** PyTorch-like text, e.g. "tensor([[1., 2.]], requires_grad=True)". */
    @Override
    public String toString() {
        long h = ref.get();
        if (h == 0) return "tensor(<closed>)";
        long len = CT.tensor_to_string(h, null);
        byte[] buf = new byte[(int) Math.min(len + 1, Integer.MAX_VALUE - 8)];
        CT.tensor_to_string(h, buf);
        return Callbacks.utf8(buf, len);
    }

    /** Copies the elements (row-major) into dst, a primitive array or direct buffer of exactly numel*itemsize bytes. */
    public void copyTo(Object dst) {
        CT.tensor_copy_to_host(handle(), dst);
        Native.keepAlive(this);
    }

    private Tensor as(DType dt) {
        return Native.kept(dtype() == dt ? share() : Tensor.own(CT.to_dtype(handle(), dt.code)), this);
    }

    public float[] toFloatArray() {
        try (Tensor t = as(DType.FLOAT32)) {
            float[] out = new float[Math.toIntExact(t.numel())];
            t.copyTo(out);
            return out;
        }
    }

    public double[] toDoubleArray() {
        try (Tensor t = as(DType.FLOAT64)) {
            double[] out = new double[Math.toIntExact(t.numel())];
            t.copyTo(out);
            return out;
        }
    }

    public long[] toLongArray() {
        try (Tensor t = as(DType.INT64)) {
            long[] out = new long[Math.toIntExact(t.numel())];
            t.copyTo(out);
            return out;
        }
    }

    public int[] toIntArray() {
        try (Tensor t = as(DType.INT32)) {
            int[] out = new int[Math.toIntExact(t.numel())];
            t.copyTo(out);
            return out;
        }
    }

    public boolean[] toBooleanArray() {
        try (Tensor t = as(DType.BOOL)) {
            boolean[] out = new boolean[Math.toIntExact(t.numel())];
            t.copyTo(out);
            return out;
        }
    }

    /** A new direct buffer (native byte order) holding a copy of the elements. */
    public ByteBuffer toBuffer() {
        ByteBuffer out = ByteBuffer.allocateDirect(Math.toIntExact(Math.multiplyExact(numel(), (long) dtype().itemSize)))
                .order(ByteOrder.nativeOrder());
        copyTo(out);
        return out;
    }

    /** The value of a one-element tensor. */
    public double item() {
        return Native.kept(CT.tensor_item(handle()), this);
    }

    /** The value of a one-element tensor as a long (exact for integer dtypes). */
    public long itemLong() {
        return Native.kept(CT.tensor_item_int64(handle()), this);
    }

    public boolean requiresGrad() {
        return Native.kept(CT.tensor_requires_grad(handle()) != 0, this);
    }

    /** Marks a leaf as requiring grad (floating dtypes only); returns this. */
    public Tensor requiresGrad(boolean requiresGrad) {
        CT.tensor_set_requires_grad(handle(), requiresGrad ? 1 : 0);
        Native.keepAlive(this);
        return (Tensor) this;
    }

    public boolean isLeaf() {
        return Native.kept(CT.tensor_is_leaf(handle()) != 0, this);
    }

    /** The accumulated gradient (a new Tensor each call), or null. */
    public Tensor grad() {
        long g = CT.tensor_grad(handle());
        Native.keepAlive(this);
        return g == 0 ? null : Tensor.own(g);
    }

    /** Replaces the gradient (null clears it). */
    public void setGrad(Tensor grad) {
        CT.tensor_set_grad(handle(), handleOrZero(grad));
        Native.keepAlive(this, grad);
    }

    /** Makes a non-leaf keep its gradient in backward. */
    public Tensor retainGrad() {
        CT.tensor_retain_grad(handle());
        Native.keepAlive(this);
        return (Tensor) this;
    }

    /** Name of the node that made this tensor ("MulBackward", ...); "" for leaves. */
    public String gradFnName() {
        long h = handle();
        long len = CT.tensor_grad_fn_name(h, null);
        byte[] buf = new byte[(int) len + 1];
        CT.tensor_grad_fn_name(h, buf);
        return Callbacks.utf8(buf, len);
    }

    public void backward() {
        CT.backward(handle(), 0, 0, 0);
        Native.keepAlive(this);
    }

    public void backward(Tensor gradOutput) {
        CT.backward(handle(), handleOrZero(gradOutput), 0, 0);
        Native.keepAlive(this, gradOutput);
    }

    public void backward(Tensor gradOutput, boolean retainGraph, boolean createGraph) {
        CT.backward(handle(), handleOrZero(gradOutput), retainGraph ? 1 : 0, createGraph ? 1 : 0);
        Native.keepAlive(this, gradOutput);
    }

    /** Registers a hook run with this tensor's gradient during backward; returns its id for removeHook. */
    public long registerHook(Hook hook) {
        if (hook == null) throw new NullPointerException("hook");
        NativeHook trampoline = grad -> {
            try (TensorScope scope = new TensorScope()) {
                Tensor g = Tensor.own(CT.tensor_retain(grad));
                Tensor r = hook.apply(g);
                return Native.kept(r == null ? 0 : CT.tensor_retain(r.handle()), r);
            }
        };
        return CT.ctj_tensor_register_hook(handle(), trampoline);
    }

    public void removeHook(long id) {
        CT.tensor_remove_hook(handle(), id);
        Native.keepAlive(this);
    }

    /** Exports as a legacy DLManagedTensor address (the consumer calls its deleter once). */
    @Op("to_dlpack")
    public long toDLPack() {
        return Native.kept(CT.to_dlpack(handle()), this);
    }

    /** Exports as a DLManagedTensorVersioned address. */
    public long toDLPackVersioned() {
        return Native.kept(CT.to_dlpack_versioned(handle()), this);
    }
}
