/* complex.c - module functions of the complex64 / complex128 ops (issue 15): complex, real, imag, view_as_real,
 * view_as_complex, conj, angle, polar and full_complex. Arguments arrive adapted by ctensor/_complex.py; this
 * file only calls the C ABI. */
#include "ctmodule.h"

#define TENSOR_ARG conv_tensor, &

/* X-macro tables (X(op) names the op for the binding's coverage count, tests/conformance/pass_table.py) */
#define X(name)                                                              \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                   \
        REQUIRE_SYM(ct_##name);                                              \
        ct_tensor x, out = NULL;                                             \
        if (!PyArg_ParseTuple(a, "O&", TENSOR_ARG x)) return NULL;           \
        CT_TRY(ct_##name(x, &out));                                          \
        return wrap_tensor(out);                                             \
    }
X(real) X(imag) X(view_as_real) X(view_as_complex) X(conj) X(angle)
#undef X
#define X(name)                                                              \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                   \
        REQUIRE_SYM(ct_##name);                                              \
        ct_tensor x, y, out = NULL;                                          \
        if (!PyArg_ParseTuple(a, "O&O&", TENSOR_ARG x, TENSOR_ARG y)) return NULL; \
        CT_TRY(ct_##name(x, y, &out));                                       \
        return wrap_tensor(out);                                             \
    }
X(complex) X(polar)
#undef X

/* full_complex(shape, real, imag, dtype code, (device type, index)) */
static PyObject* py_full_complex(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_full_complex);
    PyObject* shape_obj;
    double re, im;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "Oddi(ii)", &shape_obj, &re, &im, &dtype, &dev.type, &dev.index)) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "size") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = ct_full_complex(d.v, d.n, re, im, dtype, dev, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef complex_functions[] = {E(real) E(imag) E(view_as_real) E(view_as_complex) E(conj) E(angle)
                                              E(complex) E(polar) E(full_complex){NULL, NULL, 0, NULL}};
int init_complex(PyObject* m) { return add_functions(m, complex_functions); }
