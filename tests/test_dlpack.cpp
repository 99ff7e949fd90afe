// test_dlpack.cpp - DLPack export/import: field values, zero-copy round trips, layouts, dtypes, deleter
// ownership (exactly once, any thread, never on failure) and tensors built by hand as another framework would.
#include <dlpack/dlpack.h>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include "ct_test.h"

using namespace ctt;

namespace {

// ---- a foreign producer: owns a buffer and counts how often its deleter runs ----

std::atomic<int> g_foreign_deletes{0};
std::thread::id g_foreign_delete_thread;

struct Foreign {
    std::vector<double> buffer;  // 8-byte aligned backing memory, used as raw bytes
    Shape shape, strides;
    DLManagedTensor legacy{};
    DLManagedTensorVersioned versioned{};
};

void foreign_delete(Foreign* f) {
    g_foreign_delete_thread = std::this_thread::get_id();
    g_foreign_deletes.fetch_add(1);
    delete f;
}
void foreign_legacy_deleter(DLManagedTensor* m) { foreign_delete(static_cast<Foreign*>(m->manager_ctx)); }
void foreign_versioned_deleter(DLManagedTensorVersioned* m) { foreign_delete(static_cast<Foreign*>(m->manager_ctx)); }

// Fills dl with a view of f's buffer (strides empty = NULL strides).
void describe(Foreign* f, DLTensor& dl, DLDataType dtype, uint64_t byte_offset) {
    dl.data = f->buffer.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = (int32_t)f->shape.size();
    dl.dtype = dtype;
    dl.shape = f->shape.data();
    dl.strides = f->strides.empty() ? nullptr : f->strides.data();
    dl.byte_offset = byte_offset;
}

const DLDataType kF64{kDLFloat, 64, 1};

// A legacy managed tensor over doubles 0, 1, 2, ... (n of them) with the given layout.
DLManagedTensor* foreign_legacy(size_t n, Shape shape, Shape strides, uint64_t byte_offset = 0,
                                DLDataType dtype = kF64) {
    auto* f = new Foreign();
    for (size_t i = 0; i < n; ++i) f->buffer.push_back((double)i);
    f->shape = std::move(shape);
    f->strides = std::move(strides);
    describe(f, f->legacy.dl_tensor, dtype, byte_offset);
    f->legacy.manager_ctx = f;
    f->legacy.deleter = foreign_legacy_deleter;
    return &f->legacy;
}

DLManagedTensorVersioned* foreign_versioned(size_t n, Shape shape, uint32_t major = 1, uint64_t flags = 0) {
    auto* f = new Foreign();
    for (size_t i = 0; i < n; ++i) f->buffer.push_back((double)i);
    f->shape = std::move(shape);
    describe(f, f->versioned.dl_tensor, kF64, 0);
    f->versioned.version = DLPackVersion{major, 0};
    f->versioned.flags = flags;
    f->versioned.manager_ctx = f;
    f->versioned.deleter = foreign_versioned_deleter;
    return &f->versioned;
}

// ---- counting our own exports' deleter calls through a shim ----

std::atomic<int> g_export_deletes{0};
void (*g_export_deleter)(DLManagedTensor*) = nullptr;
void counting_export_deleter(DLManagedTensor* m) {
    g_export_deletes.fetch_add(1);
    g_export_deleter(m);
}
// (With the shim in place, ctensor no longer recognises the export as its own: the import takes the
// generic path that any foreign producer takes.)
DLManagedTensor* counted_export(const H& t) {
    DLManagedTensor* m = nullptr;
    ok(ct_to_dlpack(t.get(), &m));
    g_export_deleter = m->deleter;
    m->deleter = counting_export_deleter;
    g_export_deletes = 0;
    return m;
}

void* data_ptr(const H& t) {
    void* p = nullptr;
    ok(ct_tensor_data_ptr(t.get(), &p));
    return p;
}

Shape strides_of(const H& t) {
    int32_t nd = 0;
    ok(ct_tensor_strides(t.get(), nullptr, 0, &nd));
    Shape s((size_t)nd);
    ok(ct_tensor_strides(t.get(), s.data(), nd, &nd));
    return s;
}

Shape dl_shape(const DLTensor& dl) { return Shape(dl.shape, dl.shape + dl.ndim); }
Shape dl_strides(const DLTensor& dl) { return Shape(dl.strides, dl.strides + dl.ndim); }

}  // namespace

