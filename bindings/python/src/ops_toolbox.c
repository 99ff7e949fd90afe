/* ops_toolbox.c - module functions of the everyday tensor toolbox (issue 14): the in-place scatters,
 * index_add / index_copy / index_put and their in-place forms, searchsorted, bincount, histc, cummax, cummin,
 * nan_to_num, diff, take_along_dim, finfo and iinfo. */
#include "ctmodule.h"

#define TENSOR_ARG conv_tensor, &

/* fn(dst, dim, index, src [, alpha]) returning None, or fn(..., &out) returning the new tensor. */
static PyObject* call_slices(ct_status (*inplace)(ct_tensor, int64_t, ct_tensor, ct_tensor),
                             ct_status (*outplace)(ct_tensor, int64_t, ct_tensor, ct_tensor, ct_tensor*),
                             const char* name, PyObject* args) {
    if (!inplace && !outplace) return raise_missing(name);
    ct_tensor x, idx, src;
    long long dim;
    if (!PyArg_ParseTuple(args, "O&LO&O&", TENSOR_ARG x, &dim, TENSOR_ARG idx, TENSOR_ARG src)) return NULL;
    if (inplace) {
        CT_TRY(inplace(x, dim, idx, src));
        Py_RETURN_NONE;
    }
    ct_tensor out = NULL;
    CT_TRY(outplace(x, dim, idx, src, &out));
    return wrap_tensor(out);
}
static PyObject* py_scatter_(PyObject* m, PyObject* a) { return call_slices(ct_scatter_, NULL, "ct_scatter_", a); }
static PyObject* py_scatter_add_(PyObject* m, PyObject* a) {
    return call_slices(ct_scatter_add_, NULL, "ct_scatter_add_", a);
}
static PyObject* py_index_copy(PyObject* m, PyObject* a) { return call_slices(NULL, ct_index_copy, "ct_index_copy", a); }
static PyObject* py_index_copy_(PyObject* m, PyObject* a) {
    return call_slices(ct_index_copy_, NULL, "ct_index_copy_", a);
}

/* index_add(x, dim, index, src, alpha=1.0) and index_add_(...) (None). */
static PyObject* call_index_add(int in_place, PyObject* args) {
    if (in_place ? !ct_index_add_ : !ct_index_add) return raise_missing(in_place ? "ct_index_add_" : "ct_index_add");
    ct_tensor x, idx, src;
    long long dim;
    double alpha = 1.0;
    if (!PyArg_ParseTuple(args, "O&LO&O&|d", TENSOR_ARG x, &dim, TENSOR_ARG idx, TENSOR_ARG src, &alpha)) return NULL;
    if (in_place) {
        CT_TRY(ct_index_add_(x, dim, idx, src, alpha));
        Py_RETURN_NONE;
    }
    ct_tensor out = NULL;
    CT_TRY(ct_index_add(x, dim, idx, src, alpha, &out));
    return wrap_tensor(out);
}
static PyObject* py_index_add(PyObject* m, PyObject* a) { return call_index_add(0, a); }
static PyObject* py_index_add_(PyObject* m, PyObject* a) { return call_index_add(1, a); }

