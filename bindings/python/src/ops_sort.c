/* ops_sort.c - module functions for sorting and selection (sort, argsort, topk, kthvalue, unique), reordering
 * (flip, roll, tril, triu) and einsum. Positional arguments mirror the C ABI; ctensor/_functions.py gives them
 * PyTorch signatures and result types (namedtuples with .values/.indices). */
#include "ctmodule.h"

#define TENSOR_ARG conv_tensor, &

/* Wraps the handles into a tuple (NULL entries become None); releases all of them on failure. */
PyObject* tuple_of(ct_tensor* hs, int n) {
    PyObject* tuple = PyTuple_New(n);
    for (int i = 0; i < n; ++i) {
        if (!tuple) {
            ct_tensor_release(hs[i]);
            continue;
        }
        PyObject* t = wrap_tensor(hs[i]); /* None for NULL; releases hs[i] on failure */
        if (!t) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, t);
    }
    return tuple;
}

/* out is read through a pointer: it is filled by the call that computes st (argument order is unspecified). */
static PyObject* one_out(ct_status st, ct_tensor* out) {
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(*out);
}

/* sort(x, dim, descending, stable) -> (values, indices) */
static PyObject* py_sort(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_sort);
    ct_tensor x, hs[2] = {NULL, NULL};
    long long dim = -1;
    int descending = 0, stable = 0;
    if (!PyArg_ParseTuple(a, "O&|Lpp", TENSOR_ARG x, &dim, &descending, &stable)) return NULL;
    CT_TRY(ct_sort(x, dim, descending, stable, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}

static PyObject* py_argsort(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_argsort);
    ct_tensor x, out = NULL;
    long long dim = -1;
    int descending = 0, stable = 0;
    if (!PyArg_ParseTuple(a, "O&|Lpp", TENSOR_ARG x, &dim, &descending, &stable)) return NULL;
    return one_out(ct_argsort(x, dim, descending, stable, &out), &out);
}

/* topk(x, k, dim, largest, sorted) -> (values, indices) */
static PyObject* py_topk(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_topk);
    ct_tensor x, hs[2] = {NULL, NULL};
    long long k, dim = -1;
    int largest = 1, sorted = 1;
    if (!PyArg_ParseTuple(a, "O&L|Lpp", TENSOR_ARG x, &k, &dim, &largest, &sorted)) return NULL;
    CT_TRY(ct_topk(x, k, dim, largest, sorted, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}

/* kthvalue(x, k, dim, keepdim) -> (values, indices) */
static PyObject* py_kthvalue(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_kthvalue);
    ct_tensor x, hs[2] = {NULL, NULL};
    long long k, dim = -1;
    int keepdim = 0;
    if (!PyArg_ParseTuple(a, "O&L|Lp", TENSOR_ARG x, &k, &dim, &keepdim)) return NULL;
    CT_TRY(ct_kthvalue(x, k, dim, keepdim, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}

/* unique(x, sorted, return_inverse, return_counts) -> (values, inverse or None, counts or None) */
static PyObject* py_unique(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_unique);
    ct_tensor x, hs[3] = {NULL, NULL, NULL};
    int sorted = 1, inverse = 0, counts = 0;
    if (!PyArg_ParseTuple(a, "O&|ppp", TENSOR_ARG x, &sorted, &inverse, &counts)) return NULL;
    CT_TRY(ct_unique(x, sorted, &hs[0], inverse ? &hs[1] : NULL, counts ? &hs[2] : NULL));
    return tuple_of(hs, 3);
}

static PyObject* py_cumprod(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_cumprod);
    ct_tensor x, out = NULL;
    long long dim;
    if (!PyArg_ParseTuple(a, "O&L", TENSOR_ARG x, &dim)) return NULL;
    return one_out(ct_cumprod(x, dim, &out), &out);
}

/* flip(x, dims) */
static PyObject* py_flip(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_flip);
    ct_tensor x, out = NULL;
    PyObject* dims_obj;
    if (!PyArg_ParseTuple(a, "O&O", TENSOR_ARG x, &dims_obj)) return NULL;
    Dims d;
    if (dims_parse(dims_obj, &d, 0, "dims") < 0) return NULL;
    ct_status st = ct_flip(x, d.v, d.n, &out);
    dims_free(&d);
    return one_out(st, &out);
}

/* roll(x, shifts, dims_or_None) */
static PyObject* py_roll(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_roll);
    ct_tensor x, out = NULL;
    PyObject *shifts_obj, *dims_obj = Py_None;
    if (!PyArg_ParseTuple(a, "O&O|O", TENSOR_ARG x, &shifts_obj, &dims_obj)) return NULL;
    Dims s, d;
    if (dims_parse(shifts_obj, &s, 0, "shifts") < 0) return NULL;
    if (dims_parse(dims_obj, &d, 1, "dims") < 0) {
        dims_free(&s);
        return NULL;
    }
    ct_status st = ct_roll(x, s.v, s.n, d.is_none ? NULL : d.v, d.is_none ? 0 : d.n, &out);
    dims_free(&s);
    dims_free(&d);
    return one_out(st, &out);
}

static PyObject* call_triangle(ct_status (*fn)(ct_tensor, int64_t, ct_tensor*), const char* name, PyObject* a) {
    if (!fn) return raise_missing(name);
    ct_tensor x, out = NULL;
    long long diagonal = 0;
    if (!PyArg_ParseTuple(a, "O&|L", TENSOR_ARG x, &diagonal)) return NULL;
    return one_out(fn(x, diagonal, &out), &out);
}
static PyObject* py_tril(PyObject* m, PyObject* a) { return call_triangle(ct_tril, "ct_tril", a); }
static PyObject* py_triu(PyObject* m, PyObject* a) { return call_triangle(ct_triu, "ct_triu", a); }

/* einsum(equation, operands) */
static PyObject* py_einsum(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_einsum);
    const char* eq;
    PyObject* ops_obj;
    if (!PyArg_ParseTuple(a, "sO", &eq, &ops_obj)) return NULL;
    PyObject* seq = PySequence_Fast(ops_obj, "einsum: operands must be a sequence of Tensors");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    ct_tensor* hs = PyMem_Calloc((size_t)(n ? n : 1), sizeof(ct_tensor));
    if (!hs) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* it = PySequence_Fast_GET_ITEM(seq, i);
        if (!Tensor_Check(it)) {
            PyErr_Format(PyExc_TypeError, "einsum(): operand %zd must be a Tensor, not %.100s", i, Py_TYPE(it)->tp_name);
            PyMem_Free(hs);
            Py_DECREF(seq);
            return NULL;
        }
        hs[i] = TENSOR_H(it);
    }
    ct_tensor out = NULL;
    ct_status st = ct_einsum(eq, hs, (int32_t)n, &out);
    PyMem_Free(hs);
    Py_DECREF(seq);
    return one_out(st, &out);
}

#define ENTRY(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef sort_functions[] = {
    ENTRY(sort) ENTRY(argsort) ENTRY(topk) ENTRY(kthvalue) ENTRY(unique) ENTRY(cumprod) ENTRY(flip) ENTRY(roll)
    ENTRY(tril) ENTRY(triu) ENTRY(einsum)
    {NULL, NULL, 0, NULL}};

int init_sort_ops(PyObject* m) { return add_functions(m, sort_functions); }
