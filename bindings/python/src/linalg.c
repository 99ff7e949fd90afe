/* linalg.c - module functions for torch.linalg's ops (ct_linalg_*). Positional arguments mirror the
 * C ABI; ctensor/linalg.py gives them torch.linalg's names, keywords and named-tuple results. The GIL is released
 * while a factorisation runs (they take milliseconds on large or batched inputs). */
#include "ctmodule.h"

/* Wraps n handles into a tuple (NULL entries become None); releases all of them on failure. */
static PyObject* linalg_tuple(ct_tensor* hs, int n) {
    PyObject* tuple = PyTuple_New(n);
    for (int i = 0; i < n; ++i) {
        if (!tuple) {
            ct_tensor_release(hs[i]);
            continue;
        }
        PyObject* t = wrap_tensor(hs[i]);
        if (!t) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, t);
    }
    return tuple;
}

/* Runs call with the GIL released and raises on failure. */
#define RUN(call)                                \
    do {                                         \
        ct_status st_;                           \
        Py_BEGIN_ALLOW_THREADS st_ = (call);     \
        Py_END_ALLOW_THREADS                     \
        if (st_ != CT_OK) return raise_status(st_); \
    } while (0)

/* X-macro tables (X(op) names the op for the binding's coverage count, tests/conformance/pass_table.py) */
#define X(name)                                                                   \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                        \
        REQUIRE_SYM(ct_##name);                                                   \
        ct_tensor x, out = NULL;                                                  \
        if (!PyArg_ParseTuple(a, "O&", conv_tensor, &x)) return NULL;             \
        RUN(ct_##name(x, &out));                                                  \
        return wrap_tensor(out);                                                  \
    }
X(linalg_inv) X(linalg_det) X(linalg_svdvals) X(linalg_eigvals)
#undef X

#define X(name)                                                                   \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                        \
        REQUIRE_SYM(ct_##name);                                                   \
        ct_tensor x, out = NULL;                                                  \
        int flag = 0;                                                             \
        if (!PyArg_ParseTuple(a, "O&p", conv_tensor, &x, &flag)) return NULL;     \
        RUN(ct_##name(x, flag, &out));                                            \
        return wrap_tensor(out);                                                  \
    }
X(linalg_cholesky) X(linalg_eigvalsh)
#undef X

static PyObject* py_linalg_eig(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_eig);
    ct_tensor x, hs[2] = {NULL, NULL};
    if (!PyArg_ParseTuple(a, "O&", conv_tensor, &x)) return NULL;
    RUN(ct_linalg_eig(x, &hs[0], &hs[1]));
    return linalg_tuple(hs, 2);
}

static PyObject* py_linalg_slogdet(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_slogdet);
    ct_tensor x, hs[2] = {NULL, NULL};
    if (!PyArg_ParseTuple(a, "O&", conv_tensor, &x)) return NULL;
    RUN(ct_linalg_slogdet(x, &hs[0], &hs[1]));
    return linalg_tuple(hs, 2);
}

static PyObject* py_linalg_solve(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_solve);
    ct_tensor x, b, out = NULL;
    if (!PyArg_ParseTuple(a, "O&O&", conv_tensor, &x, conv_tensor, &b)) return NULL;
    RUN(ct_linalg_solve(x, b, &out));
    return wrap_tensor(out);
}

/* qr(A, mode) with mode 0 reduced, 1 complete, 2 r */
static PyObject* py_linalg_qr(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_qr);
    ct_tensor x, hs[2] = {NULL, NULL};
    int mode = 0;
    if (!PyArg_ParseTuple(a, "O&i", conv_tensor, &x, &mode)) return NULL;
    RUN(ct_linalg_qr(x, mode, &hs[0], &hs[1]));
    return linalg_tuple(hs, 2);
}

static PyObject* py_linalg_eigh(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_eigh);
    ct_tensor x, hs[2] = {NULL, NULL};
    int upper = 0;
    if (!PyArg_ParseTuple(a, "O&p", conv_tensor, &x, &upper)) return NULL;
    RUN(ct_linalg_eigh(x, upper, &hs[0], &hs[1]));
    return linalg_tuple(hs, 2);
}

static PyObject* py_linalg_svd(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_svd);
    ct_tensor x, hs[3] = {NULL, NULL, NULL};
    int full = 1;
    if (!PyArg_ParseTuple(a, "O&p", conv_tensor, &x, &full)) return NULL;
    RUN(ct_linalg_svd(x, full, &hs[0], &hs[1], &hs[2]));
    return linalg_tuple(hs, 3);
}

