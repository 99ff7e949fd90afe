/* handles.c - Python types owning the other ctensor handles: Generator (seeded RNG) and Optimizer
 * (SGD/Adam/AdamW over a list of parameter tensors). Each object owns one reference, released on dealloc. */
#include <string.h>

#include "ctmodule.h"

/* ---- Generator ----------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    ct_generator h;
} GeneratorObject;

static PyTypeObject Generator_Type;

static PyObject* generator_new(PyTypeObject* cls, PyObject* args, PyObject* kwargs) {
    static char* kw[] = {"seed", NULL};
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|K", kw, &seed)) return NULL;
    REQUIRE_SYM(ct_generator_new);
    ct_generator g = NULL;
    CT_TRY(ct_generator_new((uint64_t)seed, &g));
    GeneratorObject* self = (GeneratorObject*)cls->tp_alloc(cls, 0);
    if (!self) {
        ct_generator_release(g);
        return NULL;
    }
    self->h = g;
    return (PyObject*)self;
}

static void generator_dealloc(PyObject* self) {
    if (ct_generator_release) ct_generator_release(((GeneratorObject*)self)->h);
    Py_TYPE(self)->tp_free(self);
}

static PyObject* generator_manual_seed(PyObject* self, PyObject* arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    CT_TRY(ct_generator_seed(((GeneratorObject*)self)->h, (uint64_t)seed));
    return Py_NewRef(self);
}

static PyMethodDef generator_methods[] = {
    {"manual_seed", generator_manual_seed, METH_O, "Resets the state from seed; returns self."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject Generator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.Generator",
    .tp_basicsize = sizeof(GeneratorObject),
    .tp_dealloc = generator_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Generator(seed=0): a seeded random number generator.",
    .tp_methods = generator_methods,
    .tp_new = generator_new,
};

int conv_opt_generator(PyObject* o, void* out) {
    if (o == Py_None) {
        *(ct_generator*)out = NULL;
        return 1;
    }
    if (!PyObject_TypeCheck(o, &Generator_Type)) {
        PyErr_Format(PyExc_TypeError, "generator must be a ctensor.Generator, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    *(ct_generator*)out = ((GeneratorObject*)o)->h;
    return 1;
}

/* ---- Optimizer ----------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    ct_optimizer h;
} OptimizerObject;

/* Optimizer(kind, params, lr, a, b, c, d, flag): kind "sgd" (momentum, dampening, weight_decay, -, nesterov),
 * "adam"/"adamw" (beta1, beta2, eps, weight_decay). */
static PyObject* optimizer_new(PyTypeObject* cls, PyObject* args, PyObject* kwargs) {
    const char* kind;
    PyObject* params;
    double lr, a = 0, b = 0, c = 0, d = 0;
    int flag = 0;
    if (!PyArg_ParseTuple(args, "sOd|ddddp", &kind, &params, &lr, &a, &b, &c, &d, &flag)) return NULL;
    PyObject* seq = PySequence_Fast(params, "params must be a sequence of Tensors");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    ct_tensor* hs = PyMem_Malloc(sizeof(ct_tensor) * (size_t)(n ? n : 1));
    if (!hs) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* p = PySequence_Fast_GET_ITEM(seq, i);
        if (!Tensor_Check(p)) {
            PyMem_Free(hs);
            Py_DECREF(seq);
            return PyErr_Format(PyExc_TypeError, "optimizer params must be Tensors, item %zd is %.100s", i,
                                Py_TYPE(p)->tp_name);
        }
        hs[i] = TENSOR_H(p);
    }
    ct_optimizer opt = NULL;
    ct_status st = -1;
    const char* missing = NULL;
    if (!strcmp(kind, "sgd")) {
        if (ct_optim_sgd_new) st = ct_optim_sgd_new(hs, (int32_t)n, lr, a, b, c, flag, &opt);
        else missing = "ct_optim_sgd_new";
    } else if (!strcmp(kind, "adam")) {
        if (ct_optim_adam_new) st = ct_optim_adam_new(hs, (int32_t)n, lr, a, b, c, d, &opt);
        else missing = "ct_optim_adam_new";
    } else if (!strcmp(kind, "adamw")) {
        if (ct_optim_adamw_new) st = ct_optim_adamw_new(hs, (int32_t)n, lr, a, b, c, d, &opt);
        else missing = "ct_optim_adamw_new";
    }
    PyMem_Free(hs);
    Py_DECREF(seq);
    if (missing) return raise_missing(missing);
    if (st == -1) return PyErr_Format(PyExc_ValueError, "unknown optimizer kind '%s'", kind);
    if (st != CT_OK) return raise_status(st);
    OptimizerObject* self = (OptimizerObject*)cls->tp_alloc(cls, 0);
    if (!self) {
        ct_optimizer_release(opt);
        return NULL;
    }
    self->h = opt;
    return (PyObject*)self;
}

