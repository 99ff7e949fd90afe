/* module.c - ctensor._C module init (ABI check), the status -> exception helper, argument converters and
 * library-level functions (versions, threads, grad mode, seeds, CUDA info, live handles). */
#include "ctmodule.h"

PyObject* g_convert_hook = NULL;

PyObject* raise_status(ct_status status) {
    PyObject* exc;
    switch (status) {
        case CT_ERR_INVALID_ARGUMENT:
        case CT_ERR_SHAPE: exc = PyExc_ValueError; break;
        case CT_ERR_DTYPE: exc = PyExc_TypeError; break;
        case CT_ERR_INDEX: exc = PyExc_IndexError; break;
        case CT_ERR_OUT_OF_MEMORY: exc = PyExc_MemoryError; break;
        case CT_ERR_NOT_SUPPORTED: exc = PyExc_NotImplementedError; break;
        case CT_ERR_IO: exc = PyExc_OSError; break;
        case CT_ERR_DISTRIBUTED: exc = PyExc_RuntimeError; break; /* a failed collective (torch: DistBackendError, a RuntimeError) */
        default: exc = PyExc_RuntimeError; break; /* handle, device, autograd, internal, callback, ... */
    }
    const char* msg = ct_last_error();
    if (!msg || !*msg) msg = ct_status_name(status);
    PyErr_SetString(exc, msg);
    return NULL;
}

int raise_status_int(ct_status status) {
    raise_status(status);
    return -1;
}

PyObject* raise_missing(const char* symbol) {
    PyErr_Format(PyExc_NotImplementedError, "%s is not exported by the loaded libctensor", symbol);
    return NULL;
}

int add_functions(PyObject* m, PyMethodDef* defs) {
    return PyModule_AddFunctions(m, defs);
}

/* ---- argument converters ------------------------------------------------------------------------- */

static int is_python_scalar(PyObject* o, double* value, int* is_int) {
    if (PyBool_Check(o) || PyLong_Check(o)) {
        double v = PyLong_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) return -1;
        *value = v;
        *is_int = 1;
        return 1;
    }
    if (PyFloat_Check(o)) {
        *value = PyFloat_AS_DOUBLE(o);
        *is_int = 0;
        return 1;
    }
    return 0;
}

/* A 0-d int64 tensor holding the Python int o exactly (for |o| > 2**53, where a double would round it). It is not
 * a wrapped number, but a 0-d tensor promotes the same way against dimensioned tensors. Returns -1 with an
 * exception set when o does not fit in int64. */
static ct_status exact_int_tensor(PyObject* o, ct_tensor* out) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    int64_t value = (int64_t)v;
    return ct_tensor_from_data(&value, (int64_t)sizeof value, NULL, 0, CT_INT64, ct_cpu(), out);
}

int targ_convert(PyObject* o, TArg* a) {
    a->h = NULL;
    a->owned = 0;
    a->keep = NULL;
    if (Tensor_Check(o)) {
        a->h = TENSOR_H(o);
        return 1;
    }
    if (PyBool_Check(o)) { /* a wrapped bool: never changes a tensor's dtype (bool_t + True stays bool, as torch) */
        if (!ct_wrapped_scalar_bool) {
            raise_missing("ct_wrapped_scalar_bool");
            return -1;
        }
        ct_status st = ct_wrapped_scalar_bool(o == Py_True, &a->h);
        if (st != CT_OK) return raise_status_int(st);
        a->owned = 1;
        return 1;
    }
    double v;
    int is_int;
    int r = is_python_scalar(o, &v, &is_int);
    if (r < 0) return -1;
    if (r > 0) {
        ct_status st = is_int && (v > 9007199254740992.0 || v < -9007199254740992.0)
                           ? exact_int_tensor(o, &a->h)
                           : ct_wrapped_scalar(v, is_int, &a->h);
        if (st == -1) return -1;
        if (st != CT_OK) return raise_status_int(st);
        a->owned = 1;
        return 1;
    }
    if (PyComplex_Check(o)) { /* a wrapped complex number: the core promotes it as torch (complex64 / complex128) */
        if (!ct_wrapped_scalar_complex) {
            raise_missing("ct_wrapped_scalar_complex");
            return -1;
        }
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred()) return -1;
        ct_status st = ct_wrapped_scalar_complex(c.real, c.imag, &a->h);
        if (st != CT_OK) return raise_status_int(st);
        a->owned = 1;
        return 1;
    }
    if (g_convert_hook && o != Py_None) { /* NumPy arrays and scalars, via the Python layer */
        PyObject* t = PyObject_CallOneArg(g_convert_hook, o);
        if (!t) return -1;
        if (t == Py_NotImplemented) {
            Py_DECREF(t);
            return 0;
        }
        if (!Tensor_Check(t)) {
            Py_DECREF(t);
            return 0;
        }
        a->keep = t;
        a->h = TENSOR_H(t);
        return 1;
    }
    return 0;
}

