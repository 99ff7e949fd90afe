/* ops.c - module functions for the regular op signatures, generated from X-macro tables: unary, binary,
 * reductions over a dim list, single-dim ops and shape ops. Arguments are positional and mirror the C ABI;
 * ctensor/_tensor.py gives them PyTorch signatures. A symbol missing from the library raises NotImplementedError. */
#include "ctmodule.h"

#define UNARY_OPS(X)                                                                                       \
    X(neg) X(abs) X(sign) X(exp) X(log) X(log1p) X(expm1) X(sqrt) X(rsqrt) X(sin) X(cos) X(tan) X(tanh)    \
    X(sigmoid) X(relu) X(gelu) X(silu) X(softplus) X(floor) X(ceil) X(round) X(reciprocal) X(logical_not) \
    X(contiguous) X(clone) X(detach) X(squeeze_all) X(t) X(max) X(min) X(argmax_all) X(argmin_all)         \
    X(nonzero) X(empty_like) X(zeros_like) X(ones_like) X(hardsigmoid) X(hardswish) X(mish) X(log_sigmoid)   \
    X(softsign) X(tanhshrink) X(bitwise_not)

/* unary math (issue 14) */
#define UNARY_MATH_OPS(X)                                                                                   \
    X(asin) X(acos) X(atan) X(sinh) X(cosh) X(asinh) X(acosh) X(atanh) X(erf) X(erfc) X(erfinv) X(lgamma)    \
    X(digamma) X(sinc) X(sgn) X(deg2rad) X(rad2deg) X(signbit) X(isposinf) X(isneginf) X(positive) X(i0)

#define BINARY_OPS(X)                                                                                      \
    X(mul) X(div) X(pow) X(maximum) X(minimum) X(atan2) X(remainder) X(floor_divide) X(eq) X(ne) X(lt) X(le) X(gt) X(ge)  \
    X(logical_and) X(logical_or) X(logical_xor) X(matmul) X(dot) X(outer) X(prelu)                         \
    X(logaddexp) X(logaddexp2) X(hypot) X(xlogy) X(copysign) X(fmax) X(fmin) X(heaviside) X(nextafter)      \
    X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(bitwise_left_shift) X(bitwise_right_shift) X(gcd) X(lcm)     \
    X(kron) X(inner)

#define REDUCE_OPS(X) X(sum) X(mean) X(prod) X(logsumexp) X(all) X(any)
#define DIM_OPS(X) X(cumsum) X(softmax) X(log_softmax) X(squeeze) X(unsqueeze) X(softmin) X(glu) X(logcumsumexp)
#define SHAPE_OPS(X) X(reshape) X(view) X(permute) X(expand)

typedef ct_status (*unary_fn)(ct_tensor, ct_tensor*);
typedef ct_status (*binary_fn)(ct_tensor, ct_tensor, ct_tensor*);
typedef ct_status (*reduce_fn)(ct_tensor, const int64_t*, int32_t, int32_t, ct_tensor*);
typedef ct_status (*dim_fn)(ct_tensor, int64_t, ct_tensor*);
typedef ct_status (*shape_fn)(ct_tensor, const int64_t*, int32_t, ct_tensor*);

static PyObject* call_unary(unary_fn fn, const char* name, PyObject* x) {
    if (!fn) return raise_missing(name);
    if (!Tensor_Check(x)) return PyErr_Format(PyExc_TypeError, "%s: expected a Tensor, got %.100s", name + 3,
                                              Py_TYPE(x)->tp_name);
    ct_tensor out = NULL;
    CT_TRY(fn(TENSOR_H(x), &out));
    return wrap_tensor(out);
}