TEST(DLPack, LegacyExportFields) {
    H t = make({1, 2, 3, 4, 5, 6}, {2, 3}, CT_FLOAT32);
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
    ASSERT_NE(m, nullptr);
    const DLTensor& dl = m->dl_tensor;
    EXPECT_EQ(dl.data, data_ptr(t));
    EXPECT_EQ(dl.byte_offset, 0u);
    EXPECT_EQ(dl.device.device_type, kDLCPU);
    EXPECT_EQ(dl.device.device_id, 0);
    EXPECT_EQ(dl.ndim, 2);
    EXPECT_EQ(dl.dtype.code, kDLFloat);
    EXPECT_EQ(dl.dtype.bits, 32);
    EXPECT_EQ(dl.dtype.lanes, 1);
    EXPECT_EQ(dl_shape(dl), (Shape{2, 3}));
    EXPECT_EQ(dl_strides(dl), (Shape{3, 1}));
    const float* p = static_cast<const float*>(dl.data);
    EXPECT_EQ(p[5], 6.0f);
    m->deleter(m);
}

TEST(DLPack, VersionedExportFieldsAndRoundTrip) {
    H t = make({1, 2, 3}, {3}, CT_INT64);
    DLManagedTensorVersioned* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(t.get(), &m));
    EXPECT_EQ(m->version.major, 1u);
    EXPECT_EQ(m->version.minor, 0u);
    EXPECT_EQ(m->flags, 0u);
    EXPECT_EQ(m->dl_tensor.dtype.code, kDLInt);
    EXPECT_EQ(m->dl_tensor.dtype.bits, 64);
    H u;
    CT_ASSERT_OK(ct_from_dlpack_versioned(m, u.out()));
    EXPECT_EQ(data_ptr(u), data_ptr(t));
    int32_t shares = 0;
    CT_ASSERT_OK(ct_tensor_shares_storage(t.get(), u.get(), &shares));
    EXPECT_EQ(shares, 1);
    EXPECT_EQ(dtype(u), CT_INT64);
    EXPECT_TRUE(allclose(u, {1, 2, 3}));
}

TEST(DLPack, RoundTripSharesMemoryBothWays) {
    H t = make({1, 2, 3, 4}, {2, 2}, CT_FLOAT64);
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
    H u;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    EXPECT_EQ(data_ptr(u), data_ptr(t));
    EXPECT_EQ(shape(u), (Shape{2, 2}));
    int32_t shares = 0;  // Note [DLPack round trip]: our own export comes back on the same storage
    CT_ASSERT_OK(ct_tensor_shares_storage(t.get(), u.get(), &shares));
    EXPECT_EQ(shares, 1);
    static_cast<double*>(data_ptr(u))[1] = 7;  // write through the import
    EXPECT_TRUE(allclose(t, {1, 7, 3, 4}));
    static_cast<double*>(data_ptr(t))[3] = -4;  // write through the original
    EXPECT_TRUE(allclose(u, {1, 7, 3, -4}));
    CT_ASSERT_OK(ct_fill_(u.get(), 2));  // in-place ops too
    EXPECT_TRUE(allclose(t, {2, 2, 2, 2}));
    H ten = make({10, 20, 30, 40}, {2, 2});
    CT_ASSERT_OK(ct_add_(t.get(), ten.get(), 1.0));
    EXPECT_TRUE(allclose(u, {12, 22, 32, 42}));
}

