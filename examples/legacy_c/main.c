/* examples/legacy_c/main.c - a plain C99 program using an installed ctensor: fits y = 2x + 1 by gradient
 * descent with autograd. Build with the Makefile (pkg-config) or CMakeLists.txt (find_package). */
#include <math.h>
#include <stdio.h>
#include "ctensor.h"

/* Prints the failed call and the library's message, then leaves main with status 1. */
#define TRY(call)                                                                        \
    do {                                                                                 \
        ct_status st_ = (call);                                                          \
        if (st_ != CT_OK) {                                                              \
            fprintf(stderr, "%s failed: %s: %s\n", #call, ct_status_name(st_), ct_last_error()); \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

/* Replaces the leaf *param by param - lr * grad(param), as a new leaf that requires grad. */
static ct_status sgd_step(ct_tensor* param, double lr) {
    ct_tensor grad = NULL, updated = NULL;
    int32_t previous = 1;
    ct_status st = ct_tensor_grad(*param, &grad);
    if (st == CT_OK) st = ct_set_grad_enabled(0, &previous);
    if (st == CT_OK) {
        st = ct_sub(*param, grad, lr, &updated);
        ct_set_grad_enabled(previous, NULL);
    }
    if (st == CT_OK) st = ct_tensor_set_requires_grad(updated, 1);
    ct_tensor_release(grad);
    if (st != CT_OK) {
        ct_tensor_release(updated);
        return st;
    }
    ct_tensor_release(*param);
    *param = updated;
    return CT_OK;
}

/* One step: loss = mean((w * x + b - y)^2), backward, then SGD on w and b. Stores the loss in *loss_value. */
static ct_status train_step(ct_tensor x, ct_tensor y, ct_tensor* w, ct_tensor* b, double* loss_value) {
    ct_tensor wx = NULL, pred = NULL, err = NULL, sq = NULL, loss = NULL;
    ct_status st = ct_mul(*w, x, &wx);
    if (st == CT_OK) st = ct_add(wx, *b, 1.0, &pred);
    if (st == CT_OK) st = ct_sub(pred, y, 1.0, &err);
    if (st == CT_OK) st = ct_mul(err, err, &sq);
    if (st == CT_OK) st = ct_mean(sq, NULL, 0, 0, &loss);
    if (st == CT_OK) st = ct_tensor_item(loss, loss_value);
    if (st == CT_OK) st = ct_backward(loss, NULL, 0, 0);
    if (st == CT_OK) st = sgd_step(w, 0.1);
    if (st == CT_OK) st = sgd_step(b, 0.1);
    ct_tensor_release(loss);
    ct_tensor_release(sq);
    ct_tensor_release(err);
    ct_tensor_release(pred);
    ct_tensor_release(wx);
    return st;
}

int main(void) {
    ct_tensor x = NULL, y = NULL, w = NULL, b = NULL, two = NULL, twice = NULL, one = NULL;
    double loss = 0.0, w_value = 0.0, b_value = 0.0;
    int step;

    TRY(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR));
    printf("ctensor %d (header %d.%d.%d)\n", (int)ct_version(), CT_VERSION_MAJOR, CT_VERSION_MINOR,
           CT_VERSION_PATCH);

    /* Data: x = linspace(-1, 1, 21), y = 2x + 1. */
    TRY(ct_linspace(-1.0, 1.0, 21, CT_FLOAT64, ct_cpu(), &x));
    TRY(ct_scalar_tensor(2.0, CT_FLOAT64, ct_cpu(), &two));
    TRY(ct_mul(x, two, &twice));
    TRY(ct_ones_like(x, &one));
    TRY(ct_add(twice, one, 1.0, &y));

    TRY(ct_scalar_tensor(0.0, CT_FLOAT64, ct_cpu(), &w));
    TRY(ct_scalar_tensor(0.0, CT_FLOAT64, ct_cpu(), &b));
    TRY(ct_tensor_set_requires_grad(w, 1));
    TRY(ct_tensor_set_requires_grad(b, 1));
    for (step = 0; step < 300; step++) {
        TRY(train_step(x, y, &w, &b, &loss));
        if (step % 100 == 0) printf("step %3d  loss %.6f\n", step, loss);
    }
    TRY(ct_tensor_item(w, &w_value));
    TRY(ct_tensor_item(b, &b_value));
    printf("fitted y = %.4f x + %.4f (loss %.2e)\n", w_value, b_value, loss);

    ct_tensor_release(w);
    ct_tensor_release(b);
    ct_tensor_release(y);
    ct_tensor_release(one);
    ct_tensor_release(twice);
    ct_tensor_release(two);
    ct_tensor_release(x);
    if (ct_live_handles() != 0) {
        fprintf(stderr, "leaked %ld handles\n", (long)ct_live_handles());
        return 1;
    }
    if (fabs(w_value - 2.0) > 1e-3 || fabs(b_value - 1.0) > 1e-3) {
        fprintf(stderr, "the fit did not converge\n");
        return 1;
    }
    return 0;
}