int targ_require(PyObject* o, TArg* a, const char* what) {
    int r = targ_convert(o, a);
    if (r < 0) return -1;
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a Tensor or a number, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

void targ_release(TArg* a) {
    if (a->owned) ct_tensor_release(a->h);
    Py_CLEAR(a->keep);
    a->h = NULL;
    a->owned = 0;
}

int conv_tensor(PyObject* o, void* out) {
    if (!Tensor_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected a Tensor, got %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    *(ct_tensor*)out = TENSOR_H(o);
    return 1;
}

int conv_opt_tensor(PyObject* o, void* out) {
    if (o == Py_None) {
        *(ct_tensor*)out = NULL;
        return 1;
    }
    return conv_tensor(o, out);
}

int dims_parse(PyObject* o, Dims* d, int allow_none, const char* what) {
    d->v = d->small;
    d->n = 0;
    d->is_none = 0;
    if (o == Py_None) {
        if (allow_none) {
            d->is_none = 1;
            return 0;
        }
        PyErr_Format(PyExc_TypeError, "%s must not be None", what);
        return -1;
    }
    if (PyIndex_Check(o) && !Tensor_Check(o)) {
        Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred()) return -1;
        d->small[0] = (int64_t)v;
        d->n = 1;
        return 0;
    }
    PyObject* seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or a sequence of ints, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 16) {
        d->v = PyMem_Malloc(sizeof(int64_t) * (size_t)n);
        if (!d->v) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t v = PyIndex_Check(item) ? PyNumber_AsSsize_t(item, PyExc_OverflowError) : -1;
        if (!PyIndex_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s must contain ints, got %.100s", what, Py_TYPE(item)->tp_name);
        }
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            dims_free(d);
            return -1;
        }
        d->v[i] = (int64_t)v;
    }
    d->n = (int32_t)n;
    Py_DECREF(seq);
    return 0;
}

void dims_free(Dims* d) {
    if (d->v && d->v != d->small) PyMem_Free(d->v);
    d->v = d->small;
    d->n = 0;
}

int parse_device(PyObject* o, ct_device* dev) {
    int type, index;
    if (!PyArg_ParseTuple(o, "ii;device must be a (type, index) tuple", &type, &index)) return -1;
    dev->type = type;
    dev->index = index;
    return 0;
}

PyObject* device_tuple(ct_device dev) { return Py_BuildValue("(ii)", dev.type, dev.index); }

/* ---- library-level functions --------------------------------------------------------------------- */

static PyObject* py_live_handles(PyObject* m, PyObject* unused) { return PyLong_FromLongLong(ct_live_handles()); }
static PyObject* py_version(PyObject* m, PyObject* unused) { return PyLong_FromLong(ct_version()); }
static PyObject* py_abi_version(PyObject* m, PyObject* unused) { return PyLong_FromLong(ct_abi_version()); }

static PyObject* py_set_num_threads(PyObject* m, PyObject* arg) {
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    CT_TRY(ct_set_num_threads((int32_t)n));
    Py_RETURN_NONE;
}
static PyObject* py_get_num_threads(PyObject* m, PyObject* unused) { return PyLong_FromLong(ct_get_num_threads()); }

static PyObject* py_set_grad_enabled(PyObject* m, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    int32_t prev = 0;
    CT_TRY(ct_set_grad_enabled(on, &prev));
    return PyBool_FromLong(prev);
}
static PyObject* py_is_grad_enabled(PyObject* m, PyObject* unused) { return PyBool_FromLong(ct_is_grad_enabled()); }

static PyObject* py_manual_seed(PyObject* m, PyObject* arg) {
    REQUIRE_SYM(ct_manual_seed);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    CT_TRY(ct_manual_seed((uint64_t)seed));
    Py_RETURN_NONE;
}

