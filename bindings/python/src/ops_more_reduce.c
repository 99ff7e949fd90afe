/* ops_more_reduce.c - module functions of the issue 14 reductions and products with their own signatures:
 * aminmax, var_mean / std_mean, tensordot (logcumsumexp, kron and inner use ops.c's tables). Arguments arrive
 * already adapted by ctensor/_more_ops.py; this file only calls the C ABI. */
#include "ctmodule.h"

/* aminmax(x, dim or None, keepdim) -> (min, max) */
static PyObject* py_aminmax(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_aminmax);
    ct_tensor x, hs[2] = {NULL, NULL};
    PyObject* dim_o = Py_None;
    int keepdim = 0;
    if (!PyArg_ParseTuple(a, "O&Op", conv_tensor, &x, &dim_o, &keepdim)) return NULL;
    long long dim = 0;
    if (dim_o != Py_None) {
        dim = PyLong_AsLongLong(dim_o);
        if (PyErr_Occurred()) return NULL;
    }
    CT_TRY(ct_aminmax(x, dim, dim_o != Py_None, keepdim, &hs[0], &hs[1]));
    return tuple_of(hs, 2);
}

/* var_mean(x, dims or None, correction, keepdim, is_std) -> (var or std, mean) */
static PyObject* py_var_mean(PyObject* m, PyObject* a) {
    ct_tensor x, hs[2] = {NULL, NULL};
    PyObject* dims_o = Py_None;
    double correction = 1;
    int keepdim = 0, is_std = 0;
    if (!PyArg_ParseTuple(a, "O&Odpp", conv_tensor, &x, &dims_o, &correction, &keepdim, &is_std)) return NULL;
    if (is_std ? !ct_std_mean : !ct_var_mean) return raise_missing(is_std ? "ct_std_mean" : "ct_var_mean");
    Dims d;
    if (dims_parse(dims_o, &d, 1, "dim") < 0) return NULL;
    ct_status st = (is_std ? ct_std_mean : ct_var_mean)(x, d.is_none ? NULL : d.v, d.n, correction, keepdim, &hs[0],
                                                        &hs[1]);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return tuple_of(hs, 2);
}

/* tensordot(a, b, dims_a, dims_b) */
static PyObject* py_tensordot(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_tensordot);
    ct_tensor x, y, out = NULL;
    PyObject *da_o, *db_o;
    if (!PyArg_ParseTuple(a, "O&O&OO", conv_tensor, &x, conv_tensor, &y, &da_o, &db_o)) return NULL;
    Dims da, db;
    if (dims_parse(da_o, &da, 0, "dims") < 0) return NULL;
    if (dims_parse(db_o, &db, 0, "dims") < 0) {
        dims_free(&da);
        return NULL;
    }
    ct_status st = ct_tensordot(x, y, da.v, da.n, db.v, db.n, &out);
    dims_free(&da);
    dims_free(&db);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef more_reduce_functions[] = {E(aminmax) E(var_mean) E(tensordot) {NULL, NULL, 0, NULL}};

int init_more_reduce(PyObject* m) { return add_functions(m, more_reduce_functions); }