/* index_put(x, indices (a sequence of Tensors), values, accumulate=False) and index_put_(...) (None). */
static PyObject* call_index_put(int in_place, PyObject* args) {
    if (in_place ? !ct_index_put_ : !ct_index_put) return raise_missing(in_place ? "ct_index_put_" : "ct_index_put");
    ct_tensor x, values;
    PyObject *seq_obj, *keep;
    int accumulate = 0;
    if (!PyArg_ParseTuple(args, "O&OO&|p", TENSOR_ARG x, &seq_obj, TENSOR_ARG values, &accumulate)) return NULL;
    ct_tensor* hs;
    Py_ssize_t n;
    if (tensor_seq(seq_obj, &hs, &n, &keep) < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = in_place ? ct_index_put_(x, hs, (int32_t)n, values, accumulate)
                            : ct_index_put(x, hs, (int32_t)n, values, accumulate, &out);
    PyMem_Free(hs);
    Py_DECREF(keep);
    if (st != CT_OK) return raise_status(st);
    if (in_place) Py_RETURN_NONE;
    return wrap_tensor(out);
}
static PyObject* py_index_put(PyObject* m, PyObject* a) { return call_index_put(0, a); }
static PyObject* py_index_put_(PyObject* m, PyObject* a) { return call_index_put(1, a); }

/* ---- counting and searching ---- */

/* searchsorted(sorted_sequence, values, right, out_int32, sorter or None) */
static PyObject* py_searchsorted(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_searchsorted);
    ct_tensor seq, values, sorter = NULL, out = NULL;
    int right = 0, out_int32 = 0;
    if (!PyArg_ParseTuple(a, "O&O&|ppO&", TENSOR_ARG seq, TENSOR_ARG values, &right, &out_int32, conv_opt_tensor, &sorter))
        return NULL;
    CT_TRY(ct_searchsorted(seq, values, right, out_int32, sorter, &out));
    return wrap_tensor(out);
}
/* bincount(x, weights or None, minlength) */
static PyObject* py_bincount(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_bincount);
    ct_tensor x, weights = NULL, out = NULL;
    long long minlength = 0;
    if (!PyArg_ParseTuple(a, "O&|O&L", TENSOR_ARG x, conv_opt_tensor, &weights, &minlength)) return NULL;
    CT_TRY(ct_bincount(x, weights, minlength, &out));
    return wrap_tensor(out);
}
/* histc(x, bins, min, max) */
static PyObject* py_histc(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_histc);
    ct_tensor x, out = NULL;
    long long bins = 100;
    double lo = 0, hi = 0;
    if (!PyArg_ParseTuple(a, "O&|Ldd", TENSOR_ARG x, &bins, &lo, &hi)) return NULL;
    CT_TRY(ct_histc(x, bins, lo, hi, &out));
    return wrap_tensor(out);
}
/* cummax / cummin(x, dim) -> (values, indices) */
static PyObject* call_cum(ct_status (*fn)(ct_tensor, int64_t, ct_tensor*, ct_tensor*), const char* name, PyObject* a) {
    if (!fn) return raise_missing(name);
    ct_tensor x, hs[2] = {NULL, NULL};
    long long dim;
    if (!PyArg_ParseTuple(a, "O&L", TENSOR_ARG x, &dim)) return NULL;
    CT_TRY(fn(x, dim, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}
static PyObject* py_cummax(PyObject* m, PyObject* a) { return call_cum(ct_cummax, "ct_cummax", a); }
static PyObject* py_cummin(PyObject* m, PyObject* a) { return call_cum(ct_cummin, "ct_cummin", a); }

/* ---- composites and dtype limits ---- */

/* Reads an optional float (None: not given). */
static int opt_double(PyObject* o, double* v, int32_t* has) {
    *has = o != Py_None;
    *v = *has ? PyFloat_AsDouble(o) : 0.0;
    return PyErr_Occurred() ? -1 : 0;
}
/* nan_to_num(x, nan=None, posinf=None, neginf=None) */
static PyObject* py_nan_to_num(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_nan_to_num);
    ct_tensor x, out = NULL;
    PyObject *n = Py_None, *p = Py_None, *q = Py_None;
    double nv, pv, qv;
    int32_t hn, hp, hq;
    if (!PyArg_ParseTuple(a, "O&|OOO", TENSOR_ARG x, &n, &p, &q)) return NULL;
    if (opt_double(n, &nv, &hn) < 0 || opt_double(p, &pv, &hp) < 0 || opt_double(q, &qv, &hq) < 0) return NULL;
    CT_TRY(ct_nan_to_num(x, nv, hn, pv, hp, qv, hq, &out));
    return wrap_tensor(out);
}
/* diff(x, n, dim, prepend or None, append or None) */
static PyObject* py_diff(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_diff);
    ct_tensor x, pre = NULL, app = NULL, out = NULL;
    long long n = 1, dim = -1;
    if (!PyArg_ParseTuple(a, "O&|LLO&O&", TENSOR_ARG x, &n, &dim, conv_opt_tensor, &pre, conv_opt_tensor, &app)) return NULL;
    CT_TRY(ct_diff(x, n, dim, pre, app, &out));
    return wrap_tensor(out);
}
/* take_along_dim(x, indices, dim or None) */
static PyObject* py_take_along_dim(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_take_along_dim);
    ct_tensor x, idx, out = NULL;
    PyObject* dim = Py_None;
    if (!PyArg_ParseTuple(a, "O&O&|O", TENSOR_ARG x, TENSOR_ARG idx, &dim)) return NULL;
    long long d = dim == Py_None ? 0 : PyLong_AsLongLong(dim);
    if (PyErr_Occurred()) return NULL;
    CT_TRY(ct_take_along_dim(x, idx, d, dim != Py_None, &out));
    return wrap_tensor(out);
}
/* finfo(dtype_code, field) -> float; iinfo(dtype_code, field) -> int */
static PyObject* py_finfo(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_finfo);
    int dtype, field;
    double v = 0;
    if (!PyArg_ParseTuple(a, "ii", &dtype, &field)) return NULL;
    CT_TRY(ct_finfo(dtype, field, &v));
    return PyFloat_FromDouble(v);
}
static PyObject* py_iinfo(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_iinfo);
    int dtype, field;
    int64_t v = 0;
    if (!PyArg_ParseTuple(a, "ii", &dtype, &field)) return NULL;
    CT_TRY(ct_iinfo(dtype, field, &v));
    return PyLong_FromLongLong(v);
}

