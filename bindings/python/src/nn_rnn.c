/* nn_rnn.c - module functions for the recurrent nets (issue 14): rnn (the fused stack) and rnn_cell. Positional
 * arguments mirror the C ABI; ctensor.nn (_functional_rnn.py, rnn.py) gives them torch's signatures. */
#include "ctmodule.h"

/* (out, hy, cy) as a tuple of Tensors (cy None when NULL); releases all three on failure. */
static PyObject* wrap_three(ct_tensor a, ct_tensor b, ct_tensor c) {
    PyObject* ta = wrap_tensor(a); /* wrap_tensor releases its handle on failure */
    PyObject* tb = wrap_tensor(b);
    PyObject* tc = c ? wrap_tensor(c) : (Py_INCREF(Py_None), Py_None);
    if (!ta || !tb || !tc) {
        Py_XDECREF(ta);
        Py_XDECREF(tb);
        Py_XDECREF(tc);
        return NULL;
    }
    return Py_BuildValue("(NNN)", ta, tb, tc);
}

/* rnn(mode, x, hx_or_None, cx_or_None, weights, has_biases, num_layers, dropout, train, bidirectional,
 *     batch_first, proj_size, batch_sizes_or_None, generator_or_None) -> (out, hy, cy_or_None) */
static PyObject* py_rnn(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_rnn);
    int mode, has_biases, train, bidir, batch_first;
    ct_tensor x, hx = NULL, cx = NULL;
    ct_generator gen = NULL;
    PyObject *w_obj, *bs_obj;
    long long layers, proj;
    double dropout;
    if (!PyArg_ParseTuple(a, "iO&O&O&OpLdpppLOO&", &mode, conv_tensor, &x, conv_opt_tensor, &hx, conv_opt_tensor,
                          &cx, &w_obj, &has_biases, &layers, &dropout, &train, &bidir, &batch_first, &proj, &bs_obj,
                          conv_opt_generator, &gen))
        return NULL;
    Dims bs;
    if (dims_parse(bs_obj, &bs, 1, "batch_sizes") < 0) return NULL;
    ct_tensor* ws;
    Py_ssize_t n;
    PyObject* keep;
    if (tensor_seq(w_obj, &ws, &n, &keep) < 0) {
        dims_free(&bs);
        return NULL;
    }
    ct_tensor out = NULL, hy = NULL, cy = NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_rnn(mode, x, hx, cx, ws, (int32_t)n, has_biases, layers, dropout, train, bidir,
                                       batch_first, proj, bs.is_none ? NULL : bs.v, bs.is_none ? 0 : bs.n, gen, &out,
                                       &hy, &cy);
    Py_END_ALLOW_THREADS
    PyMem_Free(ws);
    Py_DECREF(keep);
    dims_free(&bs);
    if (st != CT_OK) return raise_status(st);
    return wrap_three(out, hy, cy);
}

/* rnn_cell(mode, x, hx_or_None, cx_or_None, w_ih, w_hh, b_ih_or_None, b_hh_or_None) -> (hy, cy_or_None) */
static PyObject* py_rnn_cell(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_rnn_cell);
    int mode;
    ct_tensor x, hx = NULL, cx = NULL, w_ih, w_hh, b_ih = NULL, b_hh = NULL;
    if (!PyArg_ParseTuple(a, "iO&O&O&O&O&O&O&", &mode, conv_tensor, &x, conv_opt_tensor, &hx, conv_opt_tensor, &cx,
                          conv_tensor, &w_ih, conv_tensor, &w_hh, conv_opt_tensor, &b_ih, conv_opt_tensor, &b_hh))
        return NULL;
    ct_tensor hy = NULL, cy = NULL;
    CT_TRY(ct_rnn_cell(mode, x, hx, cx, w_ih, w_hh, b_ih, b_hh, &hy, &cy));
    PyObject* th = wrap_tensor(hy);
    PyObject* tc = cy ? wrap_tensor(cy) : (Py_INCREF(Py_None), Py_None);
    if (!th || !tc) {
        Py_XDECREF(th);
        Py_XDECREF(tc);
        return NULL;
    }
    return Py_BuildValue("(NN)", th, tc);
}

static PyMethodDef rnn_functions[] = {
    {"rnn", (PyCFunction)py_rnn, METH_VARARGS, NULL},
    {"rnn_cell", (PyCFunction)py_rnn_cell, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

int init_nn_rnn(PyObject* m) { return add_functions(m, rnn_functions); }
