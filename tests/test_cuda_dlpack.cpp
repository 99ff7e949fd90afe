// test_cuda_dlpack.cpp - DLPack with CUDA tensors: exports say kDLCUDA and the device index, point at the device
// memory with the tensor's strides, and come back zero-copy; imports of kDLCUDA memory from another producer are
// zero-copy on the matching device and call its deleter exactly once; bad devices are refused.
#include <dlpack/dlpack.h>
#include <atomic>
#include "cuda_compare.h"

using namespace ctt;

namespace {

// A foreign producer of CUDA memory: it borrows a ctensor CUDA tensor's memory (as another framework would
// own its own) and releases it in its deleter, which counts its calls.
std::atomic<int> g_cuda_deletes{0};

struct ForeignCuda {
    H owner;  // keeps the memory alive until the deleter runs
    Shape shape, strides;
    DLManagedTensorVersioned managed{};
};

void foreign_cuda_deleter(DLManagedTensorVersioned* m) {
    g_cuda_deletes.fetch_add(1);
    delete static_cast<ForeignCuda*>(m->manager_ctx);
}

DLManagedTensorVersioned* foreign_cuda(const H& t, Shape shape, Shape strides, int32_t device_id) {
    auto* f = new ForeignCuda();
    f->owner = t;
    f->shape = std::move(shape);
    f->strides = std::move(strides);
    void* data = nullptr;
    ok(ct_tensor_data_ptr(t.get(), &data));
    DLTensor& dl = f->managed.dl_tensor;
    dl.data = data;
    dl.device = DLDevice{kDLCUDA, device_id};
    dl.ndim = (int32_t)f->shape.size();
    dl.dtype = DLDataType{kDLFloat, 64, 1};
    dl.shape = f->shape.data();
    dl.strides = f->strides.data();
    f->managed.version = DLPackVersion{1, 0};
    f->managed.manager_ctx = f;
    f->managed.deleter = foreign_cuda_deleter;
    return &f->managed;
}

void* data_ptr(const H& t) {
    void* p = nullptr;
    ok(ct_tensor_data_ptr(t.get(), &p));
    return p;
}

}  // namespace

TEST(CudaGpu, DlpackExportDescribesDeviceMemory) {
    REQUIRE_CUDA();
    const int32_t dev = last_cuda_device();  // device 1 where there are two: the id must travel, not default to 0
    H base = on(make(rand_values(12, 1), {3, 4}), ct_cuda(dev)), t = transposed(base);
    DLManagedTensor* m = nullptr;
    CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
    EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
    EXPECT_EQ(m->dl_tensor.device.device_id, dev);
    EXPECT_EQ(m->dl_tensor.data, data_ptr(t));
    EXPECT_EQ(m->dl_tensor.ndim, 2);
    EXPECT_EQ(Shape(m->dl_tensor.shape, m->dl_tensor.shape + 2), (Shape{4, 3}));
    EXPECT_EQ(Shape(m->dl_tensor.strides, m->dl_tensor.strides + 2), (Shape{1, 4}));
    H back;  // our own export comes back on the same storage, on the same device
    CT_ASSERT_OK(ct_from_dlpack(m, back.out()));
    EXPECT_EQ(device_of(back).type, CT_DEVICE_CUDA);
    EXPECT_EQ(device_of(back).index, dev);
    int32_t shares = 0;
    CT_ASSERT_OK(ct_tensor_shares_storage(back.get(), base.get(), &shares));
    EXPECT_EQ(shares, 1);
    EXPECT_EQ(values(back), values(t));
    DLManagedTensorVersioned* mv = nullptr;
    CT_ASSERT_OK(ct_to_dlpack_versioned(base.get(), &mv));
    EXPECT_EQ(mv->dl_tensor.device.device_type, kDLCUDA);
    EXPECT_EQ(mv->version.major, 1u);
    mv->deleter(mv);  // the consumer drops it unused
}

// Imports of another producer's kDLCUDA memory are views of it: writes through either side are seen by the other,
// ops run on it, and the producer's deleter runs once, after the last view is gone.
TEST(CudaGpu, DlpackImportIsZeroCopyAndDeletesOnce) {
    REQUIRE_CUDA();
    g_cuda_deletes = 0;
    const int32_t dev = last_cuda_device();
    H mem = on(make(rand_values(6, 2), {6}), ct_cuda(dev));
    H imported, sum, view;
    CT_ASSERT_OK(ct_from_dlpack_versioned(foreign_cuda(mem, {3, 2}, {1, 3}, dev), imported.out()));
    EXPECT_EQ(device_of(imported).type, CT_DEVICE_CUDA);
    EXPECT_EQ(device_of(imported).index, dev);
    EXPECT_EQ(data_ptr(imported), data_ptr(mem));
    std::vector<double> mv = values(mem), want = {mv[0], mv[3], mv[1], mv[4], mv[2], mv[5]};
    EXPECT_EQ(values(imported), want);
    CT_ASSERT_OK(ct_add(imported.get(), imported.get(), 1.0, sum.out()));
    EXPECT_EQ(device_of(sum).index, dev);
    for (double& w : want) w *= 2;
    EXPECT_EQ(values(sum), want);
    CT_ASSERT_OK(ct_fill_(imported.get(), 3.0));
    EXPECT_EQ(values(mem), std::vector<double>(6, 3.0));
    CT_ASSERT_OK(ct_transpose(imported.get(), 0, 1, view.out()));
    imported = H();
    EXPECT_EQ(g_cuda_deletes.load(), 0);  // the view still uses the memory
    view = H();
    EXPECT_EQ(g_cuda_deletes.load(), 1);
    sum = H();
    EXPECT_EQ(g_cuda_deletes.load(), 1);
}

TEST(CudaGpu, DlpackImportRefusesBadDevices) {
    REQUIRE_CUDA();
    g_cuda_deletes = 0;
    H mem = on(make(rand_values(4, 3), {4}), ct_cuda(0)), out;
    struct Bad {
        DLDevice device;
        ct_status status;
        const char* message;
    } bad[] = {{{kDLCUDA, 9}, CT_ERR_DEVICE, "invalid device cuda:9"},
               {{kDLCUDA, -1}, CT_ERR_DEVICE, "cuda:-1"},
               {{kDLCUDAHost, 0}, CT_ERR_NOT_SUPPORTED, "kDLCUDAHost"},
               {{kDLCUDAManaged, 0}, CT_ERR_NOT_SUPPORTED, "kDLCUDAManaged"}};
    int deletes = 0;
    for (const Bad& b : bad) {
        DLManagedTensorVersioned* m = foreign_cuda(mem, {4}, {1}, 0);
        m->dl_tensor.device = b.device;
        CT_EXPECT_ERR(ct_from_dlpack_versioned(m, out.out()), b.status, b.message);
        EXPECT_FALSE(out);
        EXPECT_EQ(g_cuda_deletes.load(), deletes);  // a failed import leaves the tensor with the producer
        m->deleter(m);
        ++deletes;
    }
    EXPECT_EQ(g_cuda_deletes.load(), 4);
}
