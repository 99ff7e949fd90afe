/* promotion.c - module functions for torch's type promotion queries (issue 15): promote_types, can_cast and
 * result_type, straight through the C ABI (ct_promote_types, ct_can_cast, ct_result_type). dtypes travel as their
 * integer codes; ctensor/_promotion.py gives them torch's signatures. */
#include "ctmodule.h"

/* promote_types(a code, b code) -> code */
static PyObject* py_promote_types(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_promote_types);
    int x, y;
    if (!PyArg_ParseTuple(a, "ii", &x, &y)) return NULL;
    ct_dtype out = CT_FLOAT32;
    CT_TRY(ct_promote_types((ct_dtype)x, (ct_dtype)y, &out));
    return PyLong_FromLong((long)out);
}

/* can_cast(from code, to code) -> bool */
static PyObject* py_can_cast(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_can_cast);
    int from, to;
    if (!PyArg_ParseTuple(a, "ii", &from, &to)) return NULL;
    int32_t out = 0;
    CT_TRY(ct_can_cast((ct_dtype)from, (ct_dtype)to, &out));
    return PyBool_FromLong(out);
}

/* result_type(tensor or number, tensor or number) -> code; numbers count as wrapped scalars, as in the ops */
static PyObject* py_result_type(PyObject* m, PyObject* args) {
    REQUIRE_SYM(ct_result_type);
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
    TArg ta = TARG_INIT, tb = TARG_INIT;
    if (targ_require(a, &ta, "result_type: tensor1") < 0) return NULL;
    if (targ_require(b, &tb, "result_type: tensor2") < 0) {
        targ_release(&ta);
        return NULL;
    }
    ct_dtype out = CT_FLOAT32;
    ct_status st = ct_result_type(ta.h, tb.h, &out);
    targ_release(&ta);
    targ_release(&tb);
    if (st != CT_OK) return raise_status(st);
    return PyLong_FromLong((long)out);
}

static PyMethodDef promotion_functions[] = {
    {"promote_types", (PyCFunction)py_promote_types, METH_VARARGS, NULL},
    {"can_cast", (PyCFunction)py_can_cast, METH_VARARGS, NULL},
    {"result_type", (PyCFunction)py_result_type, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};
int init_promotion(PyObject* m) { return add_functions(m, promotion_functions); }
