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
// No CUDA tensor can exist without a loadable backend (issue 18, finding 9): caller memory said to be on cuda:0
// is refused, not wrapped (at an address in the never-mapped first page: had it been read, the suite would crash).
TEST(CudaUnavailable, CudaTensorsCannotBeMade) {
    SKIP_IF_CUDA_AVAILABLE();
    std::string why = unavailable_reason();
    void* unmapped = reinterpret_cast<void*>(uintptr_t(256));
    const int64_t s[2] = {2, 3};
    H t;
    CT_EXPECT_ERR(ct_tensor_from_blob(unmapped, s, nullptr, 2, CT_FLOAT32, ct_cuda(0), nullptr, nullptr, t.out()),
                  CT_ERR_NOT_COMPILED, why);
    CT_EXPECT_ERR(ct_empty(s, 2, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    H cpu = randt({2, 3}, 2, false);
    CT_EXPECT_ERR(ct_to_device(cpu.get(), ct_cuda(0), t.out()), CT_ERR_NOT_COMPILED, why);
    EXPECT_FALSE(t);
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
    std::string by_default = run("env -u CTENSOR_CUDA_BACKEND " CT_CUDA_PROBE);  // found next to libctensor
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

// ---------------- with a GPU: CUDA results against the CPU (skipped here with the reason) ----------------

namespace {

const ct_dtype kDtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL};

H on(const H& t, ct_device d) {
    H out;
    ok(ct_to_device(t.get(), d, out.out()));
    return out;
}

ct_device device_of(const H& t) {
    ct_device d{};
    ok(ct_tensor_device(t.get(), &d));
    return d;
}

// Test values for dtype (non-negative for uint8, 0/1 for bool, with ties).
H sample(const Shape& s, ct_dtype dt, uint64_t seed) {
    size_t n = 1;
    for (auto d : s) n *= (size_t)d;
    std::vector<double> v = rand_values(n, seed, dt == CT_UINT8 ? 0.0 : -5.0, 5.0);
    for (auto& x : v) x = dt == CT_BOOL ? (x > 0) : std::floor(x * 2) / 2;
    return make(v, s, dt);
}

using ViewFn = std::function<H(const H&)>;
H same(const H& t) { return t; }
H transposed(const H& t) {
    H o;
    ok(ct_transpose(t.get(), 0, 1, o.out()));
    return o;
}
H every_other_column(const H& t) {
    H o;
    ok(ct_slice(t.get(), 1, 0, 100, 2, o.out()));
    return o;
}

// Runs op on (view_a(a), view_b(b)) on the CPU and on CUDA (views taken on the device) and compares.
void compare_binary(const char* name, const std::function<ct_status(ct_tensor, ct_tensor, ct_tensor*)>& op,
                    const H& a, const ViewFn& va, const H& b, const ViewFn& vb) {
    SCOPED_TRACE(name);
    H want, got;
    ok(op(va(a).get(), vb(b).get(), want.out()));
    CT_ASSERT_OK(op(va(on(a, ct_cuda(0))).get(), vb(on(b, ct_cuda(0))).get(), got.out()));
    EXPECT_EQ(device_of(got).type, CT_DEVICE_CUDA);
    EXPECT_EQ(shape(got), shape(want));
    EXPECT_EQ(dtype(got), dtype(want));
    EXPECT_TRUE(allclose(got, values(want), 1e-6, 1e-6));  // the GPU may fuse a + alpha * b into one fma
}

}  // namespace

TEST(CudaGpu, CreationAndReadBack) {
    REQUIRE_CUDA();
    int64_t s[2] = {3, 5};
    for (ct_dtype dt : kDtypes) {
        SCOPED_TRACE(ct_dtype_name(dt));
        H z, o, f, ar, e;
        CT_ASSERT_OK(ct_zeros(s, 2, dt, ct_cuda(0), z.out()));
        CT_ASSERT_OK(ct_ones(s, 2, dt, ct_cuda(0), o.out()));
        CT_ASSERT_OK(ct_full(s, 2, 3.0, dt, ct_cuda(0), f.out()));
        CT_ASSERT_OK(ct_arange(0, 7, 1, dt == CT_BOOL ? CT_INT64 : dt, ct_cuda(0), ar.out()));
        CT_ASSERT_OK(ct_eye(3, 4, dt, ct_cuda(0), e.out()));
        EXPECT_EQ(values(z), std::vector<double>(15, 0.0));
        EXPECT_EQ(values(o), std::vector<double>(15, 1.0));
        EXPECT_EQ(values(f), std::vector<double>(15, dt == CT_BOOL ? 1.0 : 3.0));
        EXPECT_EQ(values(ar), (std::vector<double>{0, 1, 2, 3, 4, 5, 6}));
        EXPECT_EQ(values(e), (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
    }
    double v[6] = {1.5, -2, 3, 4, 5, 6};
    H t, one;
    CT_ASSERT_OK(ct_tensor_from_data(v, sizeof v, std::vector<int64_t>{2, 3}.data(), 2, CT_FLOAT64, ct_cuda(0), t.out()));
    EXPECT_EQ(values(t), std::vector<double>(v, v + 6));
    CT_ASSERT_OK(ct_select(t.get(), 1, 0, one.out()));  // a strided view on the device
    double host[2];
    CT_ASSERT_OK(ct_tensor_copy_to_host(one.get(), host, sizeof host));
    EXPECT_EQ(host[0], 1.5);
    EXPECT_EQ(host[1], 4.0);
    H x;
    CT_ASSERT_OK(ct_select(one.get(), 0, 0, x.out()));
    double item = 0;
    CT_ASSERT_OK(ct_tensor_item(x.get(), &item));
    EXPECT_EQ(item, 1.5);
}

TEST(CudaGpu, MovesAndConversionsRoundTrip) {
    REQUIRE_CUDA();
    H cpu = randt({3, 4, 5}, 3, false), perm;
    CT_ASSERT_OK(ct_permute(cpu.get(), std::vector<int64_t>{2, 0, 1}.data(), 3, perm.out()));
    H dev = on(perm, ct_cuda(0));
    int32_t contiguous = 0;
    CT_ASSERT_OK(ct_tensor_is_contiguous(dev.get(), &contiguous));
    EXPECT_EQ(contiguous, 1);
    EXPECT_EQ(values(on(dev, ct_cpu())), values(perm));
    H again = on(dev, ct_cuda(0)), back_perm;  // already there: the same storage
    int32_t shares = 0;
    CT_ASSERT_OK(ct_tensor_shares_storage(again.get(), dev.get(), &shares));
    EXPECT_EQ(shares, 1);
    CT_ASSERT_OK(ct_permute(on(cpu, ct_cuda(0)).get(), std::vector<int64_t>{2, 0, 1}.data(), 3, back_perm.out()));
    H packed;
    CT_ASSERT_OK(ct_contiguous(back_perm.get(), packed.out()));  // strided copy kernel on the device
    EXPECT_EQ(values(packed), values(perm));
    if (ct_cuda_device_count() >= 2) {  // between devices, and no mixing of them in an op
        H other = on(perm, ct_cuda(1)), back = on(on(dev, ct_cuda(1)), ct_cuda(0)), out;
        EXPECT_EQ(device_of(other).index, 1);
        EXPECT_EQ(values(other), values(perm));
        EXPECT_EQ(values(back), values(perm));
        CT_EXPECT_ERR(ct_add(dev.get(), other.get(), 1.0, out.out()), CT_ERR_DEVICE, "cuda:0 and cuda:1");
    }
    for (ct_dtype from : kDtypes)
        for (ct_dtype to : kDtypes) {
            SCOPED_TRACE(std::string(ct_dtype_name(from)) + " -> " + ct_dtype_name(to));
            H src = transposed(sample({4, 6}, from, 5)), want, got;
            ok(ct_to_dtype(src.get(), to, want.out()));
            CT_ASSERT_OK(ct_to_dtype(transposed(on(sample({4, 6}, from, 5), ct_cuda(0))).get(), to, got.out()));
            EXPECT_EQ(values(got), values(want));
        }
}

TEST(CudaGpu, BinaryOpsMatchCpu) {
    REQUIRE_CUDA();
    struct Op {
        const char* name;
        std::function<ct_status(ct_tensor, ct_tensor, ct_tensor*)> fn;
        bool arithmetic;
    } ops[] = {
        {"add", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_add(a, b, 3.0, o); }, true},
        {"sub", [](ct_tensor a, ct_tensor b, ct_tensor* o) { return ct_sub(a, b, 1.0, o); }, true},
        {"mul", ct_mul, true}, {"div", ct_div, true}, {"maximum", ct_maximum, false}, {"minimum", ct_minimum, false},
        {"eq", ct_eq, false}, {"ne", ct_ne, false}, {"lt", ct_lt, false}, {"le", ct_le, false}, {"gt", ct_gt, false},
        {"ge", ct_ge, false}, {"logical_and", ct_logical_and, false}, {"logical_or", ct_logical_or, false},
        {"logical_xor", ct_logical_xor, false},
    };
    for (ct_dtype dt : kDtypes)
        for (auto& op : ops) {
            if (dt == CT_BOOL && op.arithmetic) continue;
            if (dt == CT_UINT8 && std::string(op.name) == "sub") continue;
            SCOPED_TRACE(ct_dtype_name(dt));
            compare_binary(op.name, op.fn, sample({1031}, dt, 1), same, sample({1031}, dt, 2), same);
            compare_binary(op.name, op.fn, sample({3, 1, 5}, dt, 3), same, sample({4, 1}, dt, 4), same);
            compare_binary(op.name, op.fn, sample({6, 5}, dt, 5), transposed, sample({5, 12}, dt, 6), every_other_column);
            compare_binary(op.name, op.fn, sample({}, dt, 7), same, sample({0, 3}, dt, 8), same);
        }
    // promotion across dtypes, and CPU numbers (0-d) with CUDA tensors
    compare_binary("int32 + float32", ct_mul, sample({4, 3}, CT_INT32, 9), same, sample({3}, CT_FLOAT32, 10), same);
    H dev = on(sample({2, 3}, CT_INT64, 11), ct_cuda(0)), num, got, want;
    CT_ASSERT_OK(ct_wrapped_scalar(2.5, 0, num.out()));
    CT_ASSERT_OK(ct_mul(dev.get(), num.get(), got.out()));
    ok(ct_mul(sample({2, 3}, CT_INT64, 11).get(), num.get(), want.out()));
    EXPECT_EQ(device_of(got).type, CT_DEVICE_CUDA);
    EXPECT_EQ(dtype(got), CT_FLOAT32);
    EXPECT_TRUE(allclose(got, values(want)));
    // 14 dims that cannot merge: more than the backend's layout holds, so the core splits outer dims
    Shape big(14, 2);
    std::vector<int64_t> rev(14);
    for (int i = 0; i < 14; ++i) rev[(size_t)i] = 13 - i;
    ViewFn reversed = [&](const H& t) {
        H o;
        ok(ct_permute(t.get(), rev.data(), 14, o.out()));
        return o;
    };
    compare_binary("mul over 14 dims", ct_mul, sample(big, CT_FLOAT64, 12), reversed, sample(big, CT_FLOAT64, 13), same);
}

TEST(CudaGpu, AutogradThroughBinaryOps) {
    REQUIRE_CUDA();
    H a = on(randt({3, 4}, 1, false), ct_cuda(0)), b = on(randt({3, 4}, 2, false), ct_cuda(0));
    CT_ASSERT_OK(ct_tensor_set_requires_grad(a.get(), 1));
    CT_ASSERT_OK(ct_tensor_set_requires_grad(b.get(), 1));
    H ab, y, g;
    CT_ASSERT_OK(ct_mul(a.get(), b.get(), ab.out()));
    CT_ASSERT_OK(ct_add(ab.get(), a.get(), 1.0, y.out()));  // y = a * b + a
    CT_ASSERT_OK(ct_ones_like(y.get(), g.out()));
    CT_ASSERT_OK(ct_backward(y.get(), g.get(), 0, 0));
    H ga, gb;
    CT_ASSERT_OK(ct_tensor_grad(a.get(), ga.out()));
    CT_ASSERT_OK(ct_tensor_grad(b.get(), gb.out()));
    EXPECT_EQ(device_of(ga).type, CT_DEVICE_CUDA);
    std::vector<double> bv = values(b), want_a;
    for (double x : bv) want_a.push_back(x + 1);
    EXPECT_TRUE(allclose(ga, want_a, 1e-12, 1e-12));
    EXPECT_TRUE(allclose(gb, values(a), 1e-12, 1e-12));
    // moving is differentiable: the gradient goes back to the CPU
    H xc = randt({2, 3}, 4, true), xd, sq, ones, gx;
    CT_ASSERT_OK(ct_to_device(xc.get(), ct_cuda(0), xd.out()));
    CT_ASSERT_OK(ct_mul(xd.get(), xd.get(), sq.out()));
    CT_ASSERT_OK(ct_ones_like(sq.get(), ones.out()));
    CT_ASSERT_OK(ct_backward(sq.get(), ones.get(), 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(xc.get(), gx.out()));
    EXPECT_EQ(device_of(gx).type, CT_DEVICE_CPU);
    std::vector<double> twice;
    for (double v : values(xc)) twice.push_back(2 * v);
    EXPECT_TRUE(allclose(gx, twice, 1e-12, 1e-12));
    // the backward of a broadcast sums on the device
    H x = on(randt({1, 3}, 3, false), ct_cuda(0)), e, ge, gx3;
    CT_ASSERT_OK(ct_tensor_set_requires_grad(x.get(), 1));
    CT_ASSERT_OK(ct_expand(x.get(), std::vector<int64_t>{4, 3}.data(), 2, e.out()));
    CT_ASSERT_OK(ct_ones_like(e.get(), ge.out()));
    CT_ASSERT_OK(ct_backward(e.get(), ge.get(), 0, 0));
    CT_ASSERT_OK(ct_tensor_grad(x.get(), gx3.out()));
    EXPECT_EQ(device_of(gx3).type, CT_DEVICE_CUDA);
    EXPECT_EQ(values(gx3), (std::vector<double>{4, 4, 4}));
}

TEST(CudaGpu, RefusalsAndDeviceErrors) {
    REQUIRE_CUDA();
    H x = on(randt({2, 3}, 1, false), ct_cuda(0)), cpu = randt({2, 3}, 2, false), out;
    ct_tensor mixed[2] = {x.get(), cpu.get()};
    CT_EXPECT_ERR(ct_cat(mixed, 2, 0, out.out()), CT_ERR_DEVICE, "cat");
    CT_EXPECT_ERR(ct_add(x.get(), cpu.get(), 1.0, out.out()), CT_ERR_DEVICE, "cuda:0 and cpu");
    int32_t n = ct_cuda_device_count();
    CT_EXPECT_ERR(ct_zeros(std::vector<int64_t>{2}.data(), 1, CT_FLOAT32, ct_cuda(n), out.out()), CT_ERR_DEVICE,
                  "invalid device cuda:" + std::to_string(n));
    CT_EXPECT_ERR(ct_cuda_synchronize(n), CT_ERR_DEVICE, "invalid device");
    CT_EXPECT_ERR(ct_cuda_memory_stats(-1, nullptr, nullptr, nullptr), CT_ERR_DEVICE, "invalid device");
    CT_EXPECT_OK(ct_cuda_synchronize(0));
}

TEST(CudaGpu, CachingAllocatorReusesBlocks) {
    REQUIRE_CUDA();
    CT_ASSERT_OK(ct_cuda_synchronize(0));
    int64_t a0, r0, p0, a1, r1, p1, a2, r2, p2;
    CT_ASSERT_OK(ct_cuda_memory_stats(0, &a0, &r0, &p0));
    const int64_t n = 1 << 20;  // 4 MiB of float32
    {
        H t;
        CT_ASSERT_OK(ct_empty(&n, 1, CT_FLOAT32, ct_cuda(0), t.out()));
        CT_ASSERT_OK(ct_cuda_memory_stats(0, &a1, &r1, &p1));
        EXPECT_GE(a1 - a0, 4 * n);
        EXPECT_GE(p1, a1);
    }
    CT_ASSERT_OK(ct_cuda_memory_stats(0, &a2, &r2, &p2));
    EXPECT_EQ(a2, a0);
    EXPECT_EQ(r2, r1);  // freed into the cache, not to the driver
    {
        H t;
        CT_ASSERT_OK(ct_empty(&n, 1, CT_FLOAT32, ct_cuda(0), t.out()));
        int64_t r3 = 0;
        CT_ASSERT_OK(ct_cuda_memory_stats(0, nullptr, &r3, nullptr));
        EXPECT_EQ(r3, r1);  // the cached block was reused
    }
    CT_ASSERT_OK(ct_cuda_empty_cache());
    int64_t a4, r4;
    CT_ASSERT_OK(ct_cuda_memory_stats(0, &a4, &r4, nullptr));
    EXPECT_EQ(r4, a4);
}

TEST(CudaGpu, OutOfMemoryIsAStatus) {
    REQUIRE_CUDA();
    H t;
    const int64_t huge = int64_t(1) << 45;  // 128 TiB of float32
    CT_EXPECT_ERR(ct_empty(&huge, 1, CT_FLOAT32, ct_cuda(0), t.out()), CT_ERR_OUT_OF_MEMORY, "out of memory");
    EXPECT_FALSE(t);
    // A block of another size after a large one was cached: with little device memory (the emulated backend
    // has 256 MiB) it fits only once the cache is returned to the driver, which the allocator does and retries.
    CT_ASSERT_OK(ct_cuda_empty_cache());
    const int64_t n40 = 40 << 20, n48 = 48 << 20;
    CT_ASSERT_OK(ct_empty(&n40, 1, CT_FLOAT32, ct_cuda(0), t.out()));
    t = H();
    CT_ASSERT_OK(ct_empty(&n48, 1, CT_FLOAT32, ct_cuda(0), t.out()));
    int64_t allocated = 0;
    CT_ASSERT_OK(ct_cuda_memory_stats(0, &allocated, nullptr, nullptr));
    EXPECT_GE(allocated, 4 * n48);
}
