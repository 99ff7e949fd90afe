/* number.c - operators of TensorBase in C (number protocol and rich comparison): `a + b` reaches ct_add
 * without Python-level dispatch; Python scalars become wrapped scalars; NumPy operands go through a hook. */
#include "ctmodule.h"

typedef ct_status (*binop_fn)(ct_tensor, ct_tensor, ct_tensor*);

/* Runs fn on two operands; NotImplemented when an operand is not convertible. */
static PyObject* binary(PyObject* a, PyObject* b, binop_fn fn, const char* name) {
    TArg A = TARG_INIT, B = TARG_INIT;
    int r = targ_convert(a, &A);
    if (r <= 0) {
        if (r == 0) Py_RETURN_NOTIMPLEMENTED;
        return NULL;
    }
    r = targ_convert(b, &B);
    if (r <= 0) {
        targ_release(&A);
        if (r == 0) Py_RETURN_NOTIMPLEMENTED;
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = run_binary_op(fn, A.h, B.h, &out);
    targ_release(&A);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

static ct_status add1(ct_tensor a, ct_tensor b, ct_tensor* out) { return ct_add(a, b, 1.0, out); }
static ct_status sub1(ct_tensor a, ct_tensor b, ct_tensor* out) { return ct_sub(a, b, 1.0, out); }

static int is_floating(ct_tensor h) {
    ct_dtype d = -1;
    ct_tensor_dtype(h, &d);
    return CT_DTYPE_IS_FLOATING(d);
}

static ct_status power(ct_tensor a, ct_tensor b, ct_tensor* out) { return ct_pow(a, b, out); }

#define BINARY_SLOT(slot, fn)                                                                    \
    static PyObject* slot(PyObject* a, PyObject* b) {                                            \
        if (!(fn)) return raise_missing(#fn);                                                    \
        return binary(a, b, fn, #fn);                                                            \
    }
#define BINARY_SLOT_ALWAYS(slot, fn) \
    static PyObject* slot(PyObject* a, PyObject* b) { return binary(a, b, fn, #fn); }
BINARY_SLOT_ALWAYS(nb_add, add1)
BINARY_SLOT_ALWAYS(nb_sub, sub1)
BINARY_SLOT(nb_mul, ct_mul)
BINARY_SLOT(nb_truediv, ct_div)
BINARY_SLOT(nb_floordiv, ct_floor_divide)
BINARY_SLOT(nb_remainder, ct_remainder)
BINARY_SLOT(nb_matmul, ct_matmul)

/* x ** y: ct_pow_scalar for a floating tensor and a Python number, ct_pow otherwise. */
static PyObject* nb_pow(PyObject* a, PyObject* b, PyObject* mod) {
    if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
    if (ct_pow_scalar && Tensor_Check(a) && (PyFloat_Check(b) || PyLong_Check(b)) && !PyBool_Check(b) &&
        is_floating(TENSOR_H(a))) {
        double e = PyFloat_AsDouble(b);
        if (e == -1.0 && PyErr_Occurred()) return NULL;
        ct_tensor out = NULL;
        CT_TRY(ct_pow_scalar(TENSOR_H(a), e, &out));
        return wrap_tensor(out);
    }
    REQUIRE_SYM(ct_pow);
    return binary(a, b, power, "pow");
}

/* &, |, ^, <<, >> (bitwise; on bool tensors &, |, ^ are the logical ops): ct_bitwise_*, which refuse floats. */
BINARY_SLOT(nb_and, ct_bitwise_and)
BINARY_SLOT(nb_or, ct_bitwise_or)
BINARY_SLOT(nb_xor, ct_bitwise_xor)
BINARY_SLOT(nb_lshift, ct_bitwise_left_shift)
BINARY_SLOT(nb_rshift, ct_bitwise_right_shift)

/* ---- in-place operators -------------------------------------------------------------------------- */

typedef ct_status (*inplace_fn)(ct_tensor dst, ct_tensor b);
static ct_status iadd(ct_tensor d, ct_tensor b) { return ct_add_(d, b, 1.0); }
static ct_status isub(ct_tensor d, ct_tensor b) { return ct_sub_(d, b, 1.0); }

static PyObject* inplace(PyObject* self, PyObject* other, inplace_fn fn) {
    TArg B = TARG_INIT;
    int r = targ_convert(other, &B);
    if (r <= 0) {
        if (r == 0) Py_RETURN_NOTIMPLEMENTED;
        return NULL;
    }
    ct_status st = fn(TENSOR_H(self), B.h);
    targ_release(&B);
    if (st != CT_OK) return raise_status(st);
    return Py_NewRef(self);
}

/* In-place version of an out-of-place slot: computes, then copies into self (keeping self's dtype). */
static PyObject* inplace_via_copy(PyObject* self, PyObject* result) {
    if (!result || result == Py_NotImplemented) return result;
    if (!ct_copy_) {
        Py_DECREF(result);
        return raise_missing("ct_copy_");
    }
    ct_status st = ct_copy_(TENSOR_H(self), TENSOR_H(result));
    Py_DECREF(result);
    if (st != CT_OK) return raise_status(st);
    return Py_NewRef(self);
}

#define INPLACE_SLOT(slot, sym, fn)                                \
    static PyObject* slot(PyObject* a, PyObject* b) {              \
        if (!(sym)) return raise_missing(#sym);                    \
        return inplace(a, b, fn);                                  \
    }
INPLACE_SLOT(nb_iadd, ct_add_, iadd)
INPLACE_SLOT(nb_isub, ct_sub_, isub)
INPLACE_SLOT(nb_imul, ct_mul_, ct_mul_)
INPLACE_SLOT(nb_itruediv, ct_div_, ct_div_)
static PyObject* nb_ifloordiv(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_floordiv(a, b)); }
static PyObject* nb_iremainder(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_remainder(a, b)); }
static PyObject* nb_ipow(PyObject* a, PyObject* b, PyObject* m) { return inplace_via_copy(a, nb_pow(a, b, m)); }
static PyObject* nb_iand(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_and(a, b)); }
static PyObject* nb_ior(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_or(a, b)); }
static PyObject* nb_ixor(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_xor(a, b)); }
static PyObject* nb_ilshift(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_lshift(a, b)); }
static PyObject* nb_irshift(PyObject* a, PyObject* b) { return inplace_via_copy(a, nb_rshift(a, b)); }

/* ---- unary operators and conversions ------------------------------------------------------------- */

static PyObject* unary(PyObject* a, ct_status (*fn)(ct_tensor, ct_tensor*)) {
    ct_tensor out = NULL;
    CT_TRY(fn(TENSOR_H(a), &out));
    return wrap_tensor(out);
}
static PyObject* nb_neg(PyObject* a) {
    REQUIRE_SYM(ct_neg);
    return unary(a, ct_neg);
}
static PyObject* nb_abs(PyObject* a) {
    REQUIRE_SYM(ct_abs);
    return unary(a, ct_abs);
}
static PyObject* nb_pos(PyObject* a) { return Py_NewRef(a); }
static PyObject* nb_invert(PyObject* a) {  /* ~x: bitwise not (logical not of a bool tensor) */
    REQUIRE_SYM(ct_bitwise_not);
    return unary(a, ct_bitwise_not);
}

/* The value of a one-element tensor; RuntimeError (like PyTorch) otherwise. */
static int single_value(PyObject* a, const char* what, double* v, int64_t* iv, ct_dtype* d) {
    int64_t n;
    ct_status st = ct_tensor_numel(TENSOR_H(a), &n);
    if (st != CT_OK) return raise_status_int(st);
    if (n != 1) {
        PyErr_Format(PyExc_RuntimeError, "%s value of Tensor with %lld values is ambiguous", what, (long long)n);
        return -1;
    }
    st = ct_tensor_dtype(TENSOR_H(a), d);
    if (st == CT_OK) st = ct_tensor_item(TENSOR_H(a), v);
    if (st == CT_OK && !CT_DTYPE_IS_FLOATING(*d)) st = ct_tensor_item_int64(TENSOR_H(a), iv);
    return st == CT_OK ? 0 : raise_status_int(st);
}

static int nb_bool(PyObject* a) {
    double v;
    int64_t iv = 0;
    ct_dtype d;
    if (single_value(a, "Boolean", &v, &iv, &d) < 0) return -1;
    return v != 0.0;
}
static PyObject* nb_float(PyObject* a) {
    double v;
    int64_t iv = 0;
    ct_dtype d;
    if (single_value(a, "Float", &v, &iv, &d) < 0) return NULL;
    return PyFloat_FromDouble(v);
}
static PyObject* nb_int(PyObject* a) {
    double v;
    int64_t iv = 0;
    ct_dtype d;
    if (single_value(a, "Integer", &v, &iv, &d) < 0) return NULL;
    if (CT_DTYPE_IS_FLOATING(d)) return PyLong_FromDouble(v);
    return PyLong_FromLongLong(iv);
}
static PyObject* nb_index(PyObject* a) {
    ct_dtype d;
    CT_TRY(ct_tensor_dtype(TENSOR_H(a), &d));
    if (CT_DTYPE_IS_FLOATING(d) || d == CT_BOOL)
        return PyErr_Format(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
    return nb_int(a);
}

PyNumberMethods tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_remainder = nb_remainder,
    .nb_power = nb_pow,
    .nb_negative = nb_neg,
    .nb_positive = nb_pos,
    .nb_absolute = nb_abs,
    .nb_bool = nb_bool,
    .nb_invert = nb_invert,
    .nb_and = nb_and,
    .nb_xor = nb_xor,
    .nb_or = nb_or,
    .nb_lshift = nb_lshift,
    .nb_rshift = nb_rshift,
    .nb_inplace_lshift = nb_ilshift,
    .nb_inplace_rshift = nb_irshift,
    .nb_int = nb_int,
    .nb_float = nb_float,
    .nb_inplace_add = nb_iadd,
    .nb_inplace_subtract = nb_isub,
    .nb_inplace_multiply = nb_imul,
    .nb_inplace_remainder = nb_iremainder,
    .nb_inplace_power = nb_ipow,
    .nb_inplace_and = nb_iand,
    .nb_inplace_xor = nb_ixor,
    .nb_inplace_or = nb_ior,
    .nb_floor_divide = nb_floordiv,
    .nb_true_divide = nb_truediv,
    .nb_inplace_floor_divide = nb_ifloordiv,
    .nb_inplace_true_divide = nb_itruediv,
    .nb_index = nb_index,
    .nb_matrix_multiply = nb_matmul,
};

PyObject* tensor_richcompare(PyObject* a, PyObject* b, int op) {
    binop_fn fn;
    switch (op) {
        case Py_EQ: fn = ct_eq; break;
        case Py_NE: fn = ct_ne; break;
        case Py_LT: fn = ct_lt; break;
        case Py_LE: fn = ct_le; break;
        case Py_GT: fn = ct_gt; break;
        default: fn = ct_ge; break;
    }
    if (!fn) return raise_missing("comparison");
    if (b == Py_None) Py_RETURN_NOTIMPLEMENTED;
    return binary(a, b, fn, "compare");
}