static void optimizer_dealloc(PyObject* self) {
    if (ct_optimizer_release) ct_optimizer_release(((OptimizerObject*)self)->h);
    Py_TYPE(self)->tp_free(self);
}

static PyObject* optimizer_step(PyObject* self, PyObject* u) {
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_optimizer_step(((OptimizerObject*)self)->h);
    Py_END_ALLOW_THREADS if (st != CT_OK) return raise_status(st);
    Py_RETURN_NONE;
}

static PyObject* optimizer_zero_grad(PyObject* self, PyObject* args) {
    int set_to_none = 1;
    if (!PyArg_ParseTuple(args, "|p", &set_to_none)) return NULL;
    CT_TRY(ct_optimizer_zero_grad(((OptimizerObject*)self)->h, set_to_none));
    Py_RETURN_NONE;
}

static PyObject* optimizer_get_lr(PyObject* self, void* c) {
    double lr;
    CT_TRY(ct_optimizer_get_lr(((OptimizerObject*)self)->h, &lr));
    return PyFloat_FromDouble(lr);
}

static int optimizer_set_lr(PyObject* self, PyObject* v, void* c) {
    double lr = v ? PyFloat_AsDouble(v) : -1.0;
    if (!v) PyErr_SetString(PyExc_AttributeError, "cannot delete lr");
    if (PyErr_Occurred()) return -1;
    ct_status st = ct_optimizer_set_lr(((OptimizerObject*)self)->h, lr);
    return st == CT_OK ? 0 : raise_status_int(st);
}

/* ---- optimizer state (state_dict / load_state_dict) ---- */

#define OPT_H(self) (((OptimizerObject*)(self))->h)

static PyObject* optimizer_state_names(PyObject* self, PyObject* u) {
    REQUIRE_SYM(ct_optimizer_state_names);
    char buf[256];
    int32_t len = 0;
    CT_TRY(ct_optimizer_state_names(OPT_H(self), buf, (int32_t)sizeof buf, &len));
    if (len >= (int32_t)sizeof buf) return PyErr_Format(PyExc_RuntimeError, "optimizer state names too long");
    PyObject* text = PyUnicode_FromStringAndSize(buf, len);
    if (!text) return NULL;
    PyObject* sep = PyUnicode_FromString(",");
    PyObject* parts = len ? PyUnicode_Split(text, sep, -1) : PyList_New(0);
    Py_DECREF(text);
    Py_XDECREF(sep);
    return parts;
}

static PyObject* optimizer_num_params(PyObject* self, PyObject* u) {
    REQUIRE_SYM(ct_optimizer_num_params);
    int32_t n = 0;
    CT_TRY(ct_optimizer_num_params(OPT_H(self), &n));
    return PyLong_FromLong(n);
}

/* get_state(i, name) -> Tensor copy or None */
static PyObject* optimizer_get_state(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_get_state);
    int i;
    const char* name;
    if (!PyArg_ParseTuple(a, "is", &i, &name)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(ct_optimizer_get_state(OPT_H(self), i, name, &out));
    return wrap_tensor(out);
}

