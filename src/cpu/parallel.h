// parallel.h - the one thread budget: parallel_for runs on ctensor's own pool (cpu/thread_pool.h), and BLAS
// calls run single-threaded OpenBLAS on slices spread over the same pool (blas_parallel), so OpenMP (which
// OpenBLAS uses) never starts a team of its own and nested loops run serially.
#pragma once
#include <cstdint>
#include <algorithm>
#include <type_traits>
#include "cpu/thread_pool.h"

namespace ct {

int get_num_threads();
void set_num_threads(int n);

// Calls fn(i) for each i in [0, chunks) on the pool (see run_chunks).
template <typename Fn> void parallel_chunks(int chunks, Fn&& fn) {
    using F = std::remove_reference_t<Fn>;
    run_chunks(chunks, [](void* ctx, int64_t i) { (*static_cast<F*>(ctx))(i); }, (void*)&fn);
}

// Calls fn(begin, end) over [0, n) split into contiguous ranges, in parallel when n >= 2 * grain.
template <typename Fn> void parallel_for(int64_t n, int64_t grain, Fn&& fn) {
    if (n <= 0) return;
    int threads = get_num_threads();
    if (threads > 1 && n >= 2 * grain && !in_parallel_region()) {
        int64_t chunks = std::min<int64_t>(threads, n / std::max<int64_t>(grain, 1));
        parallel_chunks((int)chunks, [&](int64_t t) {
            int64_t begin = n * t / chunks, end = n * (t + 1) / chunks;
            if (begin < end) fn(begin, end);
        });
        return;
    }
    fn(int64_t(0), n);
}

// Runs fn() with OpenBLAS limited to one thread on the calling thread (OpenBLAS's OpenMP build follows
// omp_get_max_threads() of its caller); the caller's OpenMP setting is restored afterwards.
class SingleThreadedBlas {
public:
    SingleThreadedBlas();
    ~SingleThreadedBlas();
    SingleThreadedBlas(const SingleThreadedBlas&) = delete;
    SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

private:
    int saved_;
};

}  // namespace ct
