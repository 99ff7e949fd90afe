/* tiny_add.c - the C reference for the bindings' tiny-op benchmarks (bindings/java/bench, bindings/julia/bench):
 * ns per tiny (1-element float32) ct_add + release through the C ABI, median of 7 runs. Usage: tiny_add [iterations] */
#include <ctensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv) {
    long iters = argc > 1 ? atol(argv[1]) : 200000, i;
    int64_t shape[1] = {1};
    ct_tensor a = NULL, b = NULL, out = NULL;
    double runs[7];
    int r;
    if (ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR) != CT_OK || ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &a) != CT_OK ||
        ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &b) != CT_OK) {
        fprintf(stderr, "tiny_add: %s\n", ct_last_error());
        return 2;
    }
    for (r = 0; r < 7; ++r) {
        double t0 = now();
        for (i = 0; i < iters; ++i) {
            if (ct_add(a, b, 1.0, &out) != CT_OK) return 2;
            ct_tensor_release(out);
        }
        runs[r] = (now() - t0) / (double)iters * 1e9;
    }
    qsort(runs, 7, sizeof runs[0], cmp);
    printf("%.1f\n", runs[3]);
    ct_tensor_release(a);
    ct_tensor_release(b);
    return 0;
}
