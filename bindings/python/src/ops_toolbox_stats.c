/* ops_toolbox_stats.c - module functions of the rest of the toolbox (issue 14): repeat_interleave, meshgrid,
 * median / nanmedian (all elements or along a dim), quantile / nanquantile and cdist. Arguments arrive already
 * adapted by ctensor/_toolbox_stats.py; this file only calls the C ABI. */
#include "ctmodule.h"

#define TENSOR_ARG conv_tensor, &

/* An optional int (None: not given). */
static int opt_int(PyObject* o, long long* v, int32_t* has) {
    *has = o != Py_None;
    *v = *has ? PyLong_AsLongLong(o) : 0;
    return PyErr_Occurred() ? -1 : 0;
}

/* repeat_interleave(x, repeats (Tensor or None), repeats_int, dim or None, output_size or None) */
static PyObject* py_repeat_interleave(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_repeat_interleave);
    ct_tensor x, reps = NULL, out = NULL;
    long long r = 0, dim, osize;
    PyObject *dim_o = Py_None, *osize_o = Py_None;
    int32_t has_dim, has_osize;
    if (!PyArg_ParseTuple(a, "O&O&L|OO", TENSOR_ARG x, conv_opt_tensor, &reps, &r, &dim_o, &osize_o)) return NULL;
    if (opt_int(dim_o, &dim, &has_dim) < 0 || opt_int(osize_o, &osize, &has_osize) < 0) return NULL;
    CT_TRY(ct_repeat_interleave(x, reps, r, dim, has_dim, osize, has_osize, &out));
    return wrap_tensor(out);
}

/* meshgrid(sequence of Tensors, xy) -> tuple */
static PyObject* py_meshgrid(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_meshgrid);
    PyObject *seq_obj, *keep;
    int xy = 0;
    if (!PyArg_ParseTuple(a, "Op", &seq_obj, &xy)) return NULL;
    ct_tensor* hs;
    Py_ssize_t n;
    if (tensor_seq(seq_obj, &hs, &n, &keep) < 0) return NULL;
    ct_tensor* outs = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(ct_tensor));
    if (!outs) {
        PyMem_Free(hs);
        Py_DECREF(keep);
        return PyErr_NoMemory();
    }
    ct_status st = ct_meshgrid(hs, (int32_t)n, xy ? CT_MESHGRID_XY : CT_MESHGRID_IJ, outs, (int32_t)n);
    PyMem_Free(hs);
    Py_DECREF(keep);
    PyObject* r = st == CT_OK ? tuple_of(outs, (int)n) : raise_status(st);
    PyMem_Free(outs);
    return r;
}

/* median(x, nan) -> Tensor; median_dim(x, dim, keepdim, nan) -> (values, indices) */
static PyObject* py_median(PyObject* m, PyObject* a) {
    ct_tensor x, out = NULL;
    int nan = 0;
    if (!PyArg_ParseTuple(a, "O&p", TENSOR_ARG x, &nan)) return NULL;
    if (nan ? !ct_nanmedian : !ct_median) return raise_missing(nan ? "ct_nanmedian" : "ct_median");
    CT_TRY((nan ? ct_nanmedian : ct_median)(x, &out));
    return wrap_tensor(out);
}
static PyObject* py_median_dim(PyObject* m, PyObject* a) {
    ct_tensor x, hs[2] = {NULL, NULL};
    long long dim;
    int keepdim = 0, nan = 0;
    if (!PyArg_ParseTuple(a, "O&Lpp", TENSOR_ARG x, &dim, &keepdim, &nan)) return NULL;
    if (nan ? !ct_nanmedian_dim : !ct_median_dim) return raise_missing(nan ? "ct_nanmedian_dim" : "ct_median_dim");
    CT_TRY((nan ? ct_nanmedian_dim : ct_median_dim)(x, dim, keepdim, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}

/* quantile(x, q (Tensor or None), q_float, dim or None, keepdim, interpolation code, nan) */
static PyObject* py_quantile(PyObject* m, PyObject* a) {
    ct_tensor x, q = NULL, out = NULL;
    double qs = 0;
    PyObject* dim_o = Py_None;
    long long dim;
    int32_t has_dim;
    int keepdim = 0, mode = 0, nan = 0;
    if (!PyArg_ParseTuple(a, "O&O&dOpip", TENSOR_ARG x, conv_opt_tensor, &q, &qs, &dim_o, &keepdim, &mode, &nan))
        return NULL;
    if (nan ? !ct_nanquantile : !ct_quantile) return raise_missing(nan ? "ct_nanquantile" : "ct_quantile");
    if (opt_int(dim_o, &dim, &has_dim) < 0) return NULL;
    CT_TRY((nan ? ct_nanquantile : ct_quantile)(x, q, qs, dim, has_dim, keepdim, mode, &out));
    return wrap_tensor(out);
}

/* cdist(x1, x2, p, compute_mode code) */
static PyObject* py_cdist(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_cdist);
    ct_tensor x1, x2, out = NULL;
    double p = 2;
    int mode = 0;
    if (!PyArg_ParseTuple(a, "O&O&di", TENSOR_ARG x1, TENSOR_ARG x2, &p, &mode)) return NULL;
    CT_TRY(ct_cdist(x1, x2, p, mode, &out));
    return wrap_tensor(out);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef toolbox_stats_functions[] = {
    E(repeat_interleave) E(meshgrid) E(median) E(median_dim) E(quantile) E(cdist) {NULL, NULL, 0, NULL}};

int init_toolbox_stats(PyObject* m) { return add_functions(m, toolbox_stats_functions); }