/* set_state(i, name, tensor_or_None) */
static PyObject* optimizer_set_state(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_set_state);
    int i;
    const char* name;
    ct_tensor value = NULL;
    if (!PyArg_ParseTuple(a, "isO&", &i, &name, conv_opt_tensor, &value)) return NULL;
    CT_TRY(ct_optimizer_set_state(OPT_H(self), i, name, value));
    Py_RETURN_NONE;
}

static PyObject* optimizer_get_step(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_get_step);
    int i;
    if (!PyArg_ParseTuple(a, "i", &i)) return NULL;
    int64_t step = 0;
    CT_TRY(ct_optimizer_get_step(OPT_H(self), i, &step));
    return PyLong_FromLongLong(step);
}

static PyObject* optimizer_set_step(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_set_step);
    int i;
    long long step;
    if (!PyArg_ParseTuple(a, "iL", &i, &step)) return NULL;
    CT_TRY(ct_optimizer_set_step(OPT_H(self), i, step));
    Py_RETURN_NONE;
}

static PyObject* optimizer_get_hparam(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_get_hparam);
    const char* name;
    if (!PyArg_ParseTuple(a, "s", &name)) return NULL;
    double value = 0.0;
    CT_TRY(ct_optimizer_get_hparam(OPT_H(self), name, &value));
    return PyFloat_FromDouble(value);
}

static PyObject* optimizer_set_hparam(PyObject* self, PyObject* a) {
    REQUIRE_SYM(ct_optimizer_set_hparam);
    const char* name;
    double value;
    if (!PyArg_ParseTuple(a, "sd", &name, &value)) return NULL;
    CT_TRY(ct_optimizer_set_hparam(OPT_H(self), name, value));
    Py_RETURN_NONE;
}

static PyMethodDef optimizer_methods[] = {
    {"step", optimizer_step, METH_NOARGS, "One update of every parameter with a gradient."},
    {"zero_grad", optimizer_zero_grad, METH_VARARGS, "zero_grad(set_to_none=True)."},
    {"state_names", optimizer_state_names, METH_NOARGS, "Names of the per-parameter state tensors."},
    {"num_params", optimizer_num_params, METH_NOARGS, "Number of parameters."},
    {"get_state", optimizer_get_state, METH_VARARGS, "get_state(i, name) -> copy of a state tensor or None."},
    {"set_state", optimizer_set_state, METH_VARARGS, "set_state(i, name, tensor_or_None)."},
    {"get_step", optimizer_get_step, METH_VARARGS, "get_step(i) -> update count of parameter i."},
    {"set_step", optimizer_set_step, METH_VARARGS, "set_step(i, step)."},
    {"get_hparam", optimizer_get_hparam, METH_VARARGS, "get_hparam(name) -> value of a hyper-parameter."},
    {"set_hparam", optimizer_set_hparam, METH_VARARGS, "set_hparam(name, value): used from the next step on."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef optimizer_getset[] = {{"lr", optimizer_get_lr, optimizer_set_lr, "Learning rate.", NULL},
                                         {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Optimizer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.Optimizer",
    .tp_basicsize = sizeof(OptimizerObject),
    .tp_dealloc = optimizer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ctensor optimizer handle (see ctensor.optim).",
    .tp_methods = optimizer_methods,
    .tp_getset = optimizer_getset,
    .tp_new = optimizer_new,
};

int init_handles(PyObject* m) {
    if (PyType_Ready(&Generator_Type) < 0 || PyType_Ready(&Optimizer_Type) < 0) return -1;
    Py_INCREF(&Generator_Type);
    if (PyModule_AddObject(m, "Generator", (PyObject*)&Generator_Type) < 0) return -1;
    Py_INCREF(&Optimizer_Type);
    return PyModule_AddObject(m, "Optimizer", (PyObject*)&Optimizer_Type);
}
