// bench_dtypes.cpp - float16 / bfloat16 against float32 in one run (medians of runs): matmul 1024 in GFLOP/s and
// elementwise add of 1e7 elements in GB/s (bytes read + written, so a half add moves half the bytes of a float32
// add; the dtypes timed in interleaved rounds). Targets from issue 15: half add at least float32's GB/s; matmul ratios are reported as measured.
#include <ctensor.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_util.h"

namespace {

ct_tensor randn(std::vector<int64_t> shape, ct_dtype d) {
    ct_tensor t = nullptr;
    CHECK(ct_randn(shape.data(), (int32_t)shape.size(), d, ct_cpu(), nullptr, &t));
    return t;
}

const ct_dtype kDTypes[] = {CT_FLOAT32, CT_FLOAT16, CT_BFLOAT16};

void bench_matmul(int64_t n) {
    std::printf("\n== matmul %lldx%lld: half dtypes vs float32\n", (long long)n, (long long)n);
    std::printf("%10s %12s %10s\n", "dtype", "GFLOP/s", "vs f32");
    double base = 0;
    for (ct_dtype d : kDTypes) {
        ct_tensor a = randn({n, n}, d), b = randn({n, n}, d);
        double t = median_time([&] {
            ct_tensor c = nullptr;
            CHECK(ct_matmul(a, b, &c));
            ct_tensor_release(c);
        }, 3, 5);
        double gf = 2.0 * n * n * n / t / 1e9;
        if (d == CT_FLOAT32) base = gf;
        std::printf("%10s %12.1f %10.2f\n", ct_dtype_name(d), gf, gf / base);
        ct_tensor_release(a);
        ct_tensor_release(b);
    }
}

// The three dtypes are timed in interleaved rounds (each round times each dtype once), so load that comes and goes
// on a shared machine hits all of them alike; the ratio printed is the median of the per-round ratios.
void bench_add(int64_t n) {
    std::printf("\n== add of %lld elements (a + b, fresh result): GB/s = 3 * n * itemsize / time; target half >= f32\n",
                (long long)n);
    std::printf("%10s %10s %10s %12s\n", "dtype", "ms", "GB/s", "GB/s vs f32");
    constexpr int kRounds = 11;
    std::vector<std::function<void()>> calls;
    std::vector<ct_tensor> inputs;
    for (ct_dtype d : kDTypes) {
        ct_tensor a = randn({n}, d), b = randn({n}, d);
        inputs.insert(inputs.end(), {a, b});
        calls.push_back([a, b] {
            ct_tensor c = nullptr;
            CHECK(ct_add(a, b, 1.0, &c));
            ct_tensor_release(c);
        });
    }
    const size_t nd = calls.size();
    std::vector<std::vector<double>> times(nd), ratios(nd);
    for (int r = 0; r < kRounds; ++r)
        for (size_t k = 0; k < nd; ++k) times[k].push_back(median_time(calls[k], 3, 1));
    for (size_t k = 0; k < nd; ++k)
        for (int r = 0; r < kRounds; ++r)  // GB/s ratio = (bytes_k / t_k) / (bytes_0 / t_0)
            ratios[k].push_back(ct_dtype_size(kDTypes[k]) * times[0][r] / (ct_dtype_size(kDTypes[0]) * times[k][r]));
    for (size_t k = 0; k < nd; ++k) {
        std::vector<double> t = times[k], q = ratios[k];
        std::sort(t.begin(), t.end());
        std::sort(q.begin(), q.end());
        const double med = t[t.size() / 2];
        std::printf("%10s %10.2f %10.1f %12.2f\n", ct_dtype_name(kDTypes[k]), med * 1e3,
                    3.0 * (double)n * ct_dtype_size(kDTypes[k]) / med / 1e9, q[q.size() / 2]);
    }
    for (ct_tensor t : inputs) ct_tensor_release(t);
}

}  // namespace

int main() {
    bench_matmul(1024);
    bench_add(10000000);
    return 0;
}
