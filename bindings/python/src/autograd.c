/* autograd.c - backward, autograd.grad and custom functions. A custom function's backward is a Python
 * callable reached through a C trampoline that takes the GIL, calls it and maps a Python exception to
 * ct_set_error; the original exception is re-raised when the engine's failure comes back to Python. */
#include "ctmodule.h"

static const char* PENDING_KEY = "ctensor._C.pending_callback_error";

/* The current exception as a normalized instance carrying its traceback (cleared from the error state). */
static PyObject* fetch_exception(void) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!type) return NULL;
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
}

static void restore_exception(PyObject* exc) {
    PyErr_Restore(Py_NewRef((PyObject*)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
}

/* Keeps exc (stolen) in the thread-state dict until the engine call returns (the GIL is held). */
static void stash_exception(PyObject* exc) {
    PyObject* dict = PyThreadState_GetDict();
    if (dict && exc) PyDict_SetItemString(dict, PENDING_KEY, exc);
    Py_XDECREF(exc);
    PyErr_Clear();
}

/* After a failed engine call: re-raise a stashed callback exception, otherwise map the status. */
static PyObject* raise_engine_failure(ct_status st) {
    PyObject* dict = PyThreadState_GetDict();
    PyObject* exc = dict ? PyDict_GetItemString(dict, PENDING_KEY) : NULL;
    if (exc && st == CT_ERR_CALLBACK) {
        Py_INCREF(exc);
        PyDict_DelItemString(dict, PENDING_KEY);
        restore_exception(exc);
        return NULL;
    }
    if (exc) PyDict_DelItemString(dict, PENDING_KEY);
    return raise_status(st);
}

static PyObject* py_backward(PyObject* m, PyObject* args) {
    ct_tensor t, grad = NULL;
    int retain = 0, create = 0;
    if (!PyArg_ParseTuple(args, "O&|O&pp", conv_tensor, &t, conv_opt_tensor, &grad, &retain, &create)) return NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_backward(t, grad, retain, create);
    Py_END_ALLOW_THREADS if (st != CT_OK) return raise_engine_failure(st);
    Py_RETURN_NONE;
}

/* Handles of a sequence whose items are Tensors (or None when allow_none); *n gets the length. */
static ct_tensor* handle_array(PyObject* obj, Py_ssize_t* n, int allow_none, const char* what) {
    PyObject* seq = PySequence_Fast(obj, "expected a sequence of Tensors");
    if (!seq) return NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    ct_tensor* hs = PyMem_Calloc((size_t)(*n ? *n : 1), sizeof(ct_tensor));
    for (Py_ssize_t i = 0; hs && i < *n; ++i) {
        PyObject* it = PySequence_Fast_GET_ITEM(seq, i);
        if (Tensor_Check(it)) hs[i] = TENSOR_H(it);
        else if (!(allow_none && it == Py_None)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be a Tensor, not %.100s", what, i, Py_TYPE(it)->tp_name);
            PyMem_Free(hs);
            hs = NULL;
        }
    }
    if (!hs && !PyErr_Occurred()) PyErr_NoMemory();
    Py_DECREF(seq); /* items stay alive: the caller holds the original sequence */
    return hs;
}

/* A tuple of Tensors owning the n handles (NULL entries become None); releases them all on failure. */
static PyObject* tuple_of_handles(ct_tensor* hs, Py_ssize_t n) {
    PyObject* tuple = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* t = tuple ? wrap_tensor(hs[i]) : NULL; /* wrap_tensor releases hs[i] on failure */
        if (!tuple) ct_tensor_release(hs[i]);
        else if (!t) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, t);
    }
    return tuple;
}

/* grad(outputs, grad_outputs_or_None, inputs, retain_graph, create_graph, allow_unused) -> tuple */
static PyObject* py_autograd_grad(PyObject* m, PyObject* args) {
    PyObject *outs_obj, *gouts_obj, *ins_obj;
    int retain = 0, create = 0, allow_unused = 0;
    if (!PyArg_ParseTuple(args, "OOO|ppp", &outs_obj, &gouts_obj, &ins_obj, &retain, &create, &allow_unused))
        return NULL;
    Py_ssize_t n_out = 0, n_gout = 0, n_in = 0;
    ct_tensor *outs = NULL, *gouts = NULL, *ins = NULL, *res = NULL;
    PyObject* result = NULL;
    outs = handle_array(outs_obj, &n_out, 0, "outputs");
    if (!outs) goto done;
    if (gouts_obj != Py_None) {
        gouts = handle_array(gouts_obj, &n_gout, 1, "grad_outputs");
        if (!gouts) goto done;
        if (n_gout != n_out) {
            PyErr_Format(PyExc_ValueError, "grad_outputs has %zd entries but there are %zd outputs", n_gout, n_out);
            goto done;
        }
    }
    ins = handle_array(ins_obj, &n_in, 0, "inputs");
    if (!ins) goto done;
    res = PyMem_Calloc((size_t)(n_in ? n_in : 1), sizeof(ct_tensor));
    if (!res) {
        PyErr_NoMemory();
        goto done;
    }
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_autograd_grad(outs, (int32_t)n_out, gouts, ins, (int32_t)n_in, retain, create,
                                                 allow_unused, res);
    Py_END_ALLOW_THREADS if (st != CT_OK) {
        raise_engine_failure(st);
        goto done;
    }
    result = tuple_of_handles(res, n_in);
done:
    PyMem_Free(outs);
    PyMem_Free(gouts);
    PyMem_Free(ins);
    PyMem_Free(res);
    return result;
}

