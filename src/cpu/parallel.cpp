// parallel.cpp - thread budget shared with OpenBLAS.
#include "cpu/parallel.h"
#include <atomic>
#include <cblas.h>

extern "C" void openblas_set_num_threads(int);

namespace ct {

static std::atomic<int> g_threads{0};

int get_num_threads() {
    int n = g_threads.load(std::memory_order_relaxed);
    if (n > 0) return n;
#ifdef _OPENMP
    n = omp_get_max_threads();
#else
    n = 1;
#endif
    g_threads.store(n, std::memory_order_relaxed);
    return n;
}

void set_num_threads(int n) {
    g_threads.store(n, std::memory_order_relaxed);
#ifdef _OPENMP
    omp_set_num_threads(n);
#endif
    openblas_set_num_threads(n);
}

}  // namespace ct