static PyObject* py_cuda_device_count(PyObject* m, PyObject* unused) {
    return PyLong_FromLong(ct_cuda_device_count());
}
static PyObject* py_cuda_is_available(PyObject* m, PyObject* unused) {
    char reason[512] = {0};
    int32_t ok = ct_cuda_is_available(reason, (int32_t)sizeof reason);
    return Py_BuildValue("(Os)", ok ? Py_True : Py_False, reason);
}

static PyObject* py_cuda_synchronize(PyObject* m, PyObject* arg) {
    REQUIRE_SYM(ct_cuda_synchronize);
    long dev = PyLong_AsLong(arg);
    if (dev == -1 && PyErr_Occurred()) return NULL;
    CT_TRY(ct_cuda_synchronize((int32_t)dev));
    Py_RETURN_NONE;
}
/* (allocated, reserved, peak) bytes of one device's caching allocator. */
static PyObject* py_cuda_memory_stats(PyObject* m, PyObject* arg) {
    REQUIRE_SYM(ct_cuda_memory_stats);
    long dev = PyLong_AsLong(arg);
    if (dev == -1 && PyErr_Occurred()) return NULL;
    int64_t allocated = 0, reserved = 0, peak = 0;
    CT_TRY(ct_cuda_memory_stats((int32_t)dev, &allocated, &reserved, &peak));
    return Py_BuildValue("(LLL)", (long long)allocated, (long long)reserved, (long long)peak);
}
static PyObject* py_cuda_empty_cache(PyObject* m, PyObject* unused) {
    REQUIRE_SYM(ct_cuda_empty_cache);
    CT_TRY(ct_cuda_empty_cache());
    Py_RETURN_NONE;
}

/* Sets the CPU memory limit in bytes (-1 or None: no limit). */
static PyObject* py_set_cpu_memory_limit(PyObject* m, PyObject* arg) {
    REQUIRE_SYM(ct_set_cpu_memory_limit);
    long long bytes = arg == Py_None ? -1 : PyLong_AsLongLong(arg);
    if (bytes == -1 && PyErr_Occurred()) return NULL;
    CT_TRY(ct_set_cpu_memory_limit((int64_t)bytes));
    Py_RETURN_NONE;
}
/* (allocated, cached, limit) bytes of CPU memory; limit -1 when there is none. */
static PyObject* py_cpu_memory_stats(PyObject* m, PyObject* unused) {
    REQUIRE_SYM(ct_cpu_memory_stats);
    int64_t allocated = 0, cached = 0, limit = -1;
    CT_TRY(ct_cpu_memory_stats(&allocated, &cached, &limit));
    return Py_BuildValue("(LLL)", (long long)allocated, (long long)cached, (long long)limit);
}

static PyObject* py_status_name(PyObject* m, PyObject* arg) {
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(ct_status_name((ct_status)s));
}

/* Raises the exception the binding maps `status` to, with `message` (used by tests of the mapping). */
static PyObject* py_raise_status(PyObject* m, PyObject* args) {
    int s;
    const char* msg;
    if (!PyArg_ParseTuple(args, "is", &s, &msg)) return NULL;
    ct_set_error((ct_status)s, msg);
    return raise_status((ct_status)s);
}

static PyObject* py_dtype_name(PyObject* m, PyObject* arg) {
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(ct_dtype_name((ct_dtype)d));
}