/* ---- custom functions ---------------------------------------------------------------------------- */

static int interpreter_alive(void) {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsInitialized() && !Py_IsFinalizing();
#else
    return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

/* Fills grad_inputs from the callable's result (a Tensor, None, or a sequence of them). */
static int collect_grads(PyObject* res, ct_tensor* grad_inputs, int32_t n_inputs) {
    PyObject* seq = Tensor_Check(res) || res == Py_None ? PyTuple_Pack(1, res) : PySequence_Tuple(res);
    if (!seq) return -1;
    if (PyTuple_GET_SIZE(seq) != n_inputs) {
        PyErr_Format(PyExc_RuntimeError, "custom backward returned %zd gradients, but the function has %d tensor inputs",
                     PyTuple_GET_SIZE(seq), (int)n_inputs);
        Py_DECREF(seq);
        return -1;
    }
    for (int32_t i = 0; i < n_inputs; ++i) {
        PyObject* g = PyTuple_GET_ITEM(seq, i);
        if (g != Py_None && !Tensor_Check(g)) {
            PyErr_Format(PyExc_TypeError, "custom backward returned %.100s for input %d; expected a Tensor or None",
                         Py_TYPE(g)->tp_name, (int)i);
            for (int32_t j = 0; j < i; ++j) ct_tensor_release(grad_inputs[j]);
            Py_DECREF(seq);
            return -1;
        }
        grad_inputs[i] = g == Py_None ? NULL : ct_tensor_retain(TENSOR_H(g));
    }
    Py_DECREF(seq);
    return 0;
}

static ct_status backward_trampoline(void* ctx, const ct_tensor* grad_outputs, int32_t n_outputs,
                                     ct_tensor* grad_inputs, int32_t n_inputs) {
    if (!interpreter_alive()) return ct_set_error(CT_ERR_CALLBACK, "custom backward: Python is shutting down");
    PyGILState_STATE gil = PyGILState_Ensure();
    ct_status st = CT_OK;
    PyObject* grads = PyTuple_New(n_outputs);
    for (int32_t i = 0; grads && i < n_outputs; ++i) {
        PyObject* g = wrap_tensor(ct_tensor_retain(grad_outputs[i]));
        if (!g) Py_CLEAR(grads);
        else PyTuple_SET_ITEM(grads, i, g);
    }
    PyObject* res = grads ? PyObject_CallOneArg((PyObject*)ctx, grads) : NULL;
    Py_XDECREF(grads);
    if (!res || collect_grads(res, grad_inputs, n_inputs) < 0) {
        PyObject* exc = fetch_exception();
        PyObject* text = exc ? PyObject_Str(exc) : NULL;
        const char* msg = text ? PyUnicode_AsUTF8(text) : NULL;
        char buf[1024];
        PyOS_snprintf(buf, sizeof buf, "custom backward raised %s: %s", exc ? Py_TYPE(exc)->tp_name : "an error",
                      msg ? msg : "");
        PyErr_Clear();
        Py_XDECREF(text);
        stash_exception(exc);
        st = ct_set_error(CT_ERR_CALLBACK, buf);
    }
    Py_XDECREF(res);
    PyGILState_Release(gil);
    return st;
}

static void release_trampoline_ctx(void* ctx) {
    if (!interpreter_alive()) return; /* at shutdown the callable is left to the interpreter */
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject*)ctx);
    PyGILState_Release(gil);
}

