// bench_core.cpp - core benchmarks, each against its reference measured in the same run (medians of runs):
// matmul vs a direct cblas_sgemm, elementwise add/mul/exp vs memcpy bandwidth, tiny-op overhead through the
// C ABI, and one MLP training step. Prints ratios; targets from the core issue are shown beside them.
#include <cblas.h>
#include <ctensor.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.h"

namespace {

ct_tensor randn(std::vector<int64_t> shape) {
    ct_tensor t = nullptr;
    CHECK(ct_randn(shape.data(), (int32_t)shape.size(), CT_FLOAT32, ct_cpu(), nullptr, &t));
    return t;
}

void bench_matmul() {
    std::printf("\n== matmul (float32), ctensor vs direct cblas_sgemm; target ratio >= 0.95\n");
    std::printf("%6s %14s %14s %8s\n", "n", "ctensor GF/s", "cblas GF/s", "ratio");
    for (int64_t n : {256, 512, 1024, 2048}) {
        ct_tensor a = randn({n, n}), b = randn({n, n});
        std::vector<float> c((size_t)(n * n));
        float *pa, *pb;
        CHECK(ct_tensor_data_ptr(a, (void**)&pa));
        CHECK(ct_tensor_data_ptr(b, (void**)&pb));
        int reps = n <= 512 ? 20 : (n <= 1024 ? 4 : 1);
        double t_ref = median_time([&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, pa, (int)n, pb, (int)n,
                        0.0f, c.data(), (int)n);
        }, reps);
        double t_ct = median_time([&] {
            ct_tensor out = nullptr;
            CHECK(ct_matmul(a, b, &out));
            ct_tensor_release(out);
        }, reps);
        double flops = 2.0 * (double)n * (double)n * (double)n;
        std::printf("%6lld %14.1f %14.1f %8.3f\n", (long long)n, flops / t_ct * 1e-9, flops / t_ref * 1e-9, t_ref / t_ct);
        ct_tensor_release(a);
        ct_tensor_release(b);
    }
}

void bench_elementwise(const std::vector<int64_t>& sizes) {
    std::printf("\n== elementwise float32 GB/s (bytes read + written) vs memcpy; target ratio >= 0.70 for large n\n");
    std::printf("%10s %10s %10s %10s %10s %8s %8s %8s\n", "n", "memcpy", "add", "mul", "exp", "add/cp", "mul/cp",
                "exp/cp");
    for (int64_t n : sizes) {
        ct_tensor a = randn({n}), b = randn({n});
        std::vector<float> src((size_t)n, 1.0f), dst((size_t)n);
        int reps = (int)std::max<int64_t>(1, 20000000 / n);
        double t_cp = median_time([&] { std::memcpy(dst.data(), src.data(), (size_t)n * 4); }, reps);
        auto time_op = [&](int which) {
            return median_time([&] {
                ct_tensor out = nullptr;
                if (which == 0) CHECK(ct_add(a, b, 1.0, &out));
                if (which == 1) CHECK(ct_mul(a, b, &out));
                if (which == 2) CHECK(ct_exp(a, &out));
                ct_tensor_release(out);
            }, reps);
        };
        double t_add = time_op(0), t_mul = time_op(1), t_exp = time_op(2);
        double bytes_cp = 8.0 * n, bytes_bin = 12.0 * n, bytes_un = 8.0 * n;
        double g_cp = bytes_cp / t_cp * 1e-9, g_add = bytes_bin / t_add * 1e-9, g_mul = bytes_bin / t_mul * 1e-9,
               g_exp = bytes_un / t_exp * 1e-9;
        std::printf("%10lld %10.1f %10.1f %10.1f %10.1f %8.2f %8.2f %8.2f\n", (long long)n, g_cp, g_add, g_mul, g_exp,
                    g_add / g_cp, g_mul / g_cp, g_exp / g_cp);
        ct_tensor_release(a);
        ct_tensor_release(b);
    }
}