TEST(DLPack, StridedExportsRoundTrip) {
    H base = make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4}, CT_FLOAT32);
    H tr, sl, sel;
    CT_ASSERT_OK(ct_transpose(base.get(), 0, 1, tr.out()));     // [4, 3], strides [1, 4]
    CT_ASSERT_OK(ct_slice(base.get(), 1, 1, 4, 2, sl.out()));   // [3, 2], columns 1 and 3
    CT_ASSERT_OK(ct_select(base.get(), 0, 2, sel.out()));       // [4], row 2 at offset 8
    for (const H* v : {&tr, &sl, &sel}) {
        DLManagedTensor* m = nullptr;
        CT_ASSERT_OK(ct_to_dlpack(v->get(), &m));
        EXPECT_EQ(m->dl_tensor.data, data_ptr(*v));
        EXPECT_EQ(m->dl_tensor.byte_offset, 0u);
        EXPECT_EQ(dl_shape(m->dl_tensor), shape(*v));
        EXPECT_EQ(dl_strides(m->dl_tensor), strides_of(*v));
        H u;
        CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
        EXPECT_EQ(strides_of(u), strides_of(*v));
        EXPECT_EQ(values(u), values(*v));
        int64_t off_u = -1, off_v = -2;
        int32_t shares = 0;
        CT_ASSERT_OK(ct_tensor_offset(u.get(), &off_u));
        CT_ASSERT_OK(ct_tensor_offset(v->get(), &off_v));
        CT_ASSERT_OK(ct_tensor_shares_storage(u.get(), base.get(), &shares));
        EXPECT_EQ(off_u, off_v);
        EXPECT_EQ(shares, 1);
    }
    EXPECT_EQ(strides_of(tr), (Shape{1, 4}));
    EXPECT_EQ(values(tr), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
    EXPECT_EQ(values(sl), (std::vector<double>{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(values(sel), (std::vector<double>{8, 9, 10, 11}));
}

TEST(DLPack, ZeroDimAndEmptyTensors) {
    H s;
    CT_ASSERT_OK(ct_scalar_tensor(2.5, CT_FLOAT64, ct_cpu(), s.out()));
    DLManagedTensorVersioned* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(s.get(), &m));
    EXPECT_EQ(m->dl_tensor.ndim, 0);
    H u;
    CT_ASSERT_OK(ct_from_dlpack_versioned(m, u.out()));
    EXPECT_EQ(shape(u), Shape{});
    EXPECT_EQ(scalar(u), 2.5);

    int64_t es[2] = {0, 3};
    H e, ue;
    CT_ASSERT_OK(ct_zeros(es, 2, CT_FLOAT32, ct_cpu(), e.out()));
    DLManagedTensor* me = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(e.get(), &me));
    EXPECT_EQ(dl_shape(me->dl_tensor), (Shape{0, 3}));
    CT_ASSERT_OK(ct_from_dlpack(me, ue.out()));
    EXPECT_EQ(shape(ue), (Shape{0, 3}));
    EXPECT_TRUE(values(ue).empty());

    // An empty foreign tensor with NULL data is accepted (nothing is ever read).
    g_foreign_deletes = 0;
    DLManagedTensor* fe = foreign_legacy(0, {4, 0}, {});
    fe->dl_tensor.data = nullptr;
    H uf, sum;
    CT_ASSERT_OK(ct_from_dlpack(fe, uf.out()));
    CT_ASSERT_OK(ct_sum(uf.get(), nullptr, 0, 0, sum.out()));
    EXPECT_EQ(scalar(sum), 0.0);
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    uf = H();
    EXPECT_EQ(g_foreign_deletes.load(), 1);
}

TEST(DLPack, EveryDtypeMapsAndRoundTrips) {
    struct Case {
        ct_dtype dtype;
        uint8_t code, bits;
    };
    const Case cases[] = {{CT_FLOAT32, kDLFloat, 32}, {CT_FLOAT64, kDLFloat, 64}, {CT_INT32, kDLInt, 32},
                          {CT_INT64, kDLInt, 64},     {CT_UINT8, kDLUInt, 8},    {CT_BOOL, kDLBool, 8}};
    for (const Case& c : cases) {
        SCOPED_TRACE(ct_dtype_name(c.dtype));
        std::vector<double> vals = c.dtype == CT_BOOL ? std::vector<double>{1, 0, 1, 1} : std::vector<double>{1, 0, 7, 3};
        H t = make(vals, {2, 2}, c.dtype);
        DLManagedTensor* m = nullptr;
        CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
        EXPECT_EQ(m->dl_tensor.dtype.code, c.code);
        EXPECT_EQ(m->dl_tensor.dtype.bits, c.bits);
        EXPECT_EQ(m->dl_tensor.dtype.lanes, 1);
        H u;
        CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
        EXPECT_EQ(dtype(u), c.dtype);
        EXPECT_EQ(values(u), vals);
        EXPECT_EQ(data_ptr(u), data_ptr(t));
    }
}

TEST(DLPack, RoundTripSharesTheVersionCounter) {
    // An in-place write through the re-imported tensor must invalidate what autograd saved of the original.
    H x = make({1, 2}, {2}, CT_FLOAT64, true);
    H y, loss;
    CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));  // saves x
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(x.get(), &m));
    H u;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    int64_t before = -1, after = -1;
    CT_ASSERT_OK(ct_tensor_version(x.get(), &before));
    CT_ASSERT_OK(ct_fill_(u.get(), 3));
    CT_ASSERT_OK(ct_tensor_version(x.get(), &after));
    EXPECT_EQ(after, before + 1);
    CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, loss.out()));
    CT_EXPECT_ERR(ct_backward(loss.get(), nullptr, 0, 0), CT_ERR_AUTOGRAD, "modified by an in-place operation");
}