static PyObject* call_binary(binary_fn fn, const char* name, PyObject* const* args, Py_ssize_t n) {
    if (!fn) return raise_missing(name);
    if (n != 2) return PyErr_Format(PyExc_TypeError, "%s expects 2 arguments, got %zd", name + 3, n);
    TArg A = TARG_INIT, B = TARG_INIT;
    if (targ_require(args[0], &A, "input") < 0) return NULL;
    if (targ_require(args[1], &B, "other") < 0) {
        targ_release(&A);
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = run_binary_op(fn, A.h, B.h, &out);
    targ_release(&A);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* name(x, dims=None, keepdim=False) */
static PyObject* call_reduce(reduce_fn fn, const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    PyObject* dims_obj = Py_None;
    int keepdim = 0;
    if (!PyArg_ParseTuple(args, "O&|Op", conv_tensor, &x, &dims_obj, &keepdim)) return NULL;
    Dims d;
    if (dims_parse(dims_obj, &d, 1, "dim") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(x, d.is_none ? NULL : d.v, d.n, keepdim, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* name(x, dim) */
static PyObject* call_dim(dim_fn fn, const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    long long dim;
    if (!PyArg_ParseTuple(args, "O&L", conv_tensor, &x, &dim)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(fn(x, (int64_t)dim, &out));
    return wrap_tensor(out);
}

/* name(x, shape) with shape an int or a sequence of ints */
static PyObject* call_shape(shape_fn fn, const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    PyObject* shape_obj;
    if (!PyArg_ParseTuple(args, "O&O", conv_tensor, &x, &shape_obj)) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "shape") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(x, d.v, d.n, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

#define DEF_UNARY(name) \
    static PyObject* py_##name(PyObject* m, PyObject* x) { return call_unary(ct_##name, "ct_" #name, x); }
#define DEF_BINARY(name)                                                           \
    static PyObject* py_##name(PyObject* m, PyObject* const* args, Py_ssize_t n) { \
        return call_binary(ct_##name, "ct_" #name, args, n);                       \
    }
#define DEF_REDUCE(name) \
    static PyObject* py_##name(PyObject* m, PyObject* a) { return call_reduce(ct_##name, "ct_" #name, a); }
#define DEF_DIM(name) \
    static PyObject* py_##name(PyObject* m, PyObject* a) { return call_dim(ct_##name, "ct_" #name, a); }
#define DEF_SHAPE(name) \
    static PyObject* py_##name(PyObject* m, PyObject* a) { return call_shape(ct_##name, "ct_" #name, a); }
UNARY_OPS(DEF_UNARY)
UNARY_MATH_OPS(DEF_UNARY)
BINARY_OPS(DEF_BINARY)
REDUCE_OPS(DEF_REDUCE)
DIM_OPS(DEF_DIM)
SHAPE_OPS(DEF_SHAPE)

/* add(a, b, alpha=1) and sub(a, b, alpha=1) */
static PyObject* call_alpha(ct_status (*fn)(ct_tensor, ct_tensor, double, ct_tensor*), PyObject* args) {
    PyObject *a, *b;
    double alpha = 1.0;
    if (!PyArg_ParseTuple(args, "OO|d", &a, &b, &alpha)) return NULL;
    TArg A = TARG_INIT, B = TARG_INIT;
    if (targ_require(a, &A, "input") < 0) return NULL;
    if (targ_require(b, &B, "other") < 0) {
        targ_release(&A);
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = fn(A.h, B.h, alpha, &out);
    targ_release(&A);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_add(PyObject* m, PyObject* a) { return call_alpha(ct_add, a); }
static PyObject* py_sub(PyObject* m, PyObject* a) { return call_alpha(ct_sub, a); }

/* var/std(x, dims, correction, keepdim) */
static PyObject* call_var(ct_status (*fn)(ct_tensor, const int64_t*, int32_t, double, int32_t, ct_tensor*),
                          const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    PyObject* dims_obj = Py_None;
    double correction = 1.0;
    int keepdim = 0;
    if (!PyArg_ParseTuple(args, "O&|Odp", conv_tensor, &x, &dims_obj, &correction, &keepdim)) return NULL;
    Dims d;
    if (dims_parse(dims_obj, &d, 1, "dim") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(x, d.is_none ? NULL : d.v, d.n, correction, keepdim, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_var(PyObject* m, PyObject* a) { return call_var(ct_var, "ct_var", a); }
static PyObject* py_std(PyObject* m, PyObject* a) { return call_var(ct_std, "ct_std", a); }

/* norm(x, p, dims, keepdim) */
static PyObject* py_norm(PyObject* m, PyObject* args) {
    REQUIRE_SYM(ct_norm);
    ct_tensor x;
    double p = 2.0;
    PyObject* dims_obj = Py_None;
    int keepdim = 0;
    if (!PyArg_ParseTuple(args, "O&|dOp", conv_tensor, &x, &p, &dims_obj, &keepdim)) return NULL;
    Dims d;
    if (dims_parse(dims_obj, &d, 1, "dim") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = ct_norm(x, p, d.is_none ? NULL : d.v, d.n, keepdim, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* argmax/argmin(x, dim, keepdim) */
static PyObject* call_arg(ct_status (*fn)(ct_tensor, int64_t, int32_t, ct_tensor*), const char* name,
                          PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    long long dim;
    int keepdim = 0;
    if (!PyArg_ParseTuple(args, "O&L|p", conv_tensor, &x, &dim, &keepdim)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(fn(x, (int64_t)dim, keepdim, &out));
    return wrap_tensor(out);
}
static PyObject* py_argmax(PyObject* m, PyObject* a) { return call_arg(ct_argmax, "ct_argmax", a); }
static PyObject* py_argmin(PyObject* m, PyObject* a) { return call_arg(ct_argmin, "ct_argmin", a); }

/* max_dim/min_dim(x, dim, keepdim) -> (values, indices) */
static PyObject* call_minmax_dim(ct_status (*fn)(ct_tensor, int64_t, int32_t, ct_tensor*, ct_tensor*),
                                 const char* name, PyObject* args) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    long long dim;
    int keepdim = 0;
    if (!PyArg_ParseTuple(args, "O&L|p", conv_tensor, &x, &dim, &keepdim)) return NULL;
    ct_tensor values = NULL, indices = NULL;
    CT_TRY(fn(x, (int64_t)dim, keepdim, &values, &indices));
    PyObject* v = wrap_tensor(values);
    PyObject* i = wrap_tensor(indices);
    if (!v || !i) {
        Py_XDECREF(v);
        Py_XDECREF(i);
        return NULL;
    }
    return Py_BuildValue("(NN)", v, i);
}
/* logit(x, eps) with eps < 0 meaning None (ctensor/_unary_math.py maps None) */
static PyObject* py_logit(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_logit);
    PyObject* x;
    double eps = -1.0;
    if (!PyArg_ParseTuple(a, "O|d", &x, &eps)) return NULL;
    if (!Tensor_Check(x)) return PyErr_Format(PyExc_TypeError, "logit: expected a Tensor, got %.100s", Py_TYPE(x)->tp_name);
    ct_tensor out = NULL;
    CT_TRY(ct_logit(TENSOR_H(x), eps, &out));
    return wrap_tensor(out);
}
static PyObject* py_max_dim(PyObject* m, PyObject* a) { return call_minmax_dim(ct_max_dim, "ct_max_dim", a); }
static PyObject* py_min_dim(PyObject* m, PyObject* a) { return call_minmax_dim(ct_min_dim, "ct_min_dim", a); }

#define ENTRY_O(name) {#name, (PyCFunction)py_##name, METH_O, NULL},
#define ENTRY_FAST(name) {#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL, NULL},
#define ENTRY_VA(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},

static PyMethodDef op_functions[] = {
    UNARY_OPS(ENTRY_O) BINARY_OPS(ENTRY_FAST) REDUCE_OPS(ENTRY_VA) DIM_OPS(ENTRY_VA) SHAPE_OPS(ENTRY_VA)
    ENTRY_VA(add) ENTRY_VA(sub) ENTRY_VA(var) ENTRY_VA(std) ENTRY_VA(norm) ENTRY_VA(argmax) ENTRY_VA(argmin)
    ENTRY_VA(max_dim) ENTRY_VA(min_dim)
    UNARY_MATH_OPS(ENTRY_O) ENTRY_VA(logit)
    {NULL, NULL, 0, NULL}};

int init_more_ops(PyObject* m);

int init_ops(PyObject* m) {
    if (add_functions(m, op_functions) < 0) return -1;
    return init_more_ops(m);
}