static PyObject* py_set_convert_hook(PyObject* m, PyObject* fn) {
    Py_XSETREF(g_convert_hook, fn == Py_None ? NULL : Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* instancemethod(f): makes a builtin function bind as a method when stored on a class (self -> first arg). */
static PyObject* py_instancemethod(PyObject* m, PyObject* fn) { return PyInstanceMethod_New(fn); }

static PyMethodDef module_functions[] = {
    {"instancemethod", py_instancemethod, METH_O, "Wraps a callable so that it binds as a method."},
    {"live_handles", py_live_handles, METH_NOARGS, "Number of live ctensor handles (leak checks)."},
    {"version", py_version, METH_NOARGS, "Runtime library version (major*10000 + minor*100 + patch)."},
    {"abi_version", py_abi_version, METH_NOARGS, "ABI major version of the loaded library."},
    {"set_num_threads", py_set_num_threads, METH_O, "Sets the thread budget."},
    {"get_num_threads", py_get_num_threads, METH_NOARGS, "The thread budget."},
    {"set_grad_enabled", py_set_grad_enabled, METH_O, "Sets this thread's grad mode; returns the old one."},
    {"is_grad_enabled", py_is_grad_enabled, METH_NOARGS, "This thread's grad mode."},
    {"manual_seed", py_manual_seed, METH_O, "Reseeds the default generator."},
    {"cuda_device_count", py_cuda_device_count, METH_NOARGS, "Number of usable CUDA devices."},
    {"cuda_is_available", py_cuda_is_available, METH_NOARGS, "(available, reason)."},
    {"cuda_synchronize", py_cuda_synchronize, METH_O, "Waits for a device's queued work."},
    {"cuda_memory_stats", py_cuda_memory_stats, METH_O, "(allocated, reserved, peak) bytes on a device."},
    {"cuda_empty_cache", py_cuda_empty_cache, METH_NOARGS, "Returns cached device memory to the driver."},
    {"set_cpu_memory_limit", py_set_cpu_memory_limit, METH_O, "Caps CPU tensor memory in bytes (None: no cap)."},
    {"cpu_memory_stats", py_cpu_memory_stats, METH_NOARGS, "(allocated, cached, limit) bytes of CPU memory."},
    {"status_name", py_status_name, METH_O, "Name of a status code."},
    {"dtype_name", py_dtype_name, METH_O, "Name of a dtype code."},
    {"_raise_status", py_raise_status, METH_VARARGS, "Raises the exception mapped from a status."},
    {"_set_convert_hook", py_set_convert_hook, METH_O, "Registers the foreign-operand converter."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "ctensor._C",
                                       "Low-level binding of the ctensor C ABI.", -1, NULL};

static int check_abi(void) {
    if (!ct_check_abi) {
        PyErr_SetString(PyExc_ImportError, "libctensor does not export ct_check_abi");
        return -1;
    }
    ct_status st = ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR);
    if (st != CT_OK) {
        PyErr_Format(PyExc_ImportError, "ctensor: incompatible libctensor: %s", ct_last_error());
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__C(void) {
    if (check_abi() < 0) return NULL;
    PyObject* m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (add_functions(m, module_functions) < 0 || init_tensor_type(m) < 0 || init_ops(m) < 0 || init_autograd(m) < 0 || init_interop(m) < 0 || init_handles(m) < 0 ||
        init_safetensors(m) < 0 || init_distributed(m) < 0 || init_data_parallel(m) < 0 ||
        init_nn_losses(m) < 0 || init_nn_rnn(m) < 0 || init_linalg(m) < 0 ||
        init_attention(m) < 0 || init_conv_nd(m) < 0 ||
        init_resample(m) < 0 || init_nn_norms(m) < 0 || init_amp(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "ABI_VERSION", CT_ABI_VERSION);
    PyModule_AddIntConstant(m, "VERSION_MINOR", CT_VERSION_MINOR);
    PyModule_AddIntConstant(m, "CT_FLOAT32", CT_FLOAT32);
    PyModule_AddIntConstant(m, "CT_FLOAT64", CT_FLOAT64);
    PyModule_AddIntConstant(m, "CT_INT32", CT_INT32);
    PyModule_AddIntConstant(m, "CT_INT64", CT_INT64);
    PyModule_AddIntConstant(m, "CT_UINT8", CT_UINT8);
    PyModule_AddIntConstant(m, "CT_BOOL", CT_BOOL);
    PyModule_AddIntConstant(m, "CT_FLOAT16", CT_FLOAT16);
    PyModule_AddIntConstant(m, "CT_BFLOAT16", CT_BFLOAT16);
    PyModule_AddIntConstant(m, "CT_INT8", CT_INT8);
    PyModule_AddIntConstant(m, "CT_INT16", CT_INT16);
    PyModule_AddIntConstant(m, "CT_COMPLEX64", CT_COMPLEX64);
    PyModule_AddIntConstant(m, "CT_COMPLEX128", CT_COMPLEX128);
    PyModule_AddIntConstant(m, "DEVICE_CPU", CT_DEVICE_CPU);
    PyModule_AddIntConstant(m, "DEVICE_CUDA", CT_DEVICE_CUDA);
    return m;
}
