// Tensor.java - the user-facing tensor: owns one native reference (released once by close(), by its TensorScope,
// or by the Cleaner backstop), metadata, data in and out, views, elementwise ops, reductions and autograd.
// Factories and joins are static; nn functions live in org.ctensor.nn.Functional. A closed tensor throws
// IllegalStateException; every failed native call throws a CTensorException subclass.
package org.ctensor;

import java.lang.ref.Cleaner;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.function.LongBinaryOperator;
import org.ctensor.internal.CT;
import org.ctensor.internal.Callbacks;
import org.ctensor.internal.NativeHook;

public final class Tensor implements AutoCloseable {
    private final Native.Ref ref;
    private final Cleaner.Cleanable cleanable;
    /** The scope that will close this tensor (null: none). Only touched by the creating thread. */
    TensorScope scope;

    private Tensor(long handle) {
        ref = new Native.Ref(handle, Native.RELEASE_TENSOR);
        cleanable = Native.track(this, ref);
        TensorScope.adopt(this);
    }

    /** Wraps a new native reference (ownership passes to the Tensor). */
    static Tensor own(long handle) {
        return new Tensor(handle);
    }

    /** Wraps a new native reference from the low-level API (org.ctensor.internal.CT); the Tensor owns it. */
    public static Tensor fromHandle(long ownedHandle) {
        if (ownedHandle == 0) throw new IllegalArgumentException("null tensor handle");
        return new Tensor(ownedHandle);
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
        return this;
    }

    public boolean isClosed() {
        return ref.get() == 0;
    }

    /** A second Java object for the same tensor (its own reference, closed independently). */
    public Tensor share() {
        return own(CT.tensor_retain(handle()));
    }

    // ---- metadata ----

    public int dim() {
        return (int) CT.tensor_ndim(handle());
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
        return CT.tensor_offset(handle());
    }

    public long numel() {
        return CT.tensor_numel(handle());
    }

    public DType dtype() {
        return DType.of((int) CT.tensor_dtype(handle()));
    }

    public Device device() {
        return Device.decode(CT.tensor_device(handle()));
    }

    public boolean isContiguous() {
        return CT.tensor_is_contiguous(handle()) != 0;
    }

    /** Address of the first element (valid while this tensor is open). */
    public long dataPtr() {
        return CT.tensor_data_ptr(handle());
    }

    /** Version counter bumped by in-place writes. */
    public long version() {
        return CT.tensor_version(handle());
    }

