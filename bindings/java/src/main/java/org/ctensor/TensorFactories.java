// TensorFactories.java - the static side of Tensor: creation, host data and buffers in, random tensors, DLPack
// import and library-wide settings. Package-private: users call these as Tensor.zeros(...), Tensor.randn(...).
package org.ctensor;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import org.ctensor.internal.CT;

abstract class TensorFactories {
    @Op("empty")
    public static Tensor empty(long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.empty(shape, dtype.code, device.encode()));
    }

    public static Tensor empty(long... shape) {
        return empty(shape, DType.FLOAT32, Device.CPU);
    }

    @Op("zeros")
    public static Tensor zeros(long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.zeros(shape, dtype.code, device.encode()));
    }

    public static Tensor zeros(long... shape) {
        return zeros(shape, DType.FLOAT32, Device.CPU);
    }

    public static Tensor zeros(DType dtype, long... shape) {
        return zeros(shape, dtype, Device.CPU);
    }

    @Op("ones")
    public static Tensor ones(long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.ones(shape, dtype.code, device.encode()));
    }

    public static Tensor ones(long... shape) {
        return ones(shape, DType.FLOAT32, Device.CPU);
    }

    public static Tensor ones(DType dtype, long... shape) {
        return ones(shape, dtype, Device.CPU);
    }

    @Op("full")
    public static Tensor full(long[] shape, double value, DType dtype, Device device) {
        return Tensor.own(CT.full(shape, value, dtype.code, device.encode()));
    }

    public static Tensor full(long[] shape, double value) {
        return full(shape, value, DType.FLOAT32, Device.CPU);
    }

    /** A 0-d tensor. */
    @Op("scalar_tensor")
    public static Tensor scalar(double value, DType dtype, Device device) {
        return Tensor.own(CT.scalar_tensor(value, dtype.code, device.encode()));
    }

    public static Tensor scalar(double value) {
        return scalar(value, DType.FLOAT32, Device.CPU);
    }

    /** A 0-d "wrapped number" that takes part in ops like a language scalar (never upcasts a tensor). */
    @Op("wrapped_scalar")
    public static Tensor wrappedScalar(double value, boolean isInteger) {
        return Tensor.own(CT.wrapped_scalar(value, isInteger ? 1 : 0));
    }

    /** A language's bool as a 0-d bool wrapped number: promotes like torch's Python bool (never changes a tensor's
     * dtype, so boolMask.add(wrappedScalarBool(true)) stays BOOL). */
    @Op("wrapped_scalar_bool")
    public static Tensor wrappedScalarBool(boolean value) {
        return Tensor.own(CT.wrapped_scalar_bool(value ? 1 : 0));
    }

    @Op("arange")
    public static Tensor arange(double start, double end, double step, DType dtype, Device device) {
        return Tensor.own(CT.arange(start, end, step, dtype.code, device.encode()));
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
        return Tensor.own(CT.linspace(start, end, steps, dtype.code, device.encode()));
    }

    public static Tensor linspace(double start, double end, long steps) {
        return linspace(start, end, steps, DType.FLOAT32, Device.CPU);
    }

    @Op("eye")
    public static Tensor eye(long n, long m, DType dtype, Device device) {
        return Tensor.own(CT.eye(n, m, dtype.code, device.encode()));
    }

    public static Tensor eye(long n) {
        return eye(n, n, DType.FLOAT32, Device.CPU);
    }

    /** Copies a primitive array (float[], double[], long[], int[], byte[] or boolean[]) of dtype into a new tensor. */
    @Op("tensor_from_data")
    public static Tensor fromData(Object array, long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.tensor_from_data(array, shape, dtype.code, device.encode()));
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
            return Tensor.own(CT.ctj_tensor_from_buffer(buf, offset, shape, bufType.code));
        }
        ByteBuffer bytes = ByteBuffer.allocateDirect((int) Math.multiplyExact((long) buf.remaining(), (long) bufferItemSize(buf)))
                .order(ByteOrder.nativeOrder());
        copyInto(buf.duplicate(), bytes);
        bytes.rewind();
        return Tensor.own(CT.ctj_tensor_from_buffer(bytes, 0, shape, bufType.code));
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

    @Op("rand")
    public static Tensor rand(Generator gen, long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.rand(shape, dtype.code, device.encode(), Generator.handleOf(gen)), gen);
    }

    public static Tensor rand(Generator gen, long... shape) {
        return rand(gen, shape, DType.FLOAT32, Device.CPU);
    }

    @Op("randn")
    public static Tensor randn(Generator gen, long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.randn(shape, dtype.code, device.encode(), Generator.handleOf(gen)), gen);
    }

    public static Tensor randn(Generator gen, long... shape) {
        return randn(gen, shape, DType.FLOAT32, Device.CPU);
    }

    @Op("randint")
    public static Tensor randint(Generator gen, long low, long high, long[] shape, DType dtype, Device device) {
        return Tensor.own(CT.randint(low, high, shape, dtype.code, device.encode(), Generator.handleOf(gen)), gen);
    }

    public static Tensor randint(Generator gen, long low, long high, long... shape) {
        return randint(gen, low, high, shape, DType.INT64, Device.CPU);
    }

    @Op("randperm")
    public static Tensor randperm(Generator gen, long n) {
        return Tensor.own(CT.randperm(n, Device.CPU.encode(), Generator.handleOf(gen)), gen);
    }

    /** Imports a DLManagedTensor address; on success the tensor owns it, on failure its deleter is called. */
    @Op("from_dlpack")
    public static Tensor fromDLPack(long managed) {
        try {
            return Tensor.own(CT.from_dlpack(managed));
        } catch (CTensorException e) {
            CT.ctj_dlpack_delete(managed);
            throw e;
        }
    }

    public static Tensor fromDLPackVersioned(long managed) {
        try {
            return Tensor.own(CT.from_dlpack_versioned(managed));
        } catch (CTensorException e) {
            CT.ctj_dlpack_versioned_delete(managed);
            throw e;
        }
    }

    /** Native handles alive in the whole process (0 when nothing leaked). */
    public static long liveHandles() {
        return CT.live_handles();
    }

    /**
     * Caps the bytes ctensor may hold in CPU tensors; an allocation past it throws {@link OutOfMemoryException}
     * and leaves its inputs as they were. {@code -1} removes the cap (the default, unless the environment
     * variable CTENSOR_MEMORY_LIMIT sets one).
     */
    public static void setCpuMemoryLimit(long bytes) {
        CT.set_cpu_memory_limit(bytes);
    }

    /** The CPU allocator's figures in bytes: {allocated (in tensors), cached (freed, kept for reuse), limit (-1: none)}. */
    public static long[] cpuMemoryStats() {
        long[] allocated = new long[1], cached = new long[1], limit = new long[1];
        CT.cpu_memory_stats(allocated, cached, limit);
        return new long[] {allocated[0], cached[0], limit[0]};
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