TEST(DLPack, OwnRoundTripOutlivesOriginal) {
    H t = make({5, 6, 7}, {3}, CT_FLOAT32);
    DLManagedTensorVersioned* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(t.get(), &m));
    H u;
    CT_ASSERT_OK(ct_from_dlpack_versioned(m, u.out()));
    t = H();
    EXPECT_TRUE(allclose(u, {5, 6, 7}));
}

TEST(DLPack, DeleterRunsOnceWhenImporterOutlivesOriginal) {
    H t = make({1, 2, 3}, {3});
    DLManagedTensor* m = counted_export(t);
    H u, view;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    CT_ASSERT_OK(ct_slice(u.get(), 0, 1, 3, 1, view.out()));
    t = H();  // the original goes first: the export's storage reference keeps the memory
    EXPECT_TRUE(allclose(view, {2, 3}));
    u = H();
    EXPECT_EQ(g_export_deletes.load(), 0);  // a view of the import is still alive
    view = H();
    EXPECT_EQ(g_export_deletes.load(), 1);
}

TEST(DLPack, DeleterRunsOnceWhenImporterDiesFirst) {
    H t = make({1, 2, 3}, {3});
    DLManagedTensor* m = counted_export(t);
    H u;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    u = H();
    EXPECT_EQ(g_export_deletes.load(), 1);
    EXPECT_TRUE(allclose(t, {1, 2, 3}));  // the original is untouched by the export's end
}

TEST(DLPack, ForeignDeleterRunsOnceOnTheReleasingThread) {
    g_foreign_deletes = 0;
    H u;
    CT_ASSERT_OK(ct_from_dlpack(foreign_legacy(6, {2, 3}, {}), u.out()));
    ct_tensor raw = u.get();
    ct_tensor_retain(raw);
    u = H();
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    std::thread::id releaser;
    std::thread th([&] {
        releaser = std::this_thread::get_id();
        ct_tensor_release(raw);
    });
    th.join();
    EXPECT_EQ(g_foreign_deletes.load(), 1);
    EXPECT_EQ(g_foreign_delete_thread, releaser);
}

TEST(DLPack, ExportDeleterCallableFromAnotherThread) {
    H t = make({4, 5}, {2});
    DLManagedTensorVersioned* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(t.get(), &m));
    std::thread th([m] { m->deleter(m); });
    th.join();
    EXPECT_TRUE(allclose(t, {4, 5}));
}