/* solve_triangular(A, B, upper, left, unitriangular) */
static PyObject* py_linalg_solve_triangular(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_solve_triangular);
    ct_tensor x, b, out = NULL;
    int upper = 0, left = 1, unit = 0;
    if (!PyArg_ParseTuple(a, "O&O&ppp", conv_tensor, &x, conv_tensor, &b, &upper, &left, &unit)) return NULL;
    RUN(ct_linalg_solve_triangular(x, b, upper, left, unit, &out));
    return wrap_tensor(out);
}

/* the composites */
static PyObject* py_linalg_matrix_power(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_matrix_power);
    ct_tensor x, out = NULL;
    long long n;
    if (!PyArg_ParseTuple(a, "O&L", conv_tensor, &x, &n)) return NULL;
    RUN(ct_linalg_matrix_power(x, n, &out));
    return wrap_tensor(out);
}

static PyObject* py_linalg_cross(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_cross);
    ct_tensor x, y, out = NULL;
    long long dim = -1;
    if (!PyArg_ParseTuple(a, "O&O&L", conv_tensor, &x, conv_tensor, &y, &dim)) return NULL;
    RUN(ct_linalg_cross(x, y, dim, &out));
    return wrap_tensor(out);
}

/* vector_norm(x, ord, dims or None, keepdim) */
static PyObject* py_linalg_vector_norm(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_vector_norm);
    ct_tensor x, out = NULL;
    double ord = 2.0;
    PyObject* dims_obj = Py_None;
    int keepdim = 0;
    if (!PyArg_ParseTuple(a, "O&dOp", conv_tensor, &x, &ord, &dims_obj, &keepdim)) return NULL;
    Dims d;
    if (dims_parse(dims_obj, &d, 1, "dim") < 0) return NULL;
    ct_status st = ct_linalg_vector_norm(x, ord, d.is_none ? NULL : d.v, d.n, keepdim, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* matrix_norm(x, ord text, dim0, dim1, keepdim) */
static PyObject* py_linalg_matrix_norm(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_matrix_norm);
    ct_tensor x, out = NULL;
    const char* ord;
    long long d0, d1;
    int keepdim = 0;
    if (!PyArg_ParseTuple(a, "O&sLLp", conv_tensor, &x, &ord, &d0, &d1, &keepdim)) return NULL;
    RUN(ct_linalg_matrix_norm(x, ord, d0, d1, keepdim, &out));
    return wrap_tensor(out);
}

/* pinv / matrix_rank(A, atol, rtol): negative = not given */
#define X(name)                                                                   \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                        \
        REQUIRE_SYM(ct_##name);                                                   \
        ct_tensor x, out = NULL;                                                  \
        double atol = -1, rtol = -1;                                              \
        if (!PyArg_ParseTuple(a, "O&dd", conv_tensor, &x, &atol, &rtol)) return NULL; \
        RUN(ct_##name(x, atol, rtol, &out));                                      \
        return wrap_tensor(out);                                                  \
    }
X(linalg_pinv) X(linalg_matrix_rank)
#undef X

static PyObject* py_linalg_lstsq(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_lstsq);
    ct_tensor x, b, out = NULL;
    if (!PyArg_ParseTuple(a, "O&O&", conv_tensor, &x, conv_tensor, &b)) return NULL;
    RUN(ct_linalg_lstsq(x, b, &out));
    return wrap_tensor(out);
}

/* lstsq_ex(A, B, rcond, driver): (solution, residuals, rank, singular_values); rcond < 0 = not given */
static PyObject* py_linalg_lstsq_ex(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_linalg_lstsq_ex);
    ct_tensor x, b, outs[4] = {NULL, NULL, NULL, NULL};
    double rcond = -1;
    int driver = 0;
    if (!PyArg_ParseTuple(a, "O&O&di", conv_tensor, &x, conv_tensor, &b, &rcond, &driver)) return NULL;
    RUN(ct_linalg_lstsq_ex(x, b, rcond, driver, &outs[0], &outs[1], &outs[2], &outs[3]));
    return linalg_tuple(outs, 4);
}

#define ENTRY(name) {"linalg_" #name, (PyCFunction)py_linalg_##name, METH_VARARGS, NULL},
static PyMethodDef linalg_functions[] = {
    ENTRY(inv) ENTRY(det) ENTRY(slogdet) ENTRY(solve) ENTRY(cholesky) ENTRY(qr) ENTRY(eigh) ENTRY(eigvalsh)
    ENTRY(svd) ENTRY(svdvals) ENTRY(solve_triangular) ENTRY(matrix_power) ENTRY(cross) ENTRY(vector_norm)
    ENTRY(matrix_norm) ENTRY(pinv) ENTRY(matrix_rank) ENTRY(lstsq)
    ENTRY(lstsq_ex) ENTRY(eig) ENTRY(eigvals)
    {NULL, NULL, 0, NULL}};

int init_linalg(PyObject* m) { return add_functions(m, linalg_functions); }
