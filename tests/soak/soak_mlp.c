/* soak_mlp.c - soak test in plain C through ctensor.h: trains a small MLP (Adam, cross entropy) for many steps,
 * samples RSS (/proc/self/statm) and ct_live_handles() every `every` steps, prints them, and fails when RSS
 * keeps growing after warm-up (last quarter's max above the second quarter's max by more than a margin) or
 * the live-handle count grows. Usage: soak_mlp [steps=100000] [every=steps/40]. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "ctensor.h"

#define CHECK(call)                                                                               \
    do {                                                                                          \
        ct_status st_ = (call);                                                                   \
        if (st_ != CT_OK) {                                                                       \
            fprintf(stderr, "soak_mlp: %s failed: %s: %s\n", #call, ct_status_name(st_), ct_last_error()); \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

/* Resident set size in KiB. */
static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE* f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long max_in(const long* v, int lo, int hi) {
    long m = v[lo];
    for (int i = lo; i < hi; ++i)
        if (v[i] > m) m = v[i];
    return m;
}

enum { kBatch = 32, kIn = 16, kHidden = 32, kClasses = 4, kMaxSamples = 4096 };

int main(int argc, char** argv) {
    long steps = argc > 1 ? atol(argv[1]) : 100000;
    long every = argc > 2 ? atol(argv[2]) : steps / 40;
    if (steps < 8 || every < 1 || steps / every > kMaxSamples || steps / every < 8) {
        fprintf(stderr, "soak_mlp: need steps >= 8 and 8..%d samples (steps / every)\n", kMaxSamples);
        return 2;
    }
    int64_t live_start = ct_live_handles();
    ct_device cpu = ct_cpu();
    ct_generator gen = NULL;
    CHECK(ct_generator_new(1234, &gen));

    /* Parameters: two linear layers, initialised small. */
    int64_t w1s[2] = {kHidden, kIn}, b1s[1] = {kHidden}, w2s[2] = {kClasses, kHidden}, b2s[1] = {kClasses};
    ct_tensor params[4] = {NULL, NULL, NULL, NULL};
    CHECK(ct_randn(w1s, 2, CT_FLOAT32, cpu, gen, &params[0]));
    CHECK(ct_zeros(b1s, 1, CT_FLOAT32, cpu, &params[1]));
    CHECK(ct_randn(w2s, 2, CT_FLOAT32, cpu, gen, &params[2]));
    CHECK(ct_zeros(b2s, 1, CT_FLOAT32, cpu, &params[3]));
    for (int i = 0; i < 4; ++i) CHECK(ct_tensor_set_requires_grad(params[i], 1));
    ct_optimizer opt = NULL;
    CHECK(ct_optim_adam_new(params, 4, 1e-3, 0.9, 0.999, 1e-8, 0.0, &opt));

    /* A fixed data set: labels are the argmax of the first kClasses input features (learnable). */
    int64_t xs[2] = {kBatch * 8, kIn};
    ct_tensor data = NULL, head = NULL, labels = NULL;
    CHECK(ct_randn(xs, 2, CT_FLOAT32, cpu, gen, &data));
    CHECK(ct_narrow(data, 1, 0, kClasses, &head));
    CHECK(ct_argmax(head, 1, 0, &labels));
    ct_tensor_release(head);

    long rss[kMaxSamples];
    int64_t live[kMaxSamples];
    int n = 0;
    double first_loss = -1, loss_v = 0;
    for (long step = 0; step < steps; ++step) {
        int64_t start = (step % 8) * kBatch;
        ct_tensor x = NULL, y = NULL, h = NULL, a = NULL, logits = NULL, loss = NULL;
        CHECK(ct_narrow(data, 0, start, kBatch, &x));
        CHECK(ct_narrow(labels, 0, start, kBatch, &y));
        CHECK(ct_linear(x, params[0], params[1], &h));
        CHECK(ct_relu(h, &a));
        CHECK(ct_linear(a, params[2], params[3], &logits));
        CHECK(ct_cross_entropy(logits, y, CT_REDUCTION_MEAN, -100, &loss));
        CHECK(ct_optimizer_zero_grad(opt, 1));
        CHECK(ct_backward(loss, NULL, 0, 0));
        CHECK(ct_optimizer_step(opt));
        CHECK(ct_tensor_item(loss, &loss_v));
        if (first_loss < 0) first_loss = loss_v;
        ct_tensor_release(x);
        ct_tensor_release(y);
        ct_tensor_release(h);
        ct_tensor_release(a);
        ct_tensor_release(logits);
        ct_tensor_release(loss);
        if ((step + 1) % every == 0 && n < kMaxSamples) {
            rss[n] = rss_kib();
            live[n] = ct_live_handles();
            ++n;
        }
    }

    printf("soak_mlp: %ld steps, loss %.4f -> %.4f, %d samples every %ld steps\n", steps, first_loss, loss_v, n,
           every);
    printf("soak_mlp: RSS KiB:");
    for (int i = 0; i < n; ++i) printf(" %ld", rss[i]);
    printf("\nsoak_mlp: live handles:");
    for (int i = 0; i < n; ++i) printf(" %lld", (long long)live[i]);
    printf("\n");

    int q = n / 4;
    long q2 = max_in(rss, q, 2 * q), q4 = max_in(rss, 3 * q, n);
    long margin = q2 / 50 > 1024 ? q2 / 50 : 1024; /* 2% or 1 MiB, whichever is larger */
    printf("soak_mlp: RSS plateau: max of 2nd quarter %ld KiB, of last quarter %ld KiB (margin %ld KiB)\n", q2, q4,
           margin);
    int failed = 0;
    if (q4 > q2 + margin) {
        fprintf(stderr, "soak_mlp: FAIL: RSS grows after warm-up (%ld KiB -> %ld KiB)\n", q2, q4);
        failed = 1;
    }
    for (int i = 1; i < n; ++i)
        if (live[i] != live[0]) {
            fprintf(stderr, "soak_mlp: FAIL: live handles changed from %lld to %lld at sample %d\n",
                    (long long)live[0], (long long)live[i], i);
            failed = 1;
            break;
        }
    if (!(loss_v < first_loss)) {
        fprintf(stderr, "soak_mlp: FAIL: loss did not decrease (%.4f -> %.4f)\n", first_loss, loss_v);
        failed = 1;
    }
    ct_optimizer_release(opt);
    for (int i = 0; i < 4; ++i) ct_tensor_release(params[i]);
    ct_tensor_release(data);
    ct_tensor_release(labels);
    ct_generator_release(gen);
    if (ct_live_handles() != live_start) {
        fprintf(stderr, "soak_mlp: FAIL: %lld handles left at exit\n", (long long)(ct_live_handles() - live_start));
        failed = 1;
    }
    printf("soak_mlp: %s\n", failed ? "FAILED" : "passed");
    return failed;
}