TEST(DLPack, ForeignTensorWithStridesAndByteOffset) {
    g_foreign_deletes = 0;
    // buffer 0..11 as doubles; a [2, 3] view starting at element 1 with column-major strides [1, 2].
    DLManagedTensor* m = foreign_legacy(12, {2, 3}, {1, 2}, 1 * sizeof(double));
    H u;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    EXPECT_EQ(dtype(u), CT_FLOAT64);
    EXPECT_EQ(strides_of(u), (Shape{1, 2}));
    EXPECT_TRUE(allclose(u, {1, 3, 5, 2, 4, 6}));
    EXPECT_EQ(data_ptr(u), static_cast<char*>(m->dl_tensor.data) + sizeof(double));
    static_cast<double*>(m->dl_tensor.data)[6] = -6;  // the producer writes; ctensor sees it (element [1, 2])
    EXPECT_TRUE(allclose(u, {1, 3, 5, 2, 4, -6}));
    u = H();
    EXPECT_EQ(g_foreign_deletes.load(), 1);
}

TEST(DLPack, ForeignTensorNullStridesAreRowMajor) {
    DLManagedTensor* m = foreign_legacy(6, {3, 2}, {});
    H u;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    EXPECT_EQ(strides_of(u), (Shape{2, 1}));
    EXPECT_TRUE(allclose(u, {0, 1, 2, 3, 4, 5}));
}

TEST(DLPack, ForeignTensorNegativeAndZeroStrides) {
    // Reversed rows of a [2, 3] buffer (NumPy's a[::-1]): data points at row 1, row stride -3.
    DLManagedTensor* m = foreign_legacy(6, {2, 3}, {-3, 1}, 3 * sizeof(double));
    H u, r, c;
    CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
    EXPECT_TRUE(allclose(u, {3, 4, 5, 0, 1, 2}));
    CT_ASSERT_OK(ct_contiguous(u.get(), c.out()));
    EXPECT_TRUE(allclose(c, {3, 4, 5, 0, 1, 2}));
    H one = make({1}, {1});
    CT_ASSERT_OK(ct_add(u.get(), one.get(), 1.0, r.out()));
    EXPECT_TRUE(allclose(r, {4, 5, 6, 1, 2, 3}));
    // A broadcast column: 3 rows that all read the same 2 elements.
    DLManagedTensor* b = foreign_legacy(2, {3, 2}, {0, 1});
    H ub;
    CT_ASSERT_OK(ct_from_dlpack(b, ub.out()));
    EXPECT_TRUE(allclose(ub, {0, 1, 0, 1, 0, 1}));
}

TEST(DLPack, ForeignVersionedImport) {
    g_foreign_deletes = 0;
    H u;
    CT_ASSERT_OK(ct_from_dlpack_versioned(foreign_versioned(4, {2, 2}), u.out()));
    EXPECT_TRUE(allclose(u, {0, 1, 2, 3}));
    u = H();
    EXPECT_EQ(g_foreign_deletes.load(), 1);
}

