/* abi/compat/old_client.c - an "old" C99 client: compiled against the baseline header (abi/baseline/ctensor.h)
 * only, linked against and run with the library of the current build. It exercises a representative part of
 * the 1.0 ABI (creation, ops, views, autograd, a C custom backward, errors, live handles) and exits 0 when
 * every result is what the 1.0 contract promises. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ctensor.h"

static int failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "old_client:%d: check failed: %s\n", __LINE__, #cond);   \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* Runs a call that must succeed; prints the library's message otherwise. */
#define OK(call)                                                                     \
    do {                                                                             \
        ct_status st_ = (call);                                                      \
        if (st_ != CT_OK) {                                                          \
            fprintf(stderr, "old_client:%d: %s -> %s: %s\n", __LINE__, #call,        \
                    ct_status_name(st_), ct_last_error());                          \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * (1.0 + fabs(b)); }

/* Copies a float64 tensor of n elements to out and compares it with want. */
static int values_are(ct_tensor t, const double* want, int n) {
    double got[16];
    int i;
    if (n > 16 || ct_tensor_copy_to_host(t, got, (int64_t)(n * sizeof(double))) != CT_OK) return 0;
    for (i = 0; i < n; i++)
        if (!close_to(got[i], want[i])) return 0;
    return 1;
}

static void check_versions(void) {
    int32_t v = ct_version();
    CHECK(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR) == CT_OK);
    CHECK(ct_abi_version() == CT_ABI_VERSION);
    CHECK(v / 10000 == CT_VERSION_MAJOR && (v / 100) % 100 >= CT_VERSION_MINOR);
    CHECK(ct_check_abi(CT_ABI_VERSION + 1, 0) == CT_ERR_VERSION);
    printf("old_client: built against ctensor %d.%d, running library %d.%d.%d\n", CT_VERSION_MAJOR,
           CT_VERSION_MINOR, (int)(v / 10000), (int)(v / 100 % 100), (int)(v % 100));
}

/* Creation, broadcasting binary ops, reductions and views. */
static void check_ops(void) {
    const double a_data[6] = {1, 2, 3, 4, 5, 6};
    const int64_t shape[2] = {2, 3}, row_shape[1] = {3}, new_shape[2] = {3, 2};
    const double row_data[3] = {10, 20, 30};
    const double sum_want[6] = {11, 22, 33, 14, 25, 36}, col_sums[3] = {5, 7, 9};
    const double transposed[6] = {1, 4, 2, 5, 3, 6};
    ct_tensor a = NULL, row = NULL, sum = NULL, reduced = NULL, r = NULL, t = NULL, tc = NULL;
    int64_t dims[4] = {0, 0, 0, 0}, reduce_dim = 0;
    int32_t ndim = 0;
    ct_device device = {0, -1};
    ct_dtype dtype = -1;
    double total = 0;

    OK(ct_tensor_from_data(a_data, sizeof a_data, shape, 2, CT_FLOAT64, ct_cpu(), &a));
    OK(ct_tensor_from_data(row_data, sizeof row_data, row_shape, 1, CT_FLOAT64, ct_cpu(), &row));
    OK(ct_add(a, row, 1.0, &sum));
    CHECK(values_are(sum, sum_want, 6));
    OK(ct_tensor_shape(sum, dims, 4, &ndim));
    CHECK(ndim == 2 && dims[0] == 2 && dims[1] == 3);
    OK(ct_tensor_dtype(sum, &dtype));
    OK(ct_tensor_device(sum, &device));
    CHECK(dtype == CT_FLOAT64 && device.type == CT_DEVICE_CPU && device.index == 0);
    OK(ct_sum(a, &reduce_dim, 1, 0, &reduced));
    CHECK(values_are(reduced, col_sums, 3));
    OK(ct_reshape(a, new_shape, 2, &r));
    OK(ct_transpose(a, 0, 1, &t));
    OK(ct_contiguous(t, &tc));
    CHECK(values_are(tc, transposed, 6));
    ct_tensor_release(reduced);
    reduced = NULL;
    OK(ct_mean(r, NULL, 0, 0, &reduced));
    OK(ct_tensor_item(reduced, &total));
    CHECK(close_to(total, 3.5));
    ct_tensor_release(tc);
    ct_tensor_release(t);
    ct_tensor_release(r);
    ct_tensor_release(reduced);
    ct_tensor_release(sum);
    ct_tensor_release(row);
    ct_tensor_release(a);
}

