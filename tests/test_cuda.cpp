// test_cuda.cpp - CUDA through the C API. Without a GPU: the reason reported, clean failures of creation, moves
// and device calls, the loader's reasons in fresh processes, no CUDA dependency of libctensor, and the refusal
// of CUDA tensors by ops without a CUDA kernel. With a GPU: the CUDA-capable ops against the CPU.
#include <dlfcn.h>
#include <cstdio>
#include <cstring>
#include <string>
#include "ct_test.h"

using namespace ctt;

namespace {

std::string unavailable_reason() {
    char reason[1024] = "";
    return ct_cuda_is_available(reason, sizeof reason) ? std::string() : std::string(reason);
}

#define SKIP_IF_CUDA_AVAILABLE()                                                       \
    do {                                                                               \
        if (unavailable_reason().empty()) GTEST_SKIP() << "a CUDA device is available"; \
    } while (0)
#define REQUIRE_CUDA()                                                        \
    do {                                                                      \
        std::string why_ = unavailable_reason();                              \
        if (!why_.empty()) GTEST_SKIP() << "no CUDA device: " << why_;        \
    } while (0)

// Output of a shell command (stdout + stderr).
std::string run(const std::string& cmd) {
    std::string out;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return "popen failed";
    char buf[512];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    return out;
}

// What a fresh process reports with CTENSOR_CUDA_BACKEND=path.
std::string probe(const std::string& path) { return run("CTENSOR_CUDA_BACKEND='" + path + "' " CT_CUDA_PROBE); }

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

const char* kReasons[] = {"backend not built", "cannot load the CUDA backend", "no CUDA driver", "no CUDA device"};

bool known_reason(const std::string& r) {
    for (const char* k : kReasons)
        if (contains(r, k)) return true;
    return false;
}

// A "CUDA tensor" at an address in the never-mapped first page: if CPU code read it, the suite would crash.
H fake_cuda_tensor(const Shape& s, ct_dtype dt = CT_FLOAT32) {
    void* unmapped = reinterpret_cast<void*>(uintptr_t(256));
    H t;
    ok(ct_tensor_from_blob(unmapped, s.data(), nullptr, (int32_t)s.size(), dt, ct_cuda(0), nullptr, nullptr, t.out()));
    return t;
}

}  // namespace

// ---------------- no GPU (this machine, CI) ----------------

TEST(CudaUnavailable, ReportsAReason) {
    SKIP_IF_CUDA_AVAILABLE();
    std::string why = unavailable_reason();
    EXPECT_TRUE(known_reason(why)) << why;
    if (CT_CUDA_BACKEND_BUILT) EXPECT_TRUE(contains(why, "no CUDA driver") || contains(why, "no CUDA device")) << why;
    else EXPECT_TRUE(contains(why, "backend not built")) << why;
    EXPECT_EQ(ct_cuda_device_count(), 0);
    EXPECT_EQ(ct_cuda_is_available(nullptr, 0), 0);  // NULL reason is fine
    char tiny[5];
    EXPECT_EQ(ct_cuda_is_available(tiny, sizeof tiny), 0);
    EXPECT_EQ(std::string(tiny), why.substr(0, 4));  // truncated and terminated
}

