/* ops_more.c - module functions with irregular signatures: views with integer arguments, conversions,
 * indexing/joining, in-place ops, neural-network functions, creation and random numbers. */
#include "ctmodule.h"

/* Calls fn(args..., &out) and wraps out (NotImplementedError when fn is missing). */
#define RETURN_OUT(fn, ...)                            \
    do {                                               \
        if (!(fn)) return raise_missing(#fn);          \
        ct_tensor out = NULL;                          \
        ct_status st_ = fn(__VA_ARGS__, &out);         \
        if (st_ != CT_OK) return raise_status(st_);    \
        return wrap_tensor(out);                       \
    } while (0)
/* Calls fn(args...) and returns None. */
#define RETURN_NONE_AFTER(fn, ...)                     \
    do {                                               \
        if (!(fn)) return raise_missing(#fn);          \
        CT_TRY(fn(__VA_ARGS__));                       \
        Py_RETURN_NONE;                                \
    } while (0)
#define TENSOR_ARG conv_tensor, &

/* ---- views and conversions ----------------------------------------------------------------------- */

static PyObject* py_transpose(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long d0, d1;
    if (!PyArg_ParseTuple(a, "O&LL", TENSOR_ARG x, &d0, &d1)) return NULL;
    RETURN_OUT(ct_transpose, x, d0, d1);
}
static PyObject* py_flatten(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long s = 0, e = -1;
    if (!PyArg_ParseTuple(a, "O&|LL", TENSOR_ARG x, &s, &e)) return NULL;
    RETURN_OUT(ct_flatten, x, s, e);
}
static PyObject* py_narrow(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long dim, start, len;
    if (!PyArg_ParseTuple(a, "O&LLL", TENSOR_ARG x, &dim, &start, &len)) return NULL;
    RETURN_OUT(ct_narrow, x, dim, start, len);
}
static PyObject* py_slice(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long dim, start, end, step;
    if (!PyArg_ParseTuple(a, "O&LLLL", TENSOR_ARG x, &dim, &start, &end, &step)) return NULL;
    RETURN_OUT(ct_slice, x, dim, start, end, step);
}
static PyObject* py_select(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long dim, index;
    if (!PyArg_ParseTuple(a, "O&LL", TENSOR_ARG x, &dim, &index)) return NULL;
    RETURN_OUT(ct_select, x, dim, index);
}
static PyObject* py_diagonal(PyObject* m, PyObject* a) {
    ct_tensor x;
    long long offset = 0, dim1 = 0, dim2 = 1;
    if (!PyArg_ParseTuple(a, "O&|LLL", TENSOR_ARG x, &offset, &dim1, &dim2)) return NULL;
    RETURN_OUT(ct_diagonal, x, offset, dim1, dim2);
}
static PyObject* py_to_dtype(PyObject* m, PyObject* a) {
    ct_tensor x;
    int dtype;
    if (!PyArg_ParseTuple(a, "O&i", TENSOR_ARG x, &dtype)) return NULL;
    RETURN_OUT(ct_to_dtype, x, dtype);
}
static PyObject* py_to_device(PyObject* m, PyObject* a) {
    ct_tensor x;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "O&(ii)", TENSOR_ARG x, &dev.type, &dev.index)) return NULL;
    RETURN_OUT(ct_to_device, x, dev);
}
static PyObject* py_pow_scalar(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_pow_scalar);
    ct_tensor x;
    double e;
    if (!PyArg_ParseTuple(a, "O&d", TENSOR_ARG x, &e)) return NULL;
    RETURN_OUT(ct_pow_scalar, x, e);
}
/* clamp(x, min_or_None, max_or_None) */
static int parse_bounds(PyObject* lo, PyObject* hi, double* min, int* has_min, double* max, int* has_max) {
    *has_min = lo != Py_None;
    *has_max = hi != Py_None;
    *min = *has_min ? PyFloat_AsDouble(lo) : 0.0;
    *max = *has_max ? PyFloat_AsDouble(hi) : 0.0;
    return PyErr_Occurred() ? -1 : 0;
}
static PyObject* py_clamp(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_clamp);
    ct_tensor x;
    PyObject *lo = Py_None, *hi = Py_None;
    double mn, mx;
    int hmn, hmx;
    if (!PyArg_ParseTuple(a, "O&|OO", TENSOR_ARG x, &lo, &hi)) return NULL;
    if (parse_bounds(lo, hi, &mn, &hmn, &mx, &hmx) < 0) return NULL;
    RETURN_OUT(ct_clamp, x, mn, hmn, mx, hmx);
}

/* ---- indexing and joining ------------------------------------------------------------------------ */