/* loss = sum(x * x + 3 * x): d loss / dx = 2x + 3. */
static void check_autograd(void) {
    const double x_data[3] = {1, -2, 0.5}, grad_want[3] = {5, -1, 4};
    const int64_t shape[1] = {3};
    ct_tensor x = NULL, sq = NULL, three_x = NULL, three = NULL, y = NULL, loss = NULL, grad = NULL;
    char name[64];
    int32_t len = 0, leaf = -1, previous = -1;

    OK(ct_tensor_from_data(x_data, sizeof x_data, shape, 1, CT_FLOAT64, ct_cpu(), &x));
    OK(ct_tensor_set_requires_grad(x, 1));
    OK(ct_mul(x, x, &sq));
    OK(ct_scalar_tensor(3.0, CT_FLOAT64, ct_cpu(), &three));
    OK(ct_mul(three, x, &three_x));
    OK(ct_add(sq, three_x, 1.0, &y));
    OK(ct_sum(y, NULL, 0, 0, &loss));
    OK(ct_tensor_grad_fn_name(loss, name, (int32_t)sizeof name, &len));
    CHECK(len > 0 && strstr(name, "Backward") != NULL);
    OK(ct_tensor_is_leaf(loss, &leaf));
    CHECK(leaf == 0);
    OK(ct_backward(loss, NULL, 0, 0));
    OK(ct_tensor_grad(x, &grad));
    CHECK(grad != NULL && values_are(grad, grad_want, 3));

    /* Grad mode is per thread and restorable. */
    OK(ct_set_grad_enabled(0, &previous));
    CHECK(previous == 1 && ct_is_grad_enabled() == 0);
    OK(ct_set_grad_enabled(previous, NULL));
    CHECK(ct_is_grad_enabled() == 1);

    ct_tensor_release(grad);
    ct_tensor_release(loss);
    ct_tensor_release(y);
    ct_tensor_release(three_x);
    ct_tensor_release(three);
    ct_tensor_release(sq);
    ct_tensor_release(x);
}

static int ctx_released = 0;

/* Backward of "triple": grad_input = 3 * grad_output (exercises the callback typedefs of 1.0). */
static ct_status triple_backward(void* ctx, const ct_tensor* grad_outputs, int32_t n_outputs,
                                 ct_tensor* grad_inputs, int32_t n_inputs) {
    ct_tensor three = NULL;
    ct_status st;
    if (ctx != (void*)&ctx_released || n_outputs != 1 || n_inputs != 1)
        return ct_set_error(CT_ERR_INVALID_ARGUMENT, "triple_backward: unexpected arguments");
    st = ct_scalar_tensor(3.0, CT_FLOAT64, ct_cpu(), &three);
    if (st == CT_OK) st = ct_mul(grad_outputs[0], three, &grad_inputs[0]);
    ct_tensor_release(three);
    return st;
}

static void release_ctx(void* ctx) { *(int*)ctx += 1; }

static void check_custom_function(void) {
    const double x_data[2] = {1, 2}, y_want[2] = {3, 6}, grad_want[2] = {3, 3};
    const int64_t shape[1] = {2};
    ct_tensor x = NULL, three = NULL, raw = NULL, y = NULL, loss = NULL, grad = NULL;
    int32_t previous = 1;

    OK(ct_tensor_from_data(x_data, sizeof x_data, shape, 1, CT_FLOAT64, ct_cpu(), &x));
    OK(ct_tensor_set_requires_grad(x, 1));
    OK(ct_set_grad_enabled(0, &previous));
    OK(ct_scalar_tensor(3.0, CT_FLOAT64, ct_cpu(), &three));
    OK(ct_mul(x, three, &raw));
    OK(ct_set_grad_enabled(previous, NULL));
    OK(ct_custom_function_apply("TripleBackward", &x, 1, &raw, 1, triple_backward, &ctx_released, release_ctx, &y));
    CHECK(values_are(y, y_want, 2));
    OK(ct_sum(y, NULL, 0, 0, &loss));
    OK(ct_backward(loss, NULL, 0, 0));
    OK(ct_tensor_grad(x, &grad));
    CHECK(grad != NULL && values_are(grad, grad_want, 2));
    ct_tensor_release(grad);
    ct_tensor_release(loss);
    ct_tensor_release(y);
    ct_tensor_release(raw);
    ct_tensor_release(three);
    ct_tensor_release(x);
    CHECK(ctx_released == 1); /* the node (and its ctx) died with the last handle of the graph */
}

/* Failures give a status and a message; out-parameters stay untouched; bad handles are detected. */
static void check_errors(void) {
    const int64_t s23[2] = {2, 3}, s4[1] = {4};
    ct_tensor a = NULL, b = NULL, out = NULL, dead = NULL;
    ct_status st;

    OK(ct_zeros(s23, 2, CT_FLOAT32, ct_cpu(), &a));
    OK(ct_ones(s4, 1, CT_FLOAT32, ct_cpu(), &b));
    st = ct_add(a, b, 1.0, &out);
    CHECK(st == CT_ERR_SHAPE && ct_last_status() == CT_ERR_SHAPE);
    CHECK(out == NULL && strlen(ct_last_error()) > 0);
    CHECK(strcmp(ct_status_name(CT_ERR_SHAPE), "CT_ERR_SHAPE") == 0);
    CHECK(ct_add(NULL, b, 1.0, &out) == CT_ERR_INVALID_HANDLE && out == NULL);
    OK(ct_ones(s4, 1, CT_FLOAT32, ct_cpu(), &dead));
    ct_tensor_release(dead);
    CHECK(ct_mul(dead, b, &out) == CT_ERR_INVALID_HANDLE && out == NULL);
    CHECK(ct_dtype_size(CT_FLOAT32) == 4 && strcmp(ct_dtype_name(CT_INT64), "int64") == 0);
    ct_tensor_release(b);
    ct_tensor_release(a);
}

int main(void) {
    int64_t live_before = ct_live_handles();
    check_versions();
    check_ops();
    check_autograd();
    check_custom_function();
    check_errors();
    CHECK(ct_live_handles() == live_before);
    if (failures) {
        fprintf(stderr, "old_client: %d check(s) failed\n", failures);
        return 1;
    }
    printf("old_client: all checks passed against the current library\n");
    return 0;
}