void bench_overhead() {
    std::printf("\n== tiny-op overhead through the C ABI; target < 1000 ns\n");
    int64_t shape[1] = {1};
    ct_tensor a = nullptr, b = nullptr;
    CHECK(ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &a));
    CHECK(ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &b));
    double t = median_time([&] {
        ct_tensor out = nullptr;
        CHECK(ct_add(a, b, 1.0, &out));
        ct_tensor_release(out);
    }, 100000);
    std::printf("tiny add (1 element): %.0f ns per call\n", t * 1e9);
    CHECK(ct_tensor_set_requires_grad(a, 1));
    double tg = median_time([&] {
        ct_tensor y = nullptr, s = nullptr;
        CHECK(ct_mul(a, b, &y));
        CHECK(ct_sum(y, nullptr, 0, 0, &s));
        CHECK(ct_backward(s, nullptr, 0, 0));
        ct_tensor_release(y);
        ct_tensor_release(s);
    }, 20000);
    std::printf("tiny autograd step ((a*b).sum().backward()): %.0f ns per step (libtorch reference in DESIGN.md: 27 us)\n",
                tg * 1e9);
    ct_tensor_release(a);
    ct_tensor_release(b);
}

void bench_mlp_step() {
    std::printf("\n== MLP training step (784-256-128-10, batch 128, cross_entropy, Adam)\n");
    ct_tensor w1 = randn({256, 784}), b1 = randn({256}), w2 = randn({128, 256}), b2 = randn({128}),
              w3 = randn({10, 128}), b3 = randn({10});
    ct_tensor params[6] = {w1, b1, w2, b2, w3, b3};
    for (auto p : params) CHECK(ct_tensor_set_requires_grad(p, 1));
    ct_tensor x = randn({128, 784}), y = nullptr;
    int64_t yshape[1] = {128};
    CHECK(ct_randint(0, 10, yshape, 1, CT_INT64, ct_cpu(), nullptr, &y));
    ct_optimizer opt = nullptr;
    CHECK(ct_optim_adam_new(params, 6, 1e-3, 0.9, 0.999, 1e-8, 0.0, &opt));
    double t = median_time([&] {
        ct_tensor h1, a1, h2, a2, logits, loss;
        CHECK(ct_linear(x, w1, b1, &h1));
        CHECK(ct_relu(h1, &a1));
        CHECK(ct_linear(a1, w2, b2, &h2));
        CHECK(ct_relu(h2, &a2));
        CHECK(ct_linear(a2, w3, b3, &logits));
        CHECK(ct_cross_entropy(logits, y, CT_REDUCTION_MEAN, -100, &loss));
        CHECK(ct_optimizer_zero_grad(opt, 1));
        CHECK(ct_backward(loss, nullptr, 0, 0));
        CHECK(ct_optimizer_step(opt));
        for (ct_tensor t : {h1, a1, h2, a2, logits, loss}) ct_tensor_release(t);
    }, 20);
    double flops = 3.0 * 2.0 * 128.0 * (784.0 * 256 + 256.0 * 128 + 128.0 * 10);
    std::printf("MLP step: %.3f ms (%.1f GFLOP/s of matmul work)\n", t * 1e3, flops / t * 1e-9);
    ct_optimizer_release(opt);
    for (auto p : params) ct_tensor_release(p);
    ct_tensor_release(x);
    ct_tensor_release(y);
}

}  // namespace

// Usage: bench_core [--quick] [overhead] [elementwise] [small] [matmul] [mlp]  (none given: all but small)
int main(int argc, char** argv) {
    CHECK(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR));
    bool quick = false;
    std::vector<std::string> wanted;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) quick = true;
        else wanted.push_back(argv[i]);
    }
    auto want = [&](const char* name) {
        return (wanted.empty() && std::strcmp(name, "small") != 0) || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
    };
    std::printf("ctensor %d core benchmark, %d threads%s\n", ct_version(), ct_get_num_threads(), quick ? " (quick)" : "");
    if (want("overhead")) bench_overhead();
    if (want("elementwise")) bench_elementwise({1000, 10000, 100000, 1000000, 10000000, 100000000});
    if (want("small")) bench_elementwise({1000, 3000, 10000, 30000, 100000});  // fixed per-op cost dominates
    if (want("matmul")) bench_matmul();
    if (want("mlp")) bench_mlp_step();
    return ct_live_handles() == 0 ? 0 : 1;
}
