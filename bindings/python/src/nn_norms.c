/* nn_norms.c - module functions for the normalisation layers (issue 14): layer_norm, group_norm, batch_norm over
 * the C ABI's ct_layer_norm / ct_group_norm / ct_batch_norm. Positional arguments mirror the C ABI. */
#include "ctmodule.h"

#define T conv_tensor, &
#define OT conv_opt_tensor, &

static PyObject* wrap_out(ct_status st, ct_tensor out) {
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* layer_norm(x, normalized_shape, weight or None, bias or None, eps) */
static PyObject* py_layer_norm(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_layer_norm);
    ct_tensor x, w = NULL, b = NULL, out = NULL;
    PyObject* shape;
    double eps;
    if (!PyArg_ParseTuple(a, "O&OO&O&d", T x, &shape, OT w, OT b, &eps)) return NULL;
    Dims d;
    if (dims_parse(shape, &d, 0, "normalized_shape") < 0) return NULL;
    ct_status st = ct_layer_norm(x, d.v, d.n, w, b, eps, &out);
    dims_free(&d);
    return wrap_out(st, out);
}
/* group_norm(x, num_groups, weight or None, bias or None, eps) */
static PyObject* py_group_norm(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_group_norm);
    ct_tensor x, w = NULL, b = NULL, out = NULL;
    long long groups;
    double eps;
    if (!PyArg_ParseTuple(a, "O&LO&O&d", T x, &groups, OT w, OT b, &eps)) return NULL;
    ct_status st = ct_group_norm(x, groups, w, b, eps, &out);
    return wrap_out(st, out);
}
/* batch_norm(x, running_mean or None, running_var or None, weight or None, bias or None, training, momentum, eps) */
static PyObject* py_batch_norm(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_batch_norm);
    ct_tensor x, rm = NULL, rv = NULL, w = NULL, b = NULL, out = NULL;
    int training;
    double momentum, eps;
    if (!PyArg_ParseTuple(a, "O&O&O&O&O&pdd", T x, OT rm, OT rv, OT w, OT b, &training, &momentum, &eps))
        return NULL;
    ct_status st = ct_batch_norm(x, rm, rv, w, b, training, momentum, eps, &out);
    return wrap_out(st, out);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef norm_functions[] = {E(layer_norm) E(group_norm) E(batch_norm){NULL, NULL, 0, NULL}};

int init_nn_norms(PyObject* m) { return add_functions(m, norm_functions); }
