/* tiny_add.c - the C side of bench.jl's tiny-op overhead: median ns per ct_add + ct_tensor_release of two
 * 1-element float32 tensors over 7 runs of n calls. Usage: tiny_add [n] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ctensor.h"

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
    long n = argc > 1 ? atol(argv[1]) : 200000, i;
    int64_t shape[1] = {1};
    ct_tensor a = NULL, b = NULL, c = NULL;
    double runs[7];
    int r;
    if (ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &a) != CT_OK || ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &b) != CT_OK) {
        fprintf(stderr, "%s\n", ct_last_error());
        return 1;
    }
    for (r = 0; r < 7; ++r) {
        double t0 = now();
        for (i = 0; i < n; ++i) {
            if (ct_add(a, b, 1.0, &c) != CT_OK) return 1;
            ct_tensor_release(c);
        }
        runs[r] = (now() - t0) / (double)n * 1e9;
    }
    qsort(runs, 7, sizeof runs[0], cmp);
    printf("%.1f\n", runs[3]);
    ct_tensor_release(a);
    ct_tensor_release(b);
    return 0;
}