static PyObject* py_where(PyObject* m, PyObject* args) {
    REQUIRE_SYM(ct_where);
    ct_tensor cond;
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "O&OO", TENSOR_ARG cond, &a, &b)) return NULL;
    TArg A = TARG_INIT, B = TARG_INIT;
    if (targ_require(a, &A, "input") < 0) return NULL;
    if (targ_require(b, &B, "other") < 0) {
        targ_release(&A);
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = ct_where(cond, A.h, B.h, &out);
    targ_release(&A);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_index_select(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_index_select);
    ct_tensor x, idx;
    long long dim;
    if (!PyArg_ParseTuple(a, "O&LO&", TENSOR_ARG x, &dim, TENSOR_ARG idx)) return NULL;
    RETURN_OUT(ct_index_select, x, dim, idx);
}
static PyObject* py_gather(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_gather);
    ct_tensor x, idx;
    long long dim;
    if (!PyArg_ParseTuple(a, "O&LO&", TENSOR_ARG x, &dim, TENSOR_ARG idx)) return NULL;
    RETURN_OUT(ct_gather, x, dim, idx);
}
static PyObject* py_scatter(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_scatter);
    ct_tensor x, idx, src;
    long long dim;
    if (!PyArg_ParseTuple(a, "O&LO&O&", TENSOR_ARG x, &dim, TENSOR_ARG idx, TENSOR_ARG src)) return NULL;
    RETURN_OUT(ct_scatter, x, dim, idx, src);
}
static PyObject* py_scatter_add(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_scatter_add);
    ct_tensor x, idx, src;
    long long dim;
    if (!PyArg_ParseTuple(a, "O&LO&O&", TENSOR_ARG x, &dim, TENSOR_ARG idx, TENSOR_ARG src)) return NULL;
    RETURN_OUT(ct_scatter_add, x, dim, idx, src);
}
static PyObject* py_masked_fill(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_masked_fill);
    ct_tensor x, mask;
    double v;
    if (!PyArg_ParseTuple(a, "O&O&d", TENSOR_ARG x, TENSOR_ARG mask, &v)) return NULL;
    RETURN_OUT(ct_masked_fill, x, mask, v);
}
static PyObject* py_masked_select(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_masked_select);
    ct_tensor x, mask;
    if (!PyArg_ParseTuple(a, "O&O&", TENSOR_ARG x, TENSOR_ARG mask)) return NULL;
    RETURN_OUT(ct_masked_select, x, mask);
}

/* Borrowed handles of a sequence of Tensors (declared in ctmodule.h). */
int tensor_seq(PyObject* seq_obj, ct_tensor** hs, Py_ssize_t* n, PyObject** keep) {
    PyObject* seq = PySequence_Fast(seq_obj, "expected a sequence of Tensors");
    if (!seq) return -1;
    *n = PySequence_Fast_GET_SIZE(seq);
    *hs = PyMem_Malloc(sizeof(ct_tensor) * (size_t)(*n ? *n : 1));
    if (!*hs) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; ++i) {
        PyObject* it = PySequence_Fast_GET_ITEM(seq, i);
        if (!Tensor_Check(it)) {
            PyErr_Format(PyExc_TypeError, "expected a sequence of Tensors, item %zd is %.100s", i,
                         Py_TYPE(it)->tp_name);
            PyMem_Free(*hs);
            Py_DECREF(seq);
            return -1;
        }
        (*hs)[i] = TENSOR_H(it);
    }
    *keep = seq;
    return 0;
}

