/* binary_math.c - module functions of the issue 14 ops that are not plain binary ops (ops.c binds those):
 * addcmul and addcdiv (three tensors and a value). Arguments arrive adapted by ctensor/_binary_math.py. */
#include "ctmodule.h"

#define X(name)                                                                                      \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                                           \
        REQUIRE_SYM(ct_##name);                                                                      \
        ct_tensor s, t1, t2, out = NULL;                                                             \
        double value;                                                                                \
        if (!PyArg_ParseTuple(a, "O&O&O&d", conv_tensor, &s, conv_tensor, &t1, conv_tensor, &t2, &value)) \
            return NULL;                                                                             \
        CT_TRY(ct_##name(s, t1, t2, value, &out));                                                   \
        return wrap_tensor(out);                                                                     \
    }
X(addcmul) X(addcdiv)
#undef X

static PyMethodDef binary_math_functions[] = {{"addcmul", (PyCFunction)py_addcmul, METH_VARARGS, NULL},
                                              {"addcdiv", (PyCFunction)py_addcdiv, METH_VARARGS, NULL},
                                              {NULL, NULL, 0, NULL}};
int init_binary_math(PyObject* m) { return add_functions(m, binary_math_functions); }