/* scatter_reduce(x, dim, index, src, reduce, include_self) -> new tensor; scatter_reduce_(...) -> None.
 * reduce is a CT_SCATTER_* code (ctensor/_toolbox_stats.py maps torch's names). */
static PyObject* call_scatter_reduce(int in_place, PyObject* args) {
    if (in_place ? !ct_scatter_reduce_ : !ct_scatter_reduce)
        return raise_missing(in_place ? "ct_scatter_reduce_" : "ct_scatter_reduce");
    ct_tensor x, idx, src;
    long long dim;
    int reduce, include_self;
    if (!PyArg_ParseTuple(args, "O&LO&O&ip", TENSOR_ARG x, &dim, TENSOR_ARG idx, TENSOR_ARG src, &reduce, &include_self))
        return NULL;
    if (in_place) {
        CT_TRY(ct_scatter_reduce_(x, dim, idx, src, reduce, include_self));
        Py_RETURN_NONE;
    }
    ct_tensor out = NULL;
    CT_TRY(ct_scatter_reduce(x, dim, idx, src, reduce, include_self, &out));
    return wrap_tensor(out);
}
static PyObject* py_scatter_reduce(PyObject* m, PyObject* a) { return call_scatter_reduce(0, a); }
static PyObject* py_scatter_reduce_(PyObject* m, PyObject* a) { return call_scatter_reduce(1, a); }

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef toolbox_functions[] = {
    E(scatter_) E(scatter_add_) E(index_add) E(index_add_) E(index_copy) E(index_copy_) E(index_put) E(index_put_)
    E(searchsorted) E(bincount) E(histc) E(cummax) E(cummin) E(nan_to_num) E(diff) E(take_along_dim) E(finfo) E(iinfo)
    E(scatter_reduce) E(scatter_reduce_)
    {NULL, NULL, 0, NULL}};

int init_toolbox(PyObject* m) {
    if (add_functions(m, toolbox_functions) < 0 || init_toolbox_stats(m) < 0 || init_complex(m) < 0 ||
        init_binary_math(m) < 0 || init_promotion(m) < 0 || init_more_reduce(m) < 0)
        return -1;
    static const struct {
        const char* name;
        int value;
    } consts[] = {{"CT_FINFO_BITS", CT_FINFO_BITS}, {"CT_FINFO_EPS", CT_FINFO_EPS}, {"CT_FINFO_MAX", CT_FINFO_MAX},
                  {"CT_FINFO_MIN", CT_FINFO_MIN}, {"CT_FINFO_TINY", CT_FINFO_TINY},
                  {"CT_FINFO_RESOLUTION", CT_FINFO_RESOLUTION}, {"CT_IINFO_BITS", CT_IINFO_BITS},
                  {"CT_IINFO_MIN", CT_IINFO_MIN}, {"CT_IINFO_MAX", CT_IINFO_MAX}};
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; ++i)
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0) return -1;
    return 0;
}
