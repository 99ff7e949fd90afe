/* resample.c - module function of issue 14's resampling: interpolate(x, size or None, scales or None, mode,
 * align_corners, recompute_scale_factor) over ct_interpolate; size / scales are tuples of 1-3 values. */
#include "ctmodule.h"

/* Copies tuple t (1-3 items) into ints or doubles; returns its length, or -1 with an exception set. */
static Py_ssize_t spatial_tuple(PyObject* t, int64_t* ints, double* reals, const char* what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 1 || PyTuple_GET_SIZE(t) > 3) {
        PyErr_Format(PyExc_ValueError, "interpolate: %s must be a tuple of 1 to 3 numbers", what);
        return -1;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(t);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = PyTuple_GET_ITEM(t, i);
        if (ints) ints[i] = PyLong_AsLongLong(v);
        else reals[i] = PyFloat_AsDouble(v);
        if (PyErr_Occurred()) return -1;
    }
    return n;
}

/* interpolate(x, size_or_None, scale_factors_or_None, mode, align_corners (-1 unset), recompute_scale_factor) */
static PyObject* py_interpolate(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_interpolate);
    ct_tensor x;
    PyObject *size, *scales;
    int mode, align, recompute;
    if (!PyArg_ParseTuple(a, "O&OOiip", conv_tensor, &x, &size, &scales, &mode, &align, &recompute)) return NULL;
    int64_t s[3];
    double f[3];
    Py_ssize_t n = 0;
    if (size != Py_None && (n = spatial_tuple(size, s, NULL, "size")) < 0) return NULL;
    if (scales != Py_None && (n = spatial_tuple(scales, NULL, f, "scale_factor")) < 0) return NULL;
    if (size == Py_None && scales == Py_None) n = 1; /* the library names the missing argument */
    ct_tensor out = NULL;
    CT_TRY(ct_interpolate(x, size != Py_None ? s : NULL, scales != Py_None ? f : NULL, (int32_t)n, mode, align,
                          recompute, &out));
    return wrap_tensor(out);
}

static PyMethodDef resample_functions[] = {
    {"interpolate", (PyCFunction)py_interpolate, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int init_resample(PyObject* m) { return add_functions(m, resample_functions); }