TEST(CudaUnavailable, CreationAndMovesFailWithTheReason) {
    SKIP_IF_CUDA_AVAILABLE();
    std::string why = unavailable_reason();
    int64_t s[2] = {2, 3};
    H t;
    CT_EXPECT_ERR(ct_zeros(s, 2, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_zeros(s, 2, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, "zeros: device cuda:0");
    CT_EXPECT_ERR(ct_empty(s, 2, CT_INT64, ct_cuda(1), t.out()), CT_ERR_NOT_COMPILED, "cuda:1");
    CT_EXPECT_ERR(ct_ones(s, 2, CT_FLOAT64, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_full(s, 2, 1.5, CT_FLOAT64, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, "full:");
    CT_EXPECT_ERR(ct_arange(0, 5, 1, CT_INT64, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_eye(3, 3, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    double v[6] = {1, 2, 3, 4, 5, 6};
    CT_EXPECT_ERR(ct_tensor_from_data(v, sizeof v, s, 2, CT_FLOAT64, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    EXPECT_FALSE(t);
    H cpu = randt({2, 3}, 1, false);
    CT_EXPECT_ERR(ct_to_device(cpu.get(), ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_to_device(cpu.get(), ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, "to: device cuda:0");
    EXPECT_FALSE(t);
    H same;
    CT_ASSERT_OK(ct_to_device(cpu.get(), ct_cpu(), same.out()));  // already there: the same tensor
    EXPECT_EQ(values(same), values(cpu));
}

TEST(CudaUnavailable, DeviceCallsFailCleanly) {
    SKIP_IF_CUDA_AVAILABLE();
    std::string why = unavailable_reason();
    CT_EXPECT_ERR(ct_cuda_synchronize(0), CT_ERR_NOT_COMPILED, why);
    int64_t a = -1, r = -1, p = -1;
    CT_EXPECT_ERR(ct_cuda_memory_stats(0, &a, &r, &p), CT_ERR_NOT_COMPILED, "cuda_memory_stats");
    EXPECT_EQ(a, -1);  // out-params untouched on failure
    EXPECT_EQ(p, -1);
    CT_EXPECT_ERR(ct_cuda_memory_stats(0, nullptr, nullptr, nullptr), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_cuda_empty_cache(), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_cuda_synchronize(-1), CT_ERR_NOT_COMPILED, "cuda_synchronize");
}

// A CUDA tensor wrapped around memory never touched: metadata and views work, ops without a CUDA kernel are
// refused at the C boundary, and CUDA-capable ops fail in the backend loader, not in CPU code.
TEST(CudaUnavailable, CudaTensorsAreRefusedNotTouched) {
    SKIP_IF_CUDA_AVAILABLE();
    std::string why = unavailable_reason();
    H x = fake_cuda_tensor({2, 3});
    ct_device d{};
    CT_ASSERT_OK(ct_tensor_device(x.get(), &d));
    EXPECT_EQ(d.type, CT_DEVICE_CUDA);
    EXPECT_EQ(shape(x), (Shape{2, 3}));
    void* p = nullptr;
    CT_ASSERT_OK(ct_tensor_data_ptr(x.get(), &p));
    EXPECT_NE(p, nullptr);
    H v, tr;
    CT_ASSERT_OK(ct_reshape(x.get(), std::vector<int64_t>{3, 2}.data(), 2, v.out()));
    CT_ASSERT_OK(ct_transpose(x.get(), 0, 1, tr.out()));
    EXPECT_EQ(shape(tr), (Shape{3, 2}));
    H out;
    CT_EXPECT_ERR(ct_sum(x.get(), nullptr, 0, 0, out.out()), CT_ERR_NOT_SUPPORTED, "sum: not implemented for cuda tensors yet");
    CT_EXPECT_ERR(ct_pow(x.get(), x.get(), out.out()), CT_ERR_NOT_SUPPORTED, "pow: not implemented for cuda");
    CT_EXPECT_ERR(ct_where(x.get(), x.get(), x.get(), out.out()), CT_ERR_NOT_SUPPORTED, "where:");
    CT_EXPECT_ERR(ct_add(x.get(), x.get(), 1.0, out.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_contiguous(tr.get(), out.out()), CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_to_device(x.get(), ct_cpu(), out.out()), CT_ERR_NOT_COMPILED, why);
    float host[6];
    CT_EXPECT_ERR(ct_tensor_copy_to_host(x.get(), host, sizeof host), CT_ERR_NOT_COMPILED, why);
    H one = fake_cuda_tensor({});
    double item = 0;
    CT_EXPECT_ERR(ct_tensor_item(one.get(), &item), CT_ERR_NOT_COMPILED, why);
    H cpu = randt({2, 3}, 2, false);
    CT_EXPECT_ERR(ct_add(x.get(), cpu.get(), 1.0, out.out()), CT_ERR_DEVICE, "cuda:0 and cpu");
    CT_EXPECT_ERR(ct_mul(cpu.get(), x.get(), out.out()), CT_ERR_DEVICE, "cpu and cuda:0");
    EXPECT_FALSE(out);
}

// Autograd through a CUDA tensor fails with a status (here: the backward of expand needs a sum on the device).
TEST(CudaUnavailable, BackwardFailsCleanly) {
    SKIP_IF_CUDA_AVAILABLE();
    H x = fake_cuda_tensor({1, 3}, CT_FLOAT64), g = fake_cuda_tensor({4, 3}, CT_FLOAT64);
    CT_ASSERT_OK(ct_tensor_set_requires_grad(x.get(), 1));
    H y;
    CT_ASSERT_OK(ct_expand(x.get(), std::vector<int64_t>{4, 3}.data(), 2, y.out()));
    CT_EXPECT_ERR(ct_backward(y.get(), g.get(), 0, 0), CT_ERR_NOT_COMPILED, "cuda:0");
}

TEST(CudaLoader, ReasonsInFreshProcesses) {
    std::string missing = probe("/nonexistent/dir/libctensor_cuda.so.1");
    EXPECT_TRUE(contains(missing, "unavailable: backend not built")) << missing;
    EXPECT_TRUE(contains(missing, "/nonexistent/dir/libctensor_cuda.so.1")) << missing;
    std::string garbage = probe(CT_NOT_A_LIBRARY);
    EXPECT_TRUE(contains(garbage, "unavailable: cannot load the CUDA backend: ")) << garbage;
    // a real shared library without the entry point: libctensor itself
    Dl_info info{};
    ASSERT_TRUE(dladdr(reinterpret_cast<void*>(&ct_version), &info) && info.dli_fname);
    std::string no_entry = probe(info.dli_fname);
    EXPECT_TRUE(contains(no_entry, "does not export ct_cuda_backend_entry_v1")) << no_entry;
    if (!CT_CUDA_BACKEND_BUILT) return;
    // the built backend: on a machine without a GPU its own init says why; with one, CUDA is available
    std::string real = probe(CT_CUDA_BACKEND_PATH);
    EXPECT_TRUE(contains(real, "available: ") || contains(real, "unavailable: no CUDA driver") ||
                contains(real, "unavailable: no CUDA device"))
        << real;
    std::string by_default = run(CT_CUDA_PROBE);  // found next to libctensor without the variable
    EXPECT_FALSE(contains(by_default, "backend not built")) << by_default;
}

TEST(CudaLoader, LibctensorDoesNotDependOnCuda) {
    Dl_info info{};
    ASSERT_TRUE(dladdr(reinterpret_cast<void*>(&ct_version), &info) && info.dli_fname);
    std::string deps = run(std::string("ldd '") + info.dli_fname + "'");
    ASSERT_TRUE(contains(deps, "libc.so")) << deps;  // ldd really ran
    for (const char* lib : {"libcuda", "libcudart", "libcublas", "libctensor_cuda"})
        EXPECT_FALSE(contains(deps, lib)) << info.dli_fname << " depends on " << lib << ":\n" << deps;
}
