// parallel.h - the one thread budget: OpenMP loops here and OpenBLAS (OpenMP build) share it, and
// nested regions do not multiply threads (a loop inside a parallel region runs serially).
#pragma once
#include <cstdint>
#include <algorithm>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace ct {

int get_num_threads();
void set_num_threads(int n);

// Calls fn(begin, end) over [0, n) split into contiguous ranges, in parallel when n >= 2 * grain.
template <typename Fn> void parallel_for(int64_t n, int64_t grain, Fn&& fn) {
    if (n <= 0) return;
    int threads = get_num_threads();
#ifdef _OPENMP
    if (threads > 1 && n >= 2 * grain && !omp_in_parallel()) {
        int64_t chunks = std::min<int64_t>(threads, n / std::max<int64_t>(grain, 1));
#pragma omp parallel num_threads((int)chunks)
        {
            int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
            int64_t begin = n * t / nt, end = n * (t + 1) / nt;
            if (begin < end) fn(begin, end);
        }
        return;
    }
#endif
    (void)threads;
    fn(int64_t(0), n);
}

}  // namespace ct
