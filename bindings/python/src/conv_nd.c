/* conv_nd.c - module functions of issue 14: N-d (transposed) convolution, N-d pooling, unfold/fold. Spatial
 * arrays arrive as tuples of 1-3 ints, all of one length (the spatial rank). */
#include "ctmodule.h"

/* Copies tuple t of n ints into out; -1 with ValueError when it is not a tuple of n ints. */
static int rank_tuple(PyObject* t, int64_t* out, Py_ssize_t n, const char* what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != n) {
        PyErr_Format(PyExc_ValueError, "%s must be a tuple of %zd ints", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(t, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* convolution(x, w, b_or_None, stride, padding, dilation, transposed, output_padding, groups) */
static PyObject* py_convolution(PyObject* m, PyObject* a) {
    if (!ct_convolution) return raise_missing("ct_convolution");
    ct_tensor x, w, b = NULL;
    PyObject *st, *pd, *dl, *op;
    int transposed;
    long long groups;
    if (!PyArg_ParseTuple(a, "O&O&O&O!O!O!pO!L", conv_tensor, &x, conv_tensor, &w, conv_opt_tensor, &b,
                          &PyTuple_Type, &st, &PyTuple_Type, &pd, &PyTuple_Type, &dl, &transposed, &PyTuple_Type,
                          &op, &groups))
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(st);
    if (n < 1 || n > 3) return PyErr_Format(PyExc_ValueError, "convolution: spatial rank must be 1, 2 or 3, got %zd", n);
    int64_t s[3], p[3], d[3], o[3];
    if (rank_tuple(st, s, n, "stride") < 0 || rank_tuple(pd, p, n, "padding") < 0 ||
        rank_tuple(dl, d, n, "dilation") < 0 || rank_tuple(op, o, n, "output_padding") < 0)
        return NULL;
    ct_tensor out = NULL;
    CT_TRY(ct_convolution(x, w, b, s, p, d, (int32_t)n, transposed, o, groups, &out));
    return wrap_tensor(out);
}

/* Parses (x, kernel, stride, padding[, dilation]) tuples of one rank n into k, s, p, d; 0 or -1. */
static int pool_tuples(PyObject* kt, PyObject* st, PyObject* pt, PyObject* dt, int64_t* k, int64_t* s, int64_t* p,
                       int64_t* d, Py_ssize_t* n) {
    *n = PyTuple_GET_SIZE(kt);
    if (*n < 1 || *n > 3) {
        PyErr_Format(PyExc_ValueError, "pooling: spatial rank must be 1, 2 or 3, got %zd", *n);
        return -1;
    }
    if (rank_tuple(kt, k, *n, "kernel_size") < 0 || rank_tuple(st, s, *n, "stride") < 0 ||
        rank_tuple(pt, p, *n, "padding") < 0 || (dt && rank_tuple(dt, d, *n, "dilation") < 0))
        return -1;
    return 0;
}

/* Wraps (out, indices) into a tuple (both new references owned by it). */
static PyObject* pair_result(ct_tensor out, ct_tensor idx) {
    PyObject* a = wrap_tensor(out);
    if (!a) {
        ct_tensor_release(idx);
        return NULL;
    }
    PyObject* b = wrap_tensor(idx);
    if (!b) {
        Py_DECREF(a);
        return NULL;
    }
    return Py_BuildValue("(NN)", a, b);
}

/* max_pool_nd(x, kernel, stride, padding, dilation, ceil_mode) -> (values, indices) */
static PyObject* py_max_pool_nd(PyObject* m, PyObject* a) {
    if (!ct_max_pool_nd) return raise_missing("ct_max_pool_nd");
    ct_tensor x;
    PyObject *kt, *st, *pt, *dt;
    int ceil_mode;
    if (!PyArg_ParseTuple(a, "O&O!O!O!O!p", conv_tensor, &x, &PyTuple_Type, &kt, &PyTuple_Type, &st, &PyTuple_Type,
                          &pt, &PyTuple_Type, &dt, &ceil_mode))
        return NULL;
    int64_t k[3], s[3], p[3], d[3];
    Py_ssize_t n;
    if (pool_tuples(kt, st, pt, dt, k, s, p, d, &n) < 0) return NULL;
    ct_tensor out = NULL, idx = NULL;
    CT_TRY(ct_max_pool_nd(x, (int32_t)n, k, s, p, d, ceil_mode, &out, &idx));
    return pair_result(out, idx);
}

/* avg_pool_nd(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override (0 = none)) */
static PyObject* py_avg_pool_nd(PyObject* m, PyObject* a) {
    if (!ct_avg_pool_nd) return raise_missing("ct_avg_pool_nd");
    ct_tensor x;
    PyObject *kt, *st, *pt;
    int ceil_mode, count_include_pad;
    long long divisor;
    if (!PyArg_ParseTuple(a, "O&O!O!O!ppL", conv_tensor, &x, &PyTuple_Type, &kt, &PyTuple_Type, &st, &PyTuple_Type,
                          &pt, &ceil_mode, &count_include_pad, &divisor))
        return NULL;
    int64_t k[3], s[3], p[3];
    Py_ssize_t n;
    if (pool_tuples(kt, st, pt, NULL, k, s, p, NULL, &n) < 0) return NULL;
    ct_tensor out = NULL;
    CT_TRY(ct_avg_pool_nd(x, (int32_t)n, k, s, p, ceil_mode, count_include_pad, divisor, &out));
    return wrap_tensor(out);
}

/* adaptive_pool_nd(x, output_size, is_max) -> values, or (values, indices) when is_max */
static PyObject* py_adaptive_pool_nd(PyObject* m, PyObject* a) {
    if (!ct_adaptive_avg_pool_nd || !ct_adaptive_max_pool_nd) return raise_missing("ct_adaptive_avg_pool_nd");
    ct_tensor x;
    PyObject* ot;
    int is_max;
    if (!PyArg_ParseTuple(a, "O&O!p", conv_tensor, &x, &PyTuple_Type, &ot, &is_max)) return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(ot);
    int64_t o[3];
    if (n < 1 || n > 3) return PyErr_Format(PyExc_ValueError, "adaptive pooling: spatial rank must be 1, 2 or 3");
    if (rank_tuple(ot, o, n, "output_size") < 0) return NULL;
    ct_tensor out = NULL, idx = NULL;
    if (!is_max) {
        CT_TRY(ct_adaptive_avg_pool_nd(x, (int32_t)n, o, &out));
        return wrap_tensor(out);
    }
    CT_TRY(ct_adaptive_max_pool_nd(x, (int32_t)n, o, &out, &idx));
    return pair_result(out, idx);
}

/* unfold(x, kernel, dilation, padding, stride) with (h, w) tuples */
static PyObject* py_unfold(PyObject* m, PyObject* a) {
    if (!ct_unfold) return raise_missing("ct_unfold");
    ct_tensor x;
    int64_t k[2], d[2], p[2], s[2];
    if (!PyArg_ParseTuple(a, "O&(LL)(LL)(LL)(LL)", conv_tensor, &x, &k[0], &k[1], &d[0], &d[1], &p[0], &p[1], &s[0],
                          &s[1]))
        return NULL;
    ct_tensor out = NULL;
    CT_TRY(ct_unfold(x, k, d, p, s, &out));
    return wrap_tensor(out);
}

/* fold(x, output_size, kernel, dilation, padding, stride) with (h, w) tuples */
static PyObject* py_fold(PyObject* m, PyObject* a) {
    if (!ct_fold) return raise_missing("ct_fold");
    ct_tensor x;
    int64_t o[2], k[2], d[2], p[2], s[2];
    if (!PyArg_ParseTuple(a, "O&(LL)(LL)(LL)(LL)(LL)", conv_tensor, &x, &o[0], &o[1], &k[0], &k[1], &d[0], &d[1],
                          &p[0], &p[1], &s[0], &s[1]))
        return NULL;
    ct_tensor out = NULL;
    CT_TRY(ct_fold(x, o, k, d, p, s, &out));
    return wrap_tensor(out);
}

/* pixel_shuffle(x, factor, inverse): ct_pixel_unshuffle when inverse */
static PyObject* py_pixel_shuffle(PyObject* m, PyObject* a) {
    if (!ct_pixel_shuffle || !ct_pixel_unshuffle) return raise_missing("ct_pixel_shuffle");
    ct_tensor x;
    long long r;
    int inverse;
    if (!PyArg_ParseTuple(a, "O&Lp", conv_tensor, &x, &r, &inverse)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(inverse ? ct_pixel_unshuffle(x, r, &out) : ct_pixel_shuffle(x, r, &out));
    return wrap_tensor(out);
}

static PyMethodDef conv_nd_functions[] = {
    {"convolution", (PyCFunction)py_convolution, METH_VARARGS, NULL},
    {"max_pool_nd", (PyCFunction)py_max_pool_nd, METH_VARARGS, NULL},
    {"avg_pool_nd", (PyCFunction)py_avg_pool_nd, METH_VARARGS, NULL},
    {"adaptive_pool_nd", (PyCFunction)py_adaptive_pool_nd, METH_VARARGS, NULL},
    {"unfold", (PyCFunction)py_unfold, METH_VARARGS, NULL},
    {"fold", (PyCFunction)py_fold, METH_VARARGS, NULL},
    {"pixel_shuffle", (PyCFunction)py_pixel_shuffle, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

int init_conv_nd(PyObject* m) { return add_functions(m, conv_nd_functions); }
