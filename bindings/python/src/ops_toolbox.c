/* ops_toolbox.c - module functions of the everyday tensor toolbox (issue 14): the in-place scatters,
 * index_add / index_copy / index_put and their in-place forms, searchsorted, bincount, histc, cummax, cummin. */
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

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef toolbox_functions[] = {
    E(scatter_) E(scatter_add_) E(index_add) E(index_add_) E(index_copy) E(index_copy_) E(index_put) E(index_put_)
    E(searchsorted) E(bincount) E(histc) E(cummax) E(cummin)
    {NULL, NULL, 0, NULL}};

int init_toolbox(PyObject* m) { return add_functions(m, toolbox_functions); }