static PyObject* call_join(ct_status (*fn)(const ct_tensor*, int32_t, int64_t, ct_tensor*), const char* name,
                           PyObject* args) {
    if (!fn) return raise_missing(name);
    PyObject* seq_obj;
    long long dim = 0;
    if (!PyArg_ParseTuple(args, "O|L", &seq_obj, &dim)) return NULL;
    ct_tensor* hs;
    Py_ssize_t n;
    PyObject* keep;
    if (tensor_seq(seq_obj, &hs, &n, &keep) < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(hs, (int32_t)n, dim, &out);
    PyMem_Free(hs);
    Py_DECREF(keep);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_cat(PyObject* m, PyObject* a) { return call_join(ct_cat, "ct_cat", a); }
static PyObject* py_stack(PyObject* m, PyObject* a) { return call_join(ct_stack, "ct_stack", a); }

static PyObject* call_split(ct_status (*fn)(ct_tensor, int64_t, int64_t, ct_tensor*, int32_t, int32_t*),
                            const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    long long size, dim = 0;
    if (!PyArg_ParseTuple(args, "O&L|L", TENSOR_ARG x, &size, &dim)) return NULL;
    int32_t n = 0;
    CT_TRY(fn(x, size, dim, NULL, 0, &n)); /* ask for the count first */
    ct_tensor* outs = PyMem_Calloc((size_t)(n ? n : 1), sizeof(ct_tensor));
    if (!outs) return PyErr_NoMemory();
    ct_status st = fn(x, size, dim, outs, n, &n);
    if (st != CT_OK) {
        PyMem_Free(outs);
        return raise_status(st);
    }
    PyObject* tuple = PyTuple_New(n);
    for (int32_t i = 0; i < n; ++i) {
        PyObject* t = tuple ? wrap_tensor(outs[i]) : NULL;
        if (!t) ct_tensor_release(outs[i]);
        else PyTuple_SET_ITEM(tuple, i, t);
        if (tuple && !t) Py_CLEAR(tuple);
    }
    PyMem_Free(outs);
    return tuple;
}
static PyObject* py_split(PyObject* m, PyObject* a) { return call_split(ct_split, "ct_split", a); }
static PyObject* py_chunk(PyObject* m, PyObject* a) { return call_split(ct_chunk, "ct_chunk", a); }

/* ---- in-place ops (return None; the Python layer returns self) ------------------------------------ */

static PyObject* call_inplace_alpha(ct_status (*fn)(ct_tensor, ct_tensor, double), const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor dst;
    PyObject* b;
    double alpha = 1.0;
    if (!PyArg_ParseTuple(args, "O&O|d", TENSOR_ARG dst, &b, &alpha)) return NULL;
    TArg B = TARG_INIT;
    if (targ_require(b, &B, "other") < 0) return NULL;
    ct_status st = fn(dst, B.h, alpha);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    Py_RETURN_NONE;
}
/* fn(dst, b) with b (a Tensor or a number, named `what` in errors) made a tensor for the call. */
static PyObject* inplace_with(ct_status (*fn)(ct_tensor, ct_tensor), ct_tensor dst, PyObject* b, const char* what) {
    TArg B = TARG_INIT;
    if (targ_require(b, &B, what) < 0) return NULL;
    ct_status st = fn(dst, B.h);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    Py_RETURN_NONE;
}
static PyObject* call_inplace(ct_status (*fn)(ct_tensor, ct_tensor), const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor dst;
    PyObject* b;
    if (!PyArg_ParseTuple(args, "O&O", TENSOR_ARG dst, &b)) return NULL;
    return inplace_with(fn, dst, b, "other");
}
static PyObject* py_add_(PyObject* m, PyObject* a) { return call_inplace_alpha(ct_add_, "ct_add_", a); }
static PyObject* py_sub_(PyObject* m, PyObject* a) { return call_inplace_alpha(ct_sub_, "ct_sub_", a); }
static PyObject* py_mul_(PyObject* m, PyObject* a) { return call_inplace(ct_mul_, "ct_mul_", a); }
static PyObject* py_div_(PyObject* m, PyObject* a) { return call_inplace(ct_div_, "ct_div_", a); }
static PyObject* py_copy_(PyObject* m, PyObject* a) { return call_inplace(ct_copy_, "ct_copy_", a); }
static PyObject* py_zero_(PyObject* m, PyObject* x) {
    if (!Tensor_Check(x)) return PyErr_Format(PyExc_TypeError, "expected a Tensor");
    RETURN_NONE_AFTER(ct_zero_, TENSOR_H(x));
}
/* fill_(x, value): Python ints go through an exact tensor (copy_) so int64 values beyond 2**53 stay exact. */
static PyObject* py_fill_(PyObject* m, PyObject* a) {
    ct_tensor x;
    PyObject* value;
    if (!PyArg_ParseTuple(a, "O&O", TENSOR_ARG x, &value)) return NULL;
    double big = PyLong_Check(value) && !PyBool_Check(value) ? PyLong_AsDouble(value) : 0.0;
    if (big == -1.0 && PyErr_Occurred()) return NULL;
    if (big > 9007199254740992.0 || big < -9007199254740992.0) return inplace_with(ct_copy_, x, value, "value");
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) return NULL;
    RETURN_NONE_AFTER(ct_fill_, x, v);
}
static PyObject* py_clamp_(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_clamp_);
    ct_tensor x;
    PyObject *lo = Py_None, *hi = Py_None;
    double mn, mx;
    int hmn, hmx;
    if (!PyArg_ParseTuple(a, "O&|OO", TENSOR_ARG x, &lo, &hi)) return NULL;
    if (parse_bounds(lo, hi, &mn, &hmn, &mx, &hmx) < 0) return NULL;
    RETURN_NONE_AFTER(ct_clamp_, x, mn, hmn, mx, hmx);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef more_functions[] = {
    E(transpose) E(flatten) E(narrow) E(slice) E(select) E(diagonal) E(to_dtype) E(to_device) E(pow_scalar) E(clamp)
    E(where) E(index_select) E(gather) E(scatter) E(scatter_add) E(masked_fill) E(masked_select) E(cat)
    E(stack) E(split) E(chunk) E(add_) E(sub_) E(mul_) E(div_) E(copy_) E(fill_) E(clamp_)
    {"zero_", (PyCFunction)py_zero_, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

int init_nn_creation(PyObject* m);
int init_sort_ops(PyObject* m);

int init_more_ops(PyObject* m) {
    if (add_functions(m, more_functions) < 0 || init_sort_ops(m) < 0 || init_toolbox(m) < 0) return -1;
    return init_nn_creation(m);
}
