// bench_util.h - what the C++ benchmarks share: CHECK (exit 2 with ct_last_error on a failed call), a monotonic
// clock in seconds, and the median seconds per call of a function.
#pragma once
#include <ctensor.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(call)                                                                                 \
    do {                                                                                            \
        ct_status st_ = (call);                                                                     \
        if (st_ != CT_OK) {                                                                         \
            std::fprintf(stderr, "%s failed: %s\n", #call, ct_last_error());                        \
            std::exit(2);                                                                           \
        }                                                                                           \
    } while (0)

inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median seconds per call of fn over `runs` runs of `reps` calls each (after one warm-up call).
inline double median_time(const std::function<void()>& fn, int reps, int runs = 7) {
    fn();
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        double t0 = now();
        for (int i = 0; i < reps; ++i) fn();
        t.push_back((now() - t0) / reps);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