TEST(DLPack, FailedImportsLeaveOwnershipWithCaller) {
    g_foreign_deletes = 0;
    H u;
    struct Bad {
        DLManagedTensor* m;
        ct_status status;
        const char* message;
    };
    std::vector<Bad> bad;
    bad.push_back({foreign_legacy(4, {4}, {}, 0, DLDataType{kDLUInt, 16, 1}), CT_ERR_DTYPE, "bits 16"});  // uint16: none
    bad.push_back({foreign_legacy(4, {4}, {}, 0, DLDataType{kDLFloat, 32, 4}), CT_ERR_DTYPE, "lanes 4"});
    bad.push_back({foreign_legacy(4, {4}, {}, 0, DLDataType{kDLComplex, 32, 1}), CT_ERR_DTYPE, "complex"});
    bad.push_back({foreign_legacy(4, {4}, {}, 0, DLDataType{kDLBool, 1, 1}), CT_ERR_DTYPE, "bits 1"});
    bad.push_back({foreign_legacy(4, {4}, {}), CT_ERR_DEVICE, "device_type 4"});
    bad.back().m->dl_tensor.device = DLDevice{kDLOpenCL, 0};
    // cuda:7 never exists: without CUDA the backend is missing, with it (or the emulated one) the index is bad
    const bool have_cuda = ct_cuda_is_available(nullptr, 0) != 0;
    bad.push_back({foreign_legacy(4, {4}, {}), have_cuda ? CT_ERR_DEVICE : CT_ERR_NOT_COMPILED, "cuda:7"});
    bad.back().m->dl_tensor.device = DLDevice{kDLCUDA, 7};
    bad.push_back({foreign_legacy(4, {4}, {}), CT_ERR_NOT_SUPPORTED, "kDLCUDAHost, pinned host memory"});
    bad.back().m->dl_tensor.device = DLDevice{kDLCUDAHost, 0};
    bad.push_back({foreign_legacy(4, {4}, {}), CT_ERR_NOT_SUPPORTED, "kDLCUDAManaged"});
    bad.back().m->dl_tensor.device = DLDevice{kDLCUDAManaged, 0};
    bad.push_back({foreign_legacy(4, {2, -2}, {}), CT_ERR_INVALID_ARGUMENT, "negative size -2"});
    bad.push_back({foreign_legacy(4, {4}, {}, 3), CT_ERR_NOT_SUPPORTED, "not aligned"});
    bad.push_back({foreign_legacy(4, {4}, {}), CT_ERR_INVALID_ARGUMENT, "data is NULL"});
    bad.back().m->dl_tensor.data = nullptr;
    bad.push_back({foreign_legacy(4, {4}, {}), CT_ERR_INVALID_ARGUMENT, "shape is NULL"});
    bad.back().m->dl_tensor.shape = nullptr;
    bad.push_back({foreign_legacy(4, {3, 2}, {INT64_MAX, 1}), CT_ERR_INVALID_ARGUMENT, "overflows int64"});
    bad.push_back({foreign_legacy(4, {2, 2}, {INT64_MAX / 2, 1}), CT_ERR_INVALID_ARGUMENT, "int64 overflow"});
    for (const Bad& b : bad) {
        CT_EXPECT_ERR(ct_from_dlpack(b.m, u.out()), b.status, b.message);
        EXPECT_FALSE(u);  // out untouched
    }
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    DLManagedTensor* good = foreign_legacy(4, {4}, {});
    CT_EXPECT_ERR(ct_from_dlpack(good, nullptr), CT_ERR_INVALID_ARGUMENT, "from_dlpack");
    CT_EXPECT_ERR(ct_from_dlpack(nullptr, u.out()), CT_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    for (const Bad& b : bad) b.m->deleter(b.m);  // the caller still owns them
    good->deleter(good);
    EXPECT_EQ(g_foreign_deletes.load(), (int)bad.size() + 1);
}

TEST(DLPack, FailedVersionedImportsLeaveOwnershipWithCaller) {
    g_foreign_deletes = 0;
    H u;
    DLManagedTensorVersioned* v2 = foreign_versioned(4, {4}, 2);
    CT_EXPECT_ERR(ct_from_dlpack_versioned(v2, u.out()), CT_ERR_VERSION, "version 2.0");
    DLManagedTensorVersioned* v0 = foreign_versioned(4, {4}, 0);
    CT_EXPECT_ERR(ct_from_dlpack_versioned(v0, u.out()), CT_ERR_VERSION, "version 0.0");
    DLManagedTensorVersioned* ro = foreign_versioned(4, {4}, 1, DLPACK_FLAG_BITMASK_READ_ONLY);
    CT_EXPECT_ERR(ct_from_dlpack_versioned(ro, u.out()), CT_ERR_NOT_SUPPORTED, "read-only");
    CT_EXPECT_ERR(ct_from_dlpack_versioned(nullptr, u.out()), CT_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_FALSE(u);
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    for (DLManagedTensorVersioned* m : {v2, v0, ro}) m->deleter(m);
    EXPECT_EQ(g_foreign_deletes.load(), 3);
    // A copied tensor of a later minor version is fine.
    DLManagedTensorVersioned* later = foreign_versioned(2, {2}, 1, DLPACK_FLAG_BITMASK_IS_COPIED);
    later->version.minor = 3;
    CT_ASSERT_OK(ct_from_dlpack_versioned(later, u.out()));
    EXPECT_TRUE(allclose(u, {0, 1}));
}

TEST(DLPack, ExportErrors) {
    H t = make({1}, {1});
    DLManagedTensor* m = nullptr;
    CT_EXPECT_ERR(ct_to_dlpack(nullptr, &m), CT_ERR_INVALID_HANDLE, "to_dlpack");
    CT_EXPECT_ERR(ct_to_dlpack(t.get(), nullptr), CT_ERR_INVALID_ARGUMENT, "to_dlpack");
    DLManagedTensorVersioned* mv = nullptr;
    CT_EXPECT_ERR(ct_to_dlpack_versioned(nullptr, &mv), CT_ERR_INVALID_HANDLE, "to_dlpack_versioned");
    ct_tensor raw = nullptr;
    CT_ASSERT_OK(ct_zeros(nullptr, 0, CT_FLOAT32, ct_cpu(), &raw));
    ct_tensor_release(raw);
    CT_EXPECT_ERR(ct_to_dlpack(raw, &m), CT_ERR_INVALID_HANDLE, "to_dlpack");
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(mv, nullptr);
}

TEST(DLPack, ExportIsDetachedFromTheGraph) {
    H x = make({1, 2}, {2}, CT_FLOAT64, true);
    H y, loss, g;
    CT_ASSERT_OK(ct_mul(x.get(), x.get(), y.out()));  // a non-leaf with a grad_fn
    for (const H* src : {&x, &y}) {
        DLManagedTensor* m = nullptr;
        CT_ASSERT_OK(ct_to_dlpack(src->get(), &m));
        H u;
        CT_ASSERT_OK(ct_from_dlpack(m, u.out()));
        int32_t rg = -1, leaf = -1, len = -1;
        CT_ASSERT_OK(ct_tensor_requires_grad(u.get(), &rg));
        CT_ASSERT_OK(ct_tensor_is_leaf(u.get(), &leaf));
        char name[32];
        CT_ASSERT_OK(ct_tensor_grad_fn_name(u.get(), name, sizeof name, &len));
        EXPECT_EQ(rg, 0);
        EXPECT_EQ(leaf, 1);
        EXPECT_EQ(len, 0);
        EXPECT_EQ(data_ptr(u), data_ptr(*src));
    }
    EXPECT_TRUE(allclose(y, {1, 4}));
    // The source's own graph still works.
    CT_ASSERT_OK(ct_sum(y.get(), nullptr, 0, 0, loss.out()));
    CT_ASSERT_OK(ct_backward(loss.get(), nullptr, 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x.get(), g.out()));
    EXPECT_TRUE(allclose(g, {2, 4}));
}

TEST(DLPack, ReExportOfAnImportKeepsTheProducerAlive) {
    g_foreign_deletes = 0;
    H u, w;
    CT_ASSERT_OK(ct_from_dlpack(foreign_legacy(3, {3}, {}), u.out()));
    DLManagedTensorVersioned* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(u.get(), &m));
    u = H();
    EXPECT_EQ(g_foreign_deletes.load(), 0);
    EXPECT_EQ(static_cast<const double*>(m->dl_tensor.data)[2], 2.0);
    CT_ASSERT_OK(ct_from_dlpack_versioned(m, w.out()));
    EXPECT_TRUE(allclose(w, {0, 1, 2}));
    w = H();
    EXPECT_EQ(g_foreign_deletes.load(), 1);
}
