/* c_client.c - a plain C99 program that uses only <ctensor.h>, built against the installed library:
 * gradients against hand-computed values, a tiny MLP trained with manual SGD, error paths, no leaks.
 * Exits nonzero (with a message per failed check) on any failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ctensor.h"

static int failures = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
            ++failures;                                                    \
        }                                                                  \
    } while (0)

/* Runs a ctensor call; on failure reports it and returns 1 from the enclosing function. */
#define TRY(call)                                                                              \
    do {                                                                                       \
        ct_status st_ = (call);                                                                \
        if (st_ != CT_OK) {                                                                    \
            fprintf(stderr, "FAIL %s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call,           \
                    ct_status_name(st_), ct_last_error());                                     \
            ++failures;                                                                        \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

/* A float64 tensor from host values. */
static ct_status make_f64(const double* values, const int64_t* shape, int32_t ndim, ct_tensor* out) {
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < ndim; ++i) n *= shape[i];
    return ct_tensor_from_data(values, n * (int64_t)sizeof(double), shape, ndim, CT_FLOAT64, ct_cpu(), out);
}

/* Copies t (float64, n elements) to dst. */
static ct_status read_f64(ct_tensor t, double* dst, int64_t n) {
    return ct_tensor_copy_to_host(t, dst, n * (int64_t)sizeof(double));
}

static int near(double a, double b, double tol) { return fabs(a - b) <= tol * (1.0 + fabs(b)); }

/* loss = sum((w * x - t)^2): d loss / d w = 2 (w x - t) x, checked against values computed by hand. */
static int check_hand_gradients(void) {
    const double wv[3] = {0.5, -1.0, 2.0}, xv[3] = {1.0, 2.0, 3.0}, tv[3] = {1.0, 1.0, 1.0};
    const double expected_grad[3] = {-1.0, -12.0, 30.0}; /* 2*(-0.5)*1, 2*(-3)*2, 2*5*3 */
    int64_t shape[1] = {3};
    ct_tensor w = NULL, x = NULL, t = NULL, z = NULL, d = NULL, sq = NULL, loss = NULL, g = NULL, xg = NULL;
    double loss_value = 0, grad[3];
    int32_t i, leaf = 0;
    TRY(make_f64(wv, shape, 1, &w));
    TRY(make_f64(xv, shape, 1, &x));
    TRY(make_f64(tv, shape, 1, &t));
    TRY(ct_tensor_set_requires_grad(w, 1));
    TRY(ct_mul(w, x, &z));
    TRY(ct_sub(z, t, 1.0, &d));
    TRY(ct_mul(d, d, &sq));
    TRY(ct_sum(sq, NULL, 0, 0, &loss));
    TRY(ct_tensor_item(loss, &loss_value));
    CHECK(near(loss_value, 34.25, 1e-12), "loss is %g, expected 34.25", loss_value);
    TRY(ct_tensor_is_leaf(loss, &leaf));
    CHECK(leaf == 0, "loss should not be a leaf");
    TRY(ct_backward(loss, NULL, 0, 0));
    TRY(ct_tensor_grad(w, &g));
    CHECK(g != NULL, "w has no gradient");
    if (g) {
        TRY(read_f64(g, grad, 3));
        for (i = 0; i < 3; ++i)
            CHECK(near(grad[i], expected_grad[i], 1e-12), "grad[%d] = %g, expected %g", (int)i, grad[i],
                  expected_grad[i]);
    }
    TRY(ct_tensor_grad(x, &xg));
    CHECK(xg == NULL, "x does not require grad but got a gradient");
    ct_tensor_release(g);
    ct_tensor_release(loss);
    ct_tensor_release(sq);
    ct_tensor_release(d);
    ct_tensor_release(z);
    ct_tensor_release(t);
    ct_tensor_release(x);
    ct_tensor_release(w);
    return 0;
}

/* d sum(sigmoid(z)) / dz = s (1 - s): at z = 0 and ln 3, s = 1/2 and 3/4, so the gradient is 1/4 and 3/16. */
static int check_sigmoid_gradient(void) {
    const double zv[2] = {0.0, log(3.0)};
    int64_t shape[1] = {2};
    ct_tensor z = NULL, s = NULL, total = NULL, g = NULL;
    double sv[2], grad[2];
    TRY(make_f64(zv, shape, 1, &z));
    TRY(ct_tensor_set_requires_grad(z, 1));
    TRY(ct_sigmoid(z, &s));
    TRY(ct_sum(s, NULL, 0, 0, &total));
    TRY(ct_backward(total, NULL, 0, 0));
    TRY(read_f64(s, sv, 2));
    TRY(ct_tensor_grad(z, &g));
    CHECK(g != NULL, "z has no gradient");
    if (g) {
        TRY(read_f64(g, grad, 2));
        CHECK(near(sv[0], 0.5, 1e-12) && near(sv[1], 0.75, 1e-12), "sigmoid gave %g, %g", sv[0], sv[1]);
        CHECK(near(grad[0], 0.25, 1e-12) && near(grad[1], 0.1875, 1e-12), "sigmoid grad %g, %g", grad[0], grad[1]);
    }
    ct_tensor_release(g);
    ct_tensor_release(total);
    ct_tensor_release(s);
    ct_tensor_release(z);
    return 0;
}

/* ---- a 2-layer MLP (2 -> HIDDEN -> 1, ReLU) trained with MSE and manual SGD ---- */

#define N_POINTS 64
#define HIDDEN 8
#define N_PARAMS 4

/* Uniform value in [-1, 1) from a 64-bit LCG (deterministic on every platform). */
static double next_uniform(uint64_t* state) {
    *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (double)(*state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void release_all(ct_tensor* ts, int n) {
    int i;
    for (i = 0; i < n; ++i) {
        ct_tensor_release(ts[i]);
        ts[i] = NULL;
    }
}

/* Points away from the line x0 + 2 x1 = 0, labelled +1 above it and -1 below: linearly separable. */
static int make_dataset(ct_tensor* x, ct_tensor* y) {
    double xs[N_POINTS * 2], ys[N_POINTS];
    int64_t xshape[2] = {N_POINTS, 2}, yshape[1] = {N_POINTS};
    uint64_t state = 42;
    int n = 0;
    while (n < N_POINTS) {
        double a = next_uniform(&state), b = next_uniform(&state);
        if (fabs(a + 2 * b) < 0.3) continue; /* keep a margin */
        xs[2 * n] = a;
        xs[2 * n + 1] = b;
        ys[n] = a + 2 * b > 0 ? 1.0 : -1.0;
        ++n;
    }
    TRY(make_f64(xs, xshape, 2, x));
    TRY(make_f64(ys, yshape, 1, y));
    return 0;
}

/* params = {W1 [HIDDEN, 2], b1 [HIDDEN], w2 [HIDDEN], b2 [1]}, small deterministic values, requiring grad. */
static int init_params(ct_tensor* params) {
    double w1[HIDDEN * 2], b1[HIDDEN], w2[HIDDEN], b2[1] = {0.0};
    int64_t s_w1[2] = {HIDDEN, 2}, s_h[1] = {HIDDEN}, s_1[1] = {1};
    uint64_t state = 7;
    int i;
    for (i = 0; i < HIDDEN * 2; ++i) w1[i] = next_uniform(&state);
    for (i = 0; i < HIDDEN; ++i) {
        b1[i] = 0.1;
        w2[i] = 0.5 * next_uniform(&state);
    }
    TRY(make_f64(w1, s_w1, 2, &params[0]));
    TRY(make_f64(b1, s_h, 1, &params[1]));
    TRY(make_f64(w2, s_h, 1, &params[2]));
    TRY(make_f64(b2, s_1, 1, &params[3]));
    for (i = 0; i < N_PARAMS; ++i) TRY(ct_tensor_set_requires_grad(params[i], 1));
    return 0;
}

/* pred [N] = relu(x W1^T + b1) w2 + b2 (matmul through BLAS). */
static int forward(ct_tensor* params, ct_tensor x, ct_tensor* pred) {
    ct_tensor tmp[5] = {NULL, NULL, NULL, NULL, NULL};
    TRY(ct_t(params[0], &tmp[0]));                 /* W1^T [2, H] */
    TRY(ct_matmul(x, tmp[0], &tmp[1]));            /* [N, H] */
    TRY(ct_add(tmp[1], params[1], 1.0, &tmp[2]));  /* + b1 */
    TRY(ct_relu(tmp[2], &tmp[3]));
    TRY(ct_matmul(tmp[3], params[2], &tmp[4]));    /* [N] */
    TRY(ct_add(tmp[4], params[3], 1.0, pred));     /* + b2 */
    release_all(tmp, 5);
    return 0;
}

static int mse(ct_tensor pred, ct_tensor y, ct_tensor* loss) {
    ct_tensor diff = NULL, sq = NULL;
    TRY(ct_sub(pred, y, 1.0, &diff));
    TRY(ct_mul(diff, diff, &sq));
    TRY(ct_mean(sq, NULL, 0, 0, loss));
    ct_tensor_release(sq);
    ct_tensor_release(diff);
    return 0;
}

/* p -= lr * p.grad in place for every parameter, without recording a graph; gradients are cleared. */
static int sgd_step(ct_tensor* params, double lr) {
    int32_t previous = 1;
    int i;
    TRY(ct_set_grad_enabled(0, &previous));
    for (i = 0; i < N_PARAMS; ++i) {
        ct_tensor g = NULL;
        TRY(ct_tensor_grad(params[i], &g));
        if (!g) continue;
        TRY(ct_sub_(params[i], g, lr));
        TRY(ct_tensor_set_grad(params[i], NULL));
        ct_tensor_release(g);
    }
    TRY(ct_set_grad_enabled(previous, NULL));
    return 0;
}

/* Fraction of points with sign(pred) == y. */
static int accuracy(ct_tensor pred, ct_tensor y, ct_tensor zero, double* acc) {
    ct_tensor margin = NULL, right = NULL, count = NULL;
    int64_t n = 0;
    TRY(ct_mul(pred, y, &margin));
    TRY(ct_gt(margin, zero, &right));
    TRY(ct_sum(right, NULL, 0, 0, &count));
    TRY(ct_tensor_item_int64(count, &n));
    *acc = (double)n / N_POINTS;
    ct_tensor_release(count);
    ct_tensor_release(right);
    ct_tensor_release(margin);
    return 0;
}

static int train_mlp(void) {
    ct_tensor x = NULL, y = NULL, zero = NULL, params[N_PARAMS] = {NULL, NULL, NULL, NULL};
    double first_loss = 0, last_loss = 0, acc = 0;
    int step;
    if (make_dataset(&x, &y) || init_params(params)) return 1;
    TRY(ct_scalar_tensor(0.0, CT_FLOAT64, ct_cpu(), &zero));
    for (step = 0; step < 400; ++step) {
        ct_tensor pred = NULL, loss = NULL;
        if (forward(params, x, &pred) || mse(pred, y, &loss)) return 1;
        TRY(ct_tensor_item(loss, &last_loss));
        if (step == 0) first_loss = last_loss;
        TRY(ct_backward(loss, NULL, 0, 0));
        if (sgd_step(params, 0.1)) return 1;
        if (step == 399 && accuracy(pred, y, zero, &acc)) return 1;
        ct_tensor_release(loss);
        ct_tensor_release(pred);
    }
    printf("c_client: MLP loss %.4f -> %.4f, accuracy %.3f\n", first_loss, last_loss, acc);
    CHECK(last_loss < first_loss / 4, "loss fell too little: %g -> %g", first_loss, last_loss);
    CHECK(last_loss < 0.1, "loss did not fall below 0.1: %g", last_loss);
    CHECK(acc >= 0.98, "training accuracy %g < 0.98", acc);
    release_all(params, N_PARAMS);
    ct_tensor_release(zero);
    ct_tensor_release(y);
    ct_tensor_release(x);
    return 0;
}

/* ---- error paths: a status, a message naming the problem, untouched outputs ---- */

static int message_has(const char* needle) { return strstr(ct_last_error(), needle) != NULL; }

static int check_errors(void) {
    const double av[6] = {1, 2, 3, 4, 5, 6}, bv[4] = {1, 2, 3, 4};
    int64_t sa[2] = {2, 3}, sb[1] = {4}, numel = -1;
    ct_tensor a = NULL, b = NULL, out = NULL, gone = NULL, ints = NULL;
    ct_status st;
    TRY(make_f64(av, sa, 2, &a));
    TRY(make_f64(bv, sb, 1, &b));

    st = ct_add(NULL, a, 1.0, &out);
    CHECK(st == CT_ERR_INVALID_HANDLE, "NULL handle gave %s", ct_status_name(st));
    CHECK(ct_last_status() == CT_ERR_INVALID_HANDLE, "ct_last_status is %d", (int)ct_last_status());
    CHECK(out == NULL, "output written on failure");

    st = ct_add(a, b, 1.0, &out);
    CHECK(st == CT_ERR_SHAPE, "shape mismatch gave %s", ct_status_name(st));
    CHECK(message_has("[2, 3]") && message_has("[4]"), "shape message lacks the shapes: '%s'", ct_last_error());
    CHECK(strcmp(ct_status_name(st), "CT_ERR_SHAPE") == 0, "status name is %s", ct_status_name(st));
    CHECK(out == NULL, "output written on failure");

    TRY(ct_zeros(sb, 1, CT_FLOAT32, ct_cpu(), &gone));
    ct_tensor_release(gone);
    st = ct_tensor_numel(gone, &numel);
    CHECK(st == CT_ERR_INVALID_HANDLE, "released handle gave %s", ct_status_name(st));
    CHECK(numel == -1, "numel written on failure");
    ct_tensor_release(gone); /* releasing a dead handle again is ignored */

    TRY(ct_zeros(sb, 1, CT_INT32, ct_cpu(), &ints));
    st = ct_tensor_set_requires_grad(ints, 1);
    CHECK(st == CT_ERR_DTYPE && message_has("int32"), "requires_grad on int32 gave %s: '%s'", ct_status_name(st),
          ct_last_error());

    st = ct_sum(a, NULL, 0, 0, NULL);
    CHECK(st == CT_ERR_INVALID_ARGUMENT, "NULL out pointer gave %s", ct_status_name(st));

    ct_tensor_release(ints);
    ct_tensor_release(b);
    ct_tensor_release(a);
    return 0;
}

/* ---- zero-copy wrapping of a C buffer with a C deleter ---- */

static int blob_deletes = 0;
static void count_delete(void* data, void* ctx) {
    (void)data;
    ++*(int*)ctx;
}

static int check_blob(void) {
    static float buffer[4] = {1, 2, 3, 4};
    int64_t shape[2] = {2, 2};
    ct_tensor t = NULL, s = NULL;
    double total = 0;
    TRY(ct_tensor_from_blob(buffer, shape, NULL, 2, CT_FLOAT32, ct_cpu(), count_delete, &blob_deletes, &t));
    buffer[3] = 10; /* shared, not copied */
    TRY(ct_sum(t, NULL, 0, 0, &s));
    TRY(ct_tensor_item(s, &total));
    CHECK(total == 16.0, "sum over the wrapped buffer is %g, expected 16", total);
    ct_tensor_release(s);
    CHECK(blob_deletes == 0, "deleter ran while the tensor was alive");
    ct_tensor_release(t);
    CHECK(blob_deletes == 1, "deleter ran %d times, expected once", blob_deletes);
    return 0;
}

int main(void) {
    ct_status st = ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR);
    if (st != CT_OK) {
        fprintf(stderr, "FAIL: ABI check: %s\n", ct_last_error());
        return 1;
    }
    CHECK(ct_version() / 10000 == CT_VERSION_MAJOR, "runtime version %d vs header major %d", (int)ct_version(),
          CT_VERSION_MAJOR);
    check_hand_gradients();
    check_sigmoid_gradient();
    train_mlp();
    check_errors();
    check_blob();
    CHECK(ct_live_handles() == 0, "%lld handle(s) leaked", (long long)ct_live_handles());
    if (failures) {
        fprintf(stderr, "c_client: %d check(s) failed\n", failures);
        return 1;
    }
    printf("c_client: all checks passed\n");
    return 0;
}