/* custom_function_apply(name, inputs, outputs, backward_callable) -> tuple of results */
static PyObject* py_custom_function_apply(PyObject* m, PyObject* args) {
    const char* name;
    PyObject *ins_obj, *outs_obj, *fn;
    if (!PyArg_ParseTuple(args, "sOOO", &name, &ins_obj, &outs_obj, &fn)) return NULL;
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "backward must be callable");
    Py_ssize_t n_in, n_out;
    ct_tensor* ins = handle_array(ins_obj, &n_in, 0, "inputs");
    if (!ins) return NULL;
    ct_tensor* outs = handle_array(outs_obj, &n_out, 0, "outputs");
    ct_tensor* res = outs ? PyMem_Calloc((size_t)(n_out ? n_out : 1), sizeof(ct_tensor)) : NULL;
    PyObject* result = NULL;
    if (outs && res) {
        Py_INCREF(fn); /* owned by the node from now on: released by release_trampoline_ctx */
        ct_status st = ct_custom_function_apply(name, ins, (int32_t)n_in, outs, (int32_t)n_out, backward_trampoline,
                                                fn, release_trampoline_ctx, res);
        if (st != CT_OK) raise_status(st);
        else {
            result = tuple_of_handles(res, n_out);
        }
    } else if (outs) PyErr_NoMemory();
    PyMem_Free(ins);
    PyMem_Free(outs);
    PyMem_Free(res);
    return result;
}

/* ---- tensor hooks ---------------------------------------------------------------------------------- */

/* Reports the pending Python exception as a callback failure (stashed for raise_engine_failure). */
static ct_status callback_failure(const char* what) {
    PyObject* exc = fetch_exception();
    PyObject* text = exc ? PyObject_Str(exc) : NULL;
    const char* msg = text ? PyUnicode_AsUTF8(text) : NULL;
    char buf[1024];
    PyOS_snprintf(buf, sizeof buf, "%s raised %s: %s", what, exc ? Py_TYPE(exc)->tp_name : "an error", msg ? msg : "");
    PyErr_Clear();
    Py_XDECREF(text);
    stash_exception(exc);
    return ct_set_error(CT_ERR_CALLBACK, buf);
}

/* Calls the Python hook (ctx) with the gradient; a returned Tensor replaces it, None keeps it. */
static ct_status hook_trampoline(ct_tensor grad, void* ctx, ct_tensor* replacement) {
    if (!interpreter_alive()) return ct_set_error(CT_ERR_CALLBACK, "tensor hook: Python is shutting down");
    PyGILState_STATE gil = PyGILState_Ensure();
    ct_status st = CT_OK;
    PyObject* g = wrap_tensor(ct_tensor_retain(grad));
    PyObject* res = g ? PyObject_CallOneArg((PyObject*)ctx, g) : NULL;
    Py_XDECREF(g);
    if (res && res != Py_None && !Tensor_Check(res)) {
        PyErr_Format(PyExc_TypeError, "hook returned %.100s; expected a Tensor or None", Py_TYPE(res)->tp_name);
        Py_CLEAR(res);
    }
    if (!res) st = callback_failure("tensor hook");
    else if (res != Py_None) *replacement = ct_tensor_retain(TENSOR_H(res));
    Py_XDECREF(res);
    PyGILState_Release(gil);
    return st;
}

/* register_hook(t, fn) -> id */
static PyObject* py_register_hook(PyObject* m, PyObject* args) {
    REQUIRE_SYM(ct_tensor_register_hook);
    ct_tensor t;
    PyObject* fn;
    if (!PyArg_ParseTuple(args, "O&O", conv_tensor, &t, &fn)) return NULL;
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "hook must be callable");
    Py_INCREF(fn); /* owned by the hook from now on: released by release_trampoline_ctx (also on failure) */
    int64_t id = 0;
    CT_TRY(ct_tensor_register_hook(t, hook_trampoline, fn, release_trampoline_ctx, &id));
    return PyLong_FromLongLong(id);
}

/* remove_hook(t, id) */
static PyObject* py_remove_hook(PyObject* m, PyObject* args) {
    REQUIRE_SYM(ct_tensor_remove_hook);
    ct_tensor t;
    long long id;
    if (!PyArg_ParseTuple(args, "O&L", conv_tensor, &t, &id)) return NULL;
    CT_TRY(ct_tensor_remove_hook(t, id));
    Py_RETURN_NONE;
}

static PyMethodDef autograd_functions[] = {
    {"register_hook", py_register_hook, METH_VARARGS, "register_hook(t, fn) -> id"},
    {"remove_hook", py_remove_hook, METH_VARARGS, "remove_hook(t, id)"},
    {"backward", py_backward, METH_VARARGS, "backward(t, grad_output=None, retain_graph=False, create_graph=False)"},
    {"autograd_grad", py_autograd_grad, METH_VARARGS, "Gradients of outputs w.r.t. inputs."},
    {"custom_function_apply", py_custom_function_apply, METH_VARARGS, "Attaches outputs to a Python backward."},
    {NULL, NULL, 0, NULL}};

int init_autograd(PyObject* m) { return add_functions(m, autograd_functions); }
