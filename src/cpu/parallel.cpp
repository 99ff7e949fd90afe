// parallel.cpp - the thread budget (ctensor's pool size) and the single-threaded-BLAS guard.
#include "cpu/parallel.h"
#include <atomic>
#include <cstdlib>
#include <thread>
#include <sched.h>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace ct {
namespace {

std::atomic<int> g_threads{0};

// OMP_NUM_THREADS (first value) if set, else the CPUs this process may run on.
int default_threads() {
    if (const char* env = std::getenv("OMP_NUM_THREADS")) {
        int n = std::atoi(env);
        if (n > 0) return n;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

int get_num_threads() {
    int n = g_threads.load(std::memory_order_relaxed);
    if (n > 0) return n;
    n = std::min(default_threads(), 256);
    g_threads.store(n, std::memory_order_relaxed);
    return n;
}

void set_num_threads(int n) { g_threads.store(std::min(n, 256), std::memory_order_relaxed); }

SingleThreadedBlas::SingleThreadedBlas() {
#ifdef _OPENMP
    saved_ = omp_get_max_threads();
    if (saved_ != 1) omp_set_num_threads(1);
#else
    saved_ = 1;
#endif
}

SingleThreadedBlas::~SingleThreadedBlas() {
#ifdef _OPENMP
    if (saved_ != 1) omp_set_num_threads(saved_);
#endif
}

}  // namespace ct
