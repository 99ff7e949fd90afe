// ErrorsTest.java - every error kind reachable from Java arrives as its CTensorException subclass with the status
// and ctensor's message; closed tensors throw IllegalStateException; hostile input never crashes the JVM.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.*;

import org.ctensor.internal.CT;
import org.ctensor.nn.Functional;
import org.ctensor.optim.SGD;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ErrorsTest {
    @AfterAll
    static void noLeaks() throws InterruptedException {
        Leaks.assertNone();
    }

    static <T extends CTensorException> T expect(Class<T> kind, int status, String fragment, Runnable r) {
        T e = assertThrows(kind, r::run);
        assertEquals(status, e.status());
        assertTrue(e.getMessage().contains(fragment), () -> "message '" + e.getMessage() + "' lacks '" + fragment + "'");
        return e;
    }

    @Test
    void cpuMemoryLimitFailsCleanlyAndRecovers() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = Tensor.ones(64, 64);
            long[] before = Tensor.cpuMemoryStats();
            assertEquals(-1, before[2]);
            Tensor.setCpuMemoryLimit(before[0]);  // nothing more may be allocated
            try {
                assertEquals(before[0], Tensor.cpuMemoryStats()[2]);
                OutOfMemoryException e = expect(OutOfMemoryException.class, CT.CT_ERR_OUT_OF_MEMORY, "memory limit", () -> a.add(a));
                assertTrue(e.getMessage().startsWith("add:"), e.getMessage());
            } finally {
                Tensor.setCpuMemoryLimit(-1);
            }
            assertEquals(2.0f, a.add(a).toFloatArray()[4095]);  // inputs intact, the next call succeeds
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "set_cpu_memory_limit",
                    () -> Tensor.setCpuMemoryLimit(-7));
        }
    }

    @Test
    void everyKind() {
        try (TensorScope s = new TensorScope()) {
            Tensor a = Tensor.zeros(2, 3), b = Tensor.zeros(4);
            ShapeException se = expect(ShapeException.class, CT.CT_ERR_SHAPE, "add", () -> a.add(b));
            assertEquals("CT_ERR_SHAPE", se.statusName());
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "", () -> Tensor.zeros(-1));
            expect(InvalidHandleException.class, CT.CT_ERR_INVALID_HANDLE, "", () -> CT.tensor_numel(0));
            expect(DTypeException.class, CT.CT_ERR_DTYPE, "", () -> Tensor.zeros(DType.INT64, 2).requiresGrad(true));
            expect(IndexException.class, CT.CT_ERR_INDEX, "select", () -> a.select(0, 5));
            expect(IndexException.class, CT.CT_ERR_INDEX, "", () -> a.sum(7));
            expect(OutOfMemoryException.class, CT.CT_ERR_OUT_OF_MEMORY, "", () -> Tensor.empty(1L << 40, 1L << 10));
            expect(NotSupportedException.class, CT.CT_ERR_NOT_SUPPORTED, "",
                    () -> { try (SGD opt = new SGD(java.util.List.of(Tensor.zeros(1).requiresGrad(true)), 0.1)) { opt.getStep(0); } });
            Tensor loss = a.requiresGrad(true).mul(a).sum();
            loss.backward();
            expect(AutogradException.class, CT.CT_ERR_AUTOGRAD, "", loss::backward);
            expect(VersionException.class, CT.CT_ERR_VERSION, "", () -> CT.check_abi(99, 0));
            CTensorException cuda = assertThrows(CTensorException.class, () -> Tensor.zeros(new long[] {1}, DType.FLOAT32, Device.cuda(0)));
            assertTrue(cuda instanceof DeviceException || cuda instanceof NotCompiledException || Device.cudaAvailable(),
                    "a CUDA tensor without a usable GPU: " + cuda);
            // {h, w} arrays of the wrong length are refused before the call
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "kernel must have 2 values",
                    () -> Functional.maxPool2d(Tensor.zeros(1, 1, 4, 4), new long[] {2, 2, 2}, null, null));
            // host data of the wrong size or type
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "",
                    () -> Tensor.fromData(new float[3], new long[] {4}, DType.FLOAT32, Device.CPU));
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "primitive array",
                    () -> Tensor.fromData("not an array", new long[] {1}, DType.FLOAT32, Device.CPU));
            expect(InvalidArgumentException.class, CT.CT_ERR_INVALID_ARGUMENT, "", () -> a.copyTo(new double[2]));
            expect(InvalidHandleException.class, CT.CT_ERR_INVALID_HANDLE, "", () -> CT.optimizer_set_hparam(0, "lr", 1));
            assertEquals(CT.CT_ERR_INVALID_HANDLE, (int) CT.last_status());
        }
    }

    @Test
    void unknownStatusKeepsTheCode() {
        CTensorException e = CTensorException.of(77, "future", null);
        assertEquals(CTensorException.class, e.getClass());
        assertEquals(77, e.status());
    }

    @Test
    void closedTensors() {
        Tensor a = Tensor.ones(2);
        a.close();
        a.close(); // idempotent
        assertTrue(a.isClosed());
        assertThrows(IllegalStateException.class, a::numel);
        assertThrows(IllegalStateException.class, () -> a.add(a));
        try (Tensor b = Tensor.ones(2)) {
            assertThrows(IllegalStateException.class, () -> b.add(a));
        }
        assertEquals("tensor(<closed>)", a.toString());
        Generator g = new Generator(1);
        g.close();
        assertThrows(IllegalStateException.class, () -> Tensor.randn(g, 2));
    }

    @Test
    void hostileHandlesDoNotCrash() {
        // released or never-issued handles are refused by the library's handle table
        long h = CT.zeros(new long[] {2}, 0, Device.CPU.encode());
        CT.tensor_release(h);
        expect(InvalidHandleException.class, CT.CT_ERR_INVALID_HANDLE, "", () -> CT.tensor_numel(h));
        expect(InvalidHandleException.class, CT.CT_ERR_INVALID_HANDLE, "", () -> CT.add(12345, 678, 1.0));
        CT.tensor_release(0xdeadbeefL);
    }
}