    public boolean sharesStorage(Tensor other) {
        return CT.tensor_shares_storage(handle(), other.handle()) != 0;
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

    // ---- creation ----

    @Op("empty")
    public static Tensor empty(long[] shape, DType dtype, Device device) {
        return own(CT.empty(shape, dtype.code, device.encode()));
    }

    public static Tensor empty(long... shape) {
        return empty(shape, DType.FLOAT32, Device.CPU);
    }

    @Op("zeros")
    public static Tensor zeros(long[] shape, DType dtype, Device device) {
        return own(CT.zeros(shape, dtype.code, device.encode()));
    }

    public static Tensor zeros(long... shape) {
        return zeros(shape, DType.FLOAT32, Device.CPU);
    }

    public static Tensor zeros(DType dtype, long... shape) {
        return zeros(shape, dtype, Device.CPU);
    }

    @Op("ones")
    public static Tensor ones(long[] shape, DType dtype, Device device) {
        return own(CT.ones(shape, dtype.code, device.encode()));
    }

    public static Tensor ones(long... shape) {
        return ones(shape, DType.FLOAT32, Device.CPU);
    }

    public static Tensor ones(DType dtype, long... shape) {
        return ones(shape, dtype, Device.CPU);
    }

    @Op("full")
    public static Tensor full(long[] shape, double value, DType dtype, Device device) {
        return own(CT.full(shape, value, dtype.code, device.encode()));
    }

    public static Tensor full(long[] shape, double value) {
        return full(shape, value, DType.FLOAT32, Device.CPU);
    }

    /** A 0-d tensor. */
    @Op("scalar_tensor")
    public static Tensor scalar(double value, DType dtype, Device device) {
        return own(CT.scalar_tensor(value, dtype.code, device.encode()));
    }

    public static Tensor scalar(double value) {
        return scalar(value, DType.FLOAT32, Device.CPU);
    }

    /** A 0-d "wrapped number" that takes part in ops like a language scalar (never upcasts a tensor). */
    @Op("wrapped_scalar")
    public static Tensor wrappedScalar(double value, boolean isInteger) {
        return own(CT.wrapped_scalar(value, isInteger ? 1 : 0));
    }

    @Op("arange")
    public static Tensor arange(double start, double end, double step, DType dtype, Device device) {
        return own(CT.arange(start, end, step, dtype.code, device.encode()));
    }

    public static Tensor arange(double start, double end, double step) {
        return arange(start, end, step, DType.FLOAT32, Device.CPU);
    }

    /** 0, 1, ..., end-1 as int64 (like torch.arange with an integer end). */
    public static Tensor arange(long end) {
        return arange(0, end, 1, DType.INT64, Device.CPU);
    }

    @Op("linspace")
    public static Tensor linspace(double start, double end, long steps, DType dtype, Device device) {
        return own(CT.linspace(start, end, steps, dtype.code, device.encode()));
    }

    public static Tensor linspace(double start, double end, long steps) {
        return linspace(start, end, steps, DType.FLOAT32, Device.CPU);
    }

    @Op("eye")
    public static Tensor eye(long n, long m, DType dtype, Device device) {
        return own(CT.eye(n, m, dtype.code, device.encode()));
    }

    public static Tensor eye(long n) {
        return eye(n, n, DType.FLOAT32, Device.CPU);
    }

    @Op("empty_like")
    public Tensor emptyLike() {
        return own(CT.empty_like(handle()));
    }

    @Op("zeros_like")
    public Tensor zerosLike() {
        return own(CT.zeros_like(handle()));
    }

    @Op("ones_like")
    public Tensor onesLike() {
        return own(CT.ones_like(handle()));
    }

    @Op("full_like")
    public Tensor fullLike(double value) {
        return own(CT.full_like(handle(), value));
    }

    /** Copies a primitive array (float[], double[], long[], int[], byte[] or boolean[]) of dtype into a new tensor. */
    @Op("tensor_from_data")
    public static Tensor fromData(Object array, long[] shape, DType dtype, Device device) {
        return own(CT.tensor_from_data(array, shape, dtype.code, device.encode()));
    }

    public static Tensor fromArray(float[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.FLOAT32, Device.CPU);
    }

    public static Tensor fromArray(double[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.FLOAT64, Device.CPU);
    }

    public static Tensor fromArray(long[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.INT64, Device.CPU);
    }

    public static Tensor fromArray(int[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.INT32, Device.CPU);
    }

    public static Tensor fromArray(boolean[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.BOOL, Device.CPU);
    }

    /** Bytes as uint8. */
    public static Tensor fromArray(byte[] data, long... shape) {
        return fromData(data, shape.length == 0 ? new long[] {data.length} : shape, DType.UINT8, Device.CPU);
    }

    public static Tensor fromArray(float[][] rows) {
        int cols = rows.length == 0 ? 0 : rows[0].length;
        float[] flat = new float[rows.length * cols];
        for (int i = 0; i < rows.length; ++i) {
            if (rows[i].length != cols) throw new IllegalArgumentException("ragged float[][]: row " + i + " has " + rows[i].length + " values, row 0 has " + cols);
            System.arraycopy(rows[i], 0, flat, i * cols, cols);
        }
        return fromArray(flat, rows.length, cols);
    }

    public static Tensor fromArray(double[][] rows) {
        int cols = rows.length == 0 ? 0 : rows[0].length;
        double[] flat = new double[rows.length * cols];
        for (int i = 0; i < rows.length; ++i) {
            if (rows[i].length != cols) throw new IllegalArgumentException("ragged double[][]: row " + i + " has " + rows[i].length + " values, row 0 has " + cols);
            System.arraycopy(rows[i], 0, flat, i * cols, cols);
        }
        return fromArray(flat, rows.length, cols);
    }

    /**
     * A tensor over the remaining elements of buf (from its position): zero-copy for a direct buffer in native
     * byte order (the tensor keeps the buffer alive), a copy otherwise. The dtype follows the buffer type
     * (FloatBuffer: float32, DoubleBuffer: float64, LongBuffer: int64, IntBuffer: int32, ByteBuffer: uint8, or
     * the dtype given for a ByteBuffer).
     */
    @Op("tensor_from_blob")
    public static Tensor fromBuffer(Buffer buf, DType dtype, long... shape) {
        DType bufType = bufferType(buf, dtype);
        if (buf.isDirect() && !buf.isReadOnly() && nativeOrder(buf)) {
            long offset = (long) buf.position() * bufferItemSize(buf);
            return own(CT.ctj_tensor_from_buffer(buf, offset, shape, bufType.code));
        }
        ByteBuffer bytes = ByteBuffer.allocateDirect((int) Math.multiplyExact((long) buf.remaining(), (long) bufferItemSize(buf)))
                .order(ByteOrder.nativeOrder());
        copyInto(buf.duplicate(), bytes);
        bytes.rewind();
        return own(CT.ctj_tensor_from_buffer(bytes, 0, shape, bufType.code));
    }

    public static Tensor fromBuffer(Buffer buf, long... shape) {
        return fromBuffer(buf, null, shape);
    }

    private static int bufferItemSize(Buffer b) {
        if (b instanceof ByteBuffer) return 1;
        if (b instanceof FloatBuffer || b instanceof IntBuffer) return 4;
        if (b instanceof DoubleBuffer || b instanceof LongBuffer) return 8;
        throw new IllegalArgumentException("unsupported buffer type " + b.getClass().getName());
    }

    private static DType bufferType(Buffer b, DType requested) {
        DType natural = b instanceof FloatBuffer ? DType.FLOAT32 : b instanceof DoubleBuffer ? DType.FLOAT64
                : b instanceof LongBuffer ? DType.INT64 : b instanceof IntBuffer ? DType.INT32 : DType.UINT8;
        if (requested == null) return natural;
        if (b instanceof ByteBuffer) return requested;
        if (requested != natural) throw new IllegalArgumentException("a " + b.getClass().getSimpleName() + " holds " + natural.pyName() + ", not " + requested.pyName());
        return requested;
    }

    private static boolean nativeOrder(Buffer b) {
        if (b instanceof ByteBuffer) return true; // byte-addressed: the reader chooses the dtype
        if (b instanceof FloatBuffer) return ((FloatBuffer) b).order() == ByteOrder.nativeOrder();
        if (b instanceof DoubleBuffer) return ((DoubleBuffer) b).order() == ByteOrder.nativeOrder();
        if (b instanceof LongBuffer) return ((LongBuffer) b).order() == ByteOrder.nativeOrder();
        return ((IntBuffer) b).order() == ByteOrder.nativeOrder();
    }

    private static void copyInto(Buffer src, ByteBuffer dst) {
        if (src instanceof ByteBuffer) dst.put((ByteBuffer) src);
        else if (src instanceof FloatBuffer) dst.asFloatBuffer().put((FloatBuffer) src);
        else if (src instanceof DoubleBuffer) dst.asDoubleBuffer().put((DoubleBuffer) src);
        else if (src instanceof LongBuffer) dst.asLongBuffer().put((LongBuffer) src);
        else dst.asIntBuffer().put((IntBuffer) src);
    }

    // ---- data out ----

    /** Copies the elements (row-major) into dst, a primitive array or direct buffer of exactly numel*itemsize bytes. */
    public void copyTo(Object dst) {
        CT.tensor_copy_to_host(handle(), dst);
    }

    private Tensor as(DType dt) {
        return dtype() == dt ? share() : to(dt);
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
        return CT.tensor_item(handle());
    }

    /** The value of a one-element tensor as a long (exact for integer dtypes). */
    public long itemLong() {
        return CT.tensor_item_int64(handle());
    }

    // ---- random ----

    @Op("rand")
    public static Tensor rand(Generator gen, long[] shape, DType dtype, Device device) {
        return own(CT.rand(shape, dtype.code, device.encode(), Generator.handleOf(gen)));
    }

    public static Tensor rand(Generator gen, long... shape) {
        return rand(gen, shape, DType.FLOAT32, Device.CPU);
    }

    @Op("randn")
    public static Tensor randn(Generator gen, long[] shape, DType dtype, Device device) {
        return own(CT.randn(shape, dtype.code, device.encode(), Generator.handleOf(gen)));
    }

    public static Tensor randn(Generator gen, long... shape) {
        return randn(gen, shape, DType.FLOAT32, Device.CPU);
    }

    @Op("randint")
    public static Tensor randint(Generator gen, long low, long high, long[] shape, DType dtype, Device device) {
        return own(CT.randint(low, high, shape, dtype.code, device.encode(), Generator.handleOf(gen)));
    }

    public static Tensor randint(Generator gen, long low, long high, long... shape) {
        return randint(gen, low, high, shape, DType.INT64, Device.CPU);
    }

    /** 0/1 draws with this tensor's probabilities. */
    @Op("bernoulli")
    public Tensor bernoulli(Generator gen) {
        return own(CT.bernoulli(handle(), Generator.handleOf(gen)));
    }

    @Op("randperm")
    public static Tensor randperm(Generator gen, long n) {
        return own(CT.randperm(n, Device.CPU.encode(), Generator.handleOf(gen)));
    }

    // ---- views and layout ----

    @Op("reshape")
    public Tensor reshape(long... shape) {
        return own(CT.reshape(handle(), shape));
    }

    @Op("view")
    public Tensor view(long... shape) {
        return own(CT.view(handle(), shape));
    }

    @Op("transpose")
    public Tensor transpose(long d0, long d1) {
        return own(CT.transpose(handle(), d0, d1));
    }

    @Op("permute")
    public Tensor permute(long... perm) {
        return own(CT.permute(handle(), perm));
    }

    @Op("squeeze")
    public Tensor squeeze(long dim) {
        return own(CT.squeeze(handle(), dim));
    }

    @Op("squeeze_all")
    public Tensor squeeze() {
        return own(CT.squeeze_all(handle()));
    }

    @Op("unsqueeze")
    public Tensor unsqueeze(long dim) {
        return own(CT.unsqueeze(handle(), dim));
    }

    @Op("expand")
    public Tensor expand(long... shape) {
        return own(CT.expand(handle(), shape));
    }

    @Op("flatten")
    public Tensor flatten(long startDim, long endDim) {
        return own(CT.flatten(handle(), startDim, endDim));
    }

    public Tensor flatten() {
        return flatten(0, -1);
    }

    @Op("narrow")
    public Tensor narrow(long dim, long start, long length) {
        return own(CT.narrow(handle(), dim, start, length));
    }

    /** Python slice start:end:step of dim. */
    @Op("slice")
    public Tensor slice(long dim, long start, long end, long step) {
        return own(CT.slice(handle(), dim, start, end, step));
    }

    public Tensor slice(long dim, long start, long end) {
        return slice(dim, start, end, 1);
    }

    /** Index index of dim, removing dim. */
    @Op("select")
    public Tensor select(long dim, long index) {
        return own(CT.select(handle(), dim, index));
    }

    /** x[i0][i1]... (each index selects along the leading dim; negatives count from the end). */
    public Tensor get(long... indices) {
        Tensor t = share();
        for (long i : indices) {
            Tensor next = t.select(0, i);
            t.close();
            t = next;
        }
        return t;
    }

    @Op("diagonal")
    public Tensor diagonal(long offset, long dim1, long dim2) {
        return own(CT.diagonal(handle(), offset, dim1, dim2));
    }

    public Tensor diagonal() {
        return diagonal(0, 0, 1);
    }

    @Op("contiguous")
    public Tensor contiguous() {
        return own(CT.contiguous(handle()));
    }

    @Op("clone")
    public Tensor copy() {
        return own(CT.clone(handle()));
    }

    @Op("detach")
    public Tensor detach() {
        return own(CT.detach(handle()));
    }

    @Op("to_dtype")
    public Tensor to(DType dtype) {
        return own(CT.to_dtype(handle(), dtype.code));
    }

    @Op("to_device")
    public Tensor to(Device device) {
        return own(CT.to_device(handle(), device.encode()));
    }

    @Op("flip")
    public Tensor flip(long... dims) {
        return own(CT.flip(handle(), dims));
    }

    @Op("roll")
    public Tensor roll(long[] shifts, long[] dims) {
        return own(CT.roll(handle(), shifts, dims));
    }

    /** Rolls the flattened tensor by shift. */
    public Tensor roll(long shift) {
        return roll(new long[] {shift}, new long[0]);
    }

    @Op("tril")
    public Tensor tril(long diagonal) {
        return own(CT.tril(handle(), diagonal));
    }

    @Op("triu")
    public Tensor triu(long diagonal) {
        return own(CT.triu(handle(), diagonal));
    }

    // ---- unary ----

    @Op("neg")
    public Tensor neg() {
        return own(CT.neg(handle()));
    }

    @Op("abs")
    public Tensor abs() {
        return own(CT.abs(handle()));
    }

    @Op("sign")
    public Tensor sign() {
        return own(CT.sign(handle()));
    }

    @Op("exp")
    public Tensor exp() {
        return own(CT.exp(handle()));
    }

    @Op("log")
    public Tensor log() {
        return own(CT.log(handle()));
    }

    @Op("log1p")
    public Tensor log1p() {
        return own(CT.log1p(handle()));
    }

    @Op("expm1")
    public Tensor expm1() {
        return own(CT.expm1(handle()));
    }

    @Op("sqrt")
    public Tensor sqrt() {
        return own(CT.sqrt(handle()));
    }

    @Op("rsqrt")
    public Tensor rsqrt() {
        return own(CT.rsqrt(handle()));
    }

    @Op("sin")
    public Tensor sin() {
        return own(CT.sin(handle()));
    }

    @Op("cos")
    public Tensor cos() {
        return own(CT.cos(handle()));
    }

    @Op("tan")
    public Tensor tan() {
        return own(CT.tan(handle()));
    }

    @Op("tanh")
    public Tensor tanh() {
        return own(CT.tanh(handle()));
    }

    @Op("sigmoid")
    public Tensor sigmoid() {
        return own(CT.sigmoid(handle()));
    }

    @Op("relu")
    public Tensor relu() {
        return own(CT.relu(handle()));
    }

    @Op("gelu")
    public Tensor gelu() {
        return own(CT.gelu(handle()));
    }

    @Op("silu")
    public Tensor silu() {
        return own(CT.silu(handle()));
    }

    @Op("softplus")
    public Tensor softplus() {
        return own(CT.softplus(handle()));
    }

    @Op("floor")
    public Tensor floor() {
        return own(CT.floor(handle()));
    }

    @Op("ceil")
    public Tensor ceil() {
        return own(CT.ceil(handle()));
    }

    @Op("round")
    public Tensor round() {
        return own(CT.round(handle()));
    }

    @Op("reciprocal")
    public Tensor reciprocal() {
        return own(CT.reciprocal(handle()));
    }

    @Op("logical_not")
    public Tensor logicalNot() {
        return own(CT.logical_not(handle()));
    }

    @Op("pow_scalar")
    public Tensor pow(double exponent) {
        return own(CT.pow_scalar(handle(), exponent));
    }

    @Op("clamp")
    public Tensor clamp(double min, double max) {
        return own(CT.clamp(handle(), min, 1, max, 1));
    }

    public Tensor clampMin(double min) {
        return own(CT.clamp(handle(), min, 1, 0, 0));
    }

    public Tensor clampMax(double max) {
        return own(CT.clamp(handle(), 0, 0, max, 1));
    }

    @Op("softmax")
    public Tensor softmax(long dim) {
        return own(CT.softmax(handle(), dim));
    }

    @Op("log_softmax")
    public Tensor logSoftmax(long dim) {
        return own(CT.log_softmax(handle(), dim));
    }

    // ---- binary (broadcasting, type promotion; a double is a wrapped scalar) ----

    private Tensor withScalar(double value, LongBinaryOperator op) {
        long s = CT.wrapped_scalar(value, 0);
        try {
            return own(op.applyAsLong(handle(), s));
        } finally {
            CT.tensor_release(s);
        }
    }

    @Op("add")
    public Tensor add(Tensor other) {
        return own(CT.add(handle(), other.handle(), 1.0));
    }

    /** this + alpha * other. */
    public Tensor add(Tensor other, double alpha) {
        return own(CT.add(handle(), other.handle(), alpha));
    }

    public Tensor add(double value) {
        return withScalar(value, (a, b) -> CT.add(a, b, 1.0));
    }

    @Op("sub")
    public Tensor sub(Tensor other) {
        return own(CT.sub(handle(), other.handle(), 1.0));
    }

    public Tensor sub(Tensor other, double alpha) {
        return own(CT.sub(handle(), other.handle(), alpha));
    }

    public Tensor sub(double value) {
        return withScalar(value, (a, b) -> CT.sub(a, b, 1.0));
    }

    @Op("mul")
    public Tensor mul(Tensor other) {
        return own(CT.mul(handle(), other.handle()));
    }

    public Tensor mul(double value) {
        return withScalar(value, CT::mul);
    }

    @Op("div")
    public Tensor div(Tensor other) {
        return own(CT.div(handle(), other.handle()));
    }

    public Tensor div(double value) {
        return withScalar(value, CT::div);
    }

    @Op("pow")
    public Tensor pow(Tensor exponent) {
        return own(CT.pow(handle(), exponent.handle()));
    }

    @Op("maximum")
    public Tensor maximum(Tensor other) {
        return own(CT.maximum(handle(), other.handle()));
    }

    @Op("minimum")
    public Tensor minimum(Tensor other) {
        return own(CT.minimum(handle(), other.handle()));
    }

    @Op("atan2")
    public Tensor atan2(Tensor other) {
        return own(CT.atan2(handle(), other.handle()));
    }

    @Op("remainder")
    public Tensor remainder(Tensor other) {
        return own(CT.remainder(handle(), other.handle()));
    }

    public Tensor remainder(double value) {
        return withScalar(value, CT::remainder);
    }

    @Op("eq")
    public Tensor eq(Tensor other) {
        return own(CT.eq(handle(), other.handle()));
    }

    public Tensor eq(double value) {
        return withScalar(value, CT::eq);
    }

    @Op("ne")
    public Tensor ne(Tensor other) {
        return own(CT.ne(handle(), other.handle()));
    }

    public Tensor ne(double value) {
        return withScalar(value, CT::ne);
    }

    @Op("lt")
    public Tensor lt(Tensor other) {
        return own(CT.lt(handle(), other.handle()));
    }

    public Tensor lt(double value) {
        return withScalar(value, CT::lt);
    }

    @Op("le")
    public Tensor le(Tensor other) {
        return own(CT.le(handle(), other.handle()));
    }

    public Tensor le(double value) {
        return withScalar(value, CT::le);
    }

    @Op("gt")
    public Tensor gt(Tensor other) {
        return own(CT.gt(handle(), other.handle()));
    }

    public Tensor gt(double value) {
        return withScalar(value, CT::gt);
    }

    @Op("ge")
    public Tensor ge(Tensor other) {
        return own(CT.ge(handle(), other.handle()));
    }

    public Tensor ge(double value) {
        return withScalar(value, CT::ge);
    }

    @Op("logical_and")
    public Tensor logicalAnd(Tensor other) {
        return own(CT.logical_and(handle(), other.handle()));
    }

    @Op("logical_or")
    public Tensor logicalOr(Tensor other) {
        return own(CT.logical_or(handle(), other.handle()));
    }

    @Op("logical_xor")
    public Tensor logicalXor(Tensor other) {
        return own(CT.logical_xor(handle(), other.handle()));
    }

    /** cond ? a : b elementwise (broadcasting). */
    @Op("where")
    public static Tensor where(Tensor cond, Tensor a, Tensor b) {
        return own(CT.where(cond.handle(), a.handle(), b.handle()));
    }

    // ---- reductions ----

    private static final long[] ALL = new long[0];

    @Op("sum")
    public Tensor sum(long[] dims, boolean keepdim) {
        return own(CT.sum(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor sum(long... dims) {
        return sum(dims, false);
    }

    @Op("mean")
    public Tensor mean(long[] dims, boolean keepdim) {
        return own(CT.mean(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor mean(long... dims) {
        return mean(dims, false);
    }

    @Op("prod")
    public Tensor prod(long[] dims, boolean keepdim) {
        return own(CT.prod(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor prod(long... dims) {
        return prod(dims, false);
    }

    /** Variance with the given correction (1 = unbiased). */
    @Op("var")
    public Tensor var(long[] dims, double correction, boolean keepdim) {
        return own(CT.var(handle(), dims, correction, keepdim ? 1 : 0));
    }

    public Tensor var(long... dims) {
        return var(dims, 1.0, false);
    }

    @Op("std")
    public Tensor std(long[] dims, double correction, boolean keepdim) {
        return own(CT.std(handle(), dims, correction, keepdim ? 1 : 0));
    }

    public Tensor std(long... dims) {
        return std(dims, 1.0, false);
    }

    @Op("logsumexp")
    public Tensor logsumexp(long[] dims, boolean keepdim) {
        return own(CT.logsumexp(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor logsumexp(long... dims) {
        return logsumexp(dims, false);
    }

    /** p-norm (Double.POSITIVE_INFINITY for the max norm). */
    @Op("norm")
    public Tensor norm(double p, long[] dims, boolean keepdim) {
        return own(CT.norm(handle(), p, dims, keepdim ? 1 : 0));
    }

    public Tensor norm() {
        return norm(2.0, ALL, false);
    }

    @Op("all")
    public Tensor all(long[] dims, boolean keepdim) {
        return own(CT.all(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor all(long... dims) {
        return all(dims, false);
    }

    @Op("any")
    public Tensor any(long[] dims, boolean keepdim) {
        return own(CT.any(handle(), dims, keepdim ? 1 : 0));
    }

    public Tensor any(long... dims) {
        return any(dims, false);
    }

    @Op("max")
    public Tensor max() {
        return own(CT.max(handle()));
    }

    @Op("min")
    public Tensor min() {
        return own(CT.min(handle()));
    }

    /** Largest values along dim and their int64 positions. */
    @Op("max_dim")
    public Pair max(long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.max_dim(handle(), dim, keepdim ? 1 : 0, v, i);
        return new Pair(own(v[0]), own(i[0]));
    }

    @Op("min_dim")
    public Pair min(long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.min_dim(handle(), dim, keepdim ? 1 : 0, v, i);
        return new Pair(own(v[0]), own(i[0]));
    }

    @Op("argmax")
    public Tensor argmax(long dim, boolean keepdim) {
        return own(CT.argmax(handle(), dim, keepdim ? 1 : 0));
    }

    @Op("argmax_all")
    public Tensor argmax() {
        return own(CT.argmax_all(handle()));
    }

    @Op("argmin")
    public Tensor argmin(long dim, boolean keepdim) {
        return own(CT.argmin(handle(), dim, keepdim ? 1 : 0));
    }

    @Op("argmin_all")
    public Tensor argmin() {
        return own(CT.argmin_all(handle()));
    }

    @Op("cumsum")
    public Tensor cumsum(long dim) {
        return own(CT.cumsum(handle(), dim));
    }

    @Op("cumprod")
    public Tensor cumprod(long dim) {
        return own(CT.cumprod(handle(), dim));
    }

    // ---- linear algebra ----

    @Op("matmul")
    public Tensor matmul(Tensor other) {
        return own(CT.matmul(handle(), other.handle()));
    }

    @Op("dot")
    public Tensor dot(Tensor other) {
        return own(CT.dot(handle(), other.handle()));
    }

    @Op("outer")
    public Tensor outer(Tensor other) {
        return own(CT.outer(handle(), other.handle()));
    }

    /** Transpose of a 2-D tensor. */
    @Op("t")
    public Tensor t() {
        return own(CT.t(handle()));
    }

    @Op("einsum")
    public static Tensor einsum(String equation, Tensor... operands) {
        return own(CT.einsum(equation, handles(operands)));
    }

    // ---- indexing and joining ----

    @Op("index_select")
    public Tensor indexSelect(long dim, Tensor index) {
        return own(CT.index_select(handle(), dim, index.handle()));
    }

    @Op("gather")
    public Tensor gather(long dim, Tensor index) {
        return own(CT.gather(handle(), dim, index.handle()));
    }

    @Op("scatter")
    public Tensor scatter(long dim, Tensor index, Tensor src) {
        return own(CT.scatter(handle(), dim, index.handle(), src.handle()));
    }

    @Op("scatter_add")
    public Tensor scatterAdd(long dim, Tensor index, Tensor src) {
        return own(CT.scatter_add(handle(), dim, index.handle(), src.handle()));
    }

    @Op("masked_fill")
    public Tensor maskedFill(Tensor mask, double value) {
        return own(CT.masked_fill(handle(), mask.handle(), value));
    }

    @Op("masked_select")
    public Tensor maskedSelect(Tensor mask) {
        return own(CT.masked_select(handle(), mask.handle()));
    }

    @Op("nonzero")
    public Tensor nonzero() {
        return own(CT.nonzero(handle()));
    }

    @Op("cat")
    public static Tensor cat(long dim, Tensor... tensors) {
        return own(CT.cat(handles(tensors), dim));
    }

    @Op("stack")
    public static Tensor stack(long dim, Tensor... tensors) {
        return own(CT.stack(handles(tensors), dim));
    }

    private static Tensor[] pieces(long count, java.util.function.ToLongFunction<long[]> call) {
        long[] outs = new long[(int) count];
        call.applyAsLong(outs);
        Tensor[] ts = new Tensor[outs.length];
        for (int i = 0; i < ts.length; ++i) ts[i] = own(outs[i]);
        return ts;
    }

    @Op("split")
    public Tensor[] split(long splitSize, long dim) {
        long h = handle();
        long n = CT.split(h, splitSize, dim, null);
        return pieces(n, outs -> CT.split(h, splitSize, dim, outs));
    }

    @Op("chunk")
    public Tensor[] chunk(long chunks, long dim) {
        long h = handle();
        long n = CT.chunk(h, chunks, dim, null);
        return pieces(n, outs -> CT.chunk(h, chunks, dim, outs));
    }

    // ---- sorting ----

    /** Two results (values and int64 indices); closing the pair closes both. */
    public static final class Pair implements AutoCloseable {
        public final Tensor values;
        public final Tensor indices;

        Pair(Tensor values, Tensor indices) {
            this.values = values;
            this.indices = indices;
        }

        @Override
        public void close() {
            values.close();
            indices.close();
        }
    }

    @Op("sort")
    public Pair sort(long dim, boolean descending) {
        long[] v = new long[1], i = new long[1];
        CT.sort(handle(), dim, descending ? 1 : 0, 1, v, i);
        return new Pair(own(v[0]), own(i[0]));
    }

    @Op("argsort")
    public Tensor argsort(long dim, boolean descending) {
        return own(CT.argsort(handle(), dim, descending ? 1 : 0, 1));
    }

    @Op("topk")
    public Pair topk(long k, long dim, boolean largest) {
        long[] v = new long[1], i = new long[1];
        CT.topk(handle(), k, dim, largest ? 1 : 0, 1, v, i);
        return new Pair(own(v[0]), own(i[0]));
    }

    @Op("kthvalue")
    public Pair kthvalue(long k, long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.kthvalue(handle(), k, dim, keepdim ? 1 : 0, v, i);
        return new Pair(own(v[0]), own(i[0]));
    }

    /** Distinct values: [values, inverse (this shape), counts]. */
    @Op("unique")
    public Tensor[] unique(boolean sorted) {
        long[] v = new long[1], inv = new long[1], c = new long[1];
        CT.unique(handle(), sorted ? 1 : 0, v, inv, c);
        return new Tensor[] {own(v[0]), own(inv[0]), own(c[0])};
    }

    // ---- in place (return this) ----

    @Op("add_")
    public Tensor addInPlace(Tensor other, double alpha) {
        CT.add_(handle(), other.handle(), alpha);
        return this;
    }

    public Tensor addInPlace(Tensor other) {
        return addInPlace(other, 1.0);
    }

    @Op("sub_")
    public Tensor subInPlace(Tensor other, double alpha) {
        CT.sub_(handle(), other.handle(), alpha);
        return this;
    }

    @Op("mul_")
    public Tensor mulInPlace(Tensor other) {
        CT.mul_(handle(), other.handle());
        return this;
    }

    public Tensor mulInPlace(double value) {
        long s = CT.wrapped_scalar(value, 0);
        try {
            CT.mul_(handle(), s);
        } finally {
            CT.tensor_release(s);
        }
        return this;
    }

    @Op("div_")
    public Tensor divInPlace(Tensor other) {
        CT.div_(handle(), other.handle());
        return this;
    }

    @Op("zero_")
    public Tensor zero() {
        CT.zero_(handle());
        return this;
    }

    @Op("fill_")
    public Tensor fill(double value) {
        CT.fill_(handle(), value);
        return this;
    }

    /** Copies src (broadcast, converted) into this tensor, e.g. into a slice view. */
    @Op("copy_")
    public Tensor copyFrom(Tensor src) {
        CT.copy_(handle(), src.handle());
        return this;
    }

    @Op("clamp_")
    public Tensor clampInPlace(double min, double max) {
        CT.clamp_(handle(), min, 1, max, 1);
        return this;
    }

    // ---- autograd ----

    public boolean requiresGrad() {
        return CT.tensor_requires_grad(handle()) != 0;
    }

    /** Marks a leaf as requiring grad (floating dtypes only); returns this. */
    public Tensor requiresGrad(boolean requiresGrad) {
        CT.tensor_set_requires_grad(handle(), requiresGrad ? 1 : 0);
        return this;
    }

    public boolean isLeaf() {
        return CT.tensor_is_leaf(handle()) != 0;
    }

    /** The accumulated gradient (a new Tensor each call), or null. */
    public Tensor grad() {
        long g = CT.tensor_grad(handle());
        return g == 0 ? null : own(g);
    }

    /** Replaces the gradient (null clears it). */
    public void setGrad(Tensor grad) {
        CT.tensor_set_grad(handle(), handleOrZero(grad));
    }

    /** Makes a non-leaf keep its gradient in backward. */
    public Tensor retainGrad() {
        CT.tensor_retain_grad(handle());
        return this;
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
    }

    public void backward(Tensor gradOutput) {
        CT.backward(handle(), handleOrZero(gradOutput), 0, 0);
    }

    public void backward(Tensor gradOutput, boolean retainGraph, boolean createGraph) {
        CT.backward(handle(), handleOrZero(gradOutput), retainGraph ? 1 : 0, createGraph ? 1 : 0);
    }

    /** Registers a hook run with this tensor's gradient during backward; returns its id for removeHook. */
    public long registerHook(Hook hook) {
        if (hook == null) throw new NullPointerException("hook");
        NativeHook trampoline = grad -> {
            try (TensorScope scope = new TensorScope()) {
                Tensor g = own(CT.tensor_retain(grad));
                Tensor r = hook.apply(g);
                return r == null ? 0 : CT.tensor_retain(r.handle());
            }
        };
        return CT.ctj_tensor_register_hook(handle(), trampoline);
    }

    public void removeHook(long id) {
        CT.tensor_remove_hook(handle(), id);
    }

    // ---- DLPack ----

    /** Exports as a legacy DLManagedTensor address (the consumer calls its deleter once). */
    @Op("to_dlpack")
    public long toDLPack() {
        return CT.to_dlpack(handle());
    }

    /** Exports as a DLManagedTensorVersioned address. */
    public long toDLPackVersioned() {
        return CT.to_dlpack_versioned(handle());
    }

    /** Imports a DLManagedTensor address; on success the tensor owns it, on failure its deleter is called. */
    @Op("from_dlpack")
    public static Tensor fromDLPack(long managed) {
        try {
            return own(CT.from_dlpack(managed));
        } catch (CTensorException e) {
            CT.ctj_dlpack_delete(managed);
            throw e;
        }
    }

    public static Tensor fromDLPackVersioned(long managed) {
        try {
            return own(CT.from_dlpack_versioned(managed));
        } catch (CTensorException e) {
            CT.ctj_dlpack_versioned_delete(managed);
            throw e;
        }
    }

    // ---- library ----

    /** Native handles alive in the whole process (0 when nothing leaked). */
    public static long liveHandles() {
        return CT.live_handles();
    }

    /** Sets ctensor's thread budget. */
    public static void setNumThreads(int n) {
        CT.set_num_threads(n);
    }

    public static int numThreads() {
        return CT.get_num_threads();
    }

    /** The library version as major*10000 + minor*100 + patch. */
    public static int libraryVersion() {
        return CT.version();
    }
}
