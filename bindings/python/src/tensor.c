/* tensor.c - the TensorBase type: owns one ct_tensor handle, exposes metadata, autograd state, repr and the
 * buffer protocol (zero-copy NumPy views of CPU tensors). ctensor.Tensor subclasses it in Python. */
#include "ctmodule.h"

PyTypeObject* g_tensor_class = &TensorBase_Type;

PyObject* wrap_tensor_as(PyTypeObject* cls, ct_tensor h) {
    if (!h) Py_RETURN_NONE;
    TensorObject* self = (TensorObject*)cls->tp_alloc(cls, 0);
    if (!self) {
        ct_tensor_release(h);
        return NULL;
    }
    self->h = h;
    return (PyObject*)self;
}

PyObject* wrap_tensor(ct_tensor h) { return wrap_tensor_as(g_tensor_class, h); }

static void tensor_dealloc(PyObject* self) {
    ct_tensor h = TENSOR_H(self);
    TENSOR_H(self) = NULL;
    ct_tensor_release(h);
    Py_TYPE(self)->tp_free(self);
}

/* TensorBase(other): a new object sharing other's handle (used for Parameter and subclass views). */
static PyObject* tensor_new(PyTypeObject* cls, PyObject* args, PyObject* kwargs) {
    PyObject* other;
    if (!PyArg_ParseTuple(args, "O!:Tensor", &TensorBase_Type, &other)) return NULL;
    return wrap_tensor_as(cls, ct_tensor_retain(TENSOR_H(other)));
}

static Py_hash_t tensor_hash(PyObject* self) {
    Py_hash_t h = (Py_hash_t)((uintptr_t)self >> 4);
    return h == -1 ? -2 : h;
}

/* ---- metadata ------------------------------------------------------------------------------------ */

static PyObject* int64_tuple(const int64_t* v, int32_t n) {
    PyObject* t = PyTuple_New(n);
    if (!t) return NULL;
    for (int32_t i = 0; i < n; ++i) {
        PyObject* x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

typedef ct_status (*dims_getter)(ct_tensor, int64_t*, int32_t, int32_t*);

static PyObject* get_dims(PyObject* self, dims_getter fn) {
    int64_t small[16];
    int32_t n = 0;
    CT_TRY(fn(TENSOR_H(self), small, 16, &n));
    if (n <= 16) return int64_tuple(small, n);
    int64_t* big = PyMem_Malloc(sizeof(int64_t) * (size_t)n);
    if (!big) return PyErr_NoMemory();
    ct_status st = fn(TENSOR_H(self), big, n, &n);
    PyObject* r = st == CT_OK ? int64_tuple(big, n) : raise_status(st);
    PyMem_Free(big);
    return r;
}

static PyObject* t_shape(PyObject* self, PyObject* u) { return get_dims(self, ct_tensor_shape); }

/* ctensor.Size (a tuple subclass registered by the package); plain tuples until then. */
static PyObject* g_size_class = NULL;

static PyObject* t_shape_prop(PyObject* self, void* c) {
    PyObject* dims = get_dims(self, ct_tensor_shape);
    if (!dims || !g_size_class) return dims;
    PyObject* size = PyObject_CallOneArg(g_size_class, dims);
    Py_DECREF(dims);
    return size;
}
static PyObject* t_stride(PyObject* self, PyObject* u) { return get_dims(self, ct_tensor_strides); }

static PyObject* t_ndim(PyObject* self, void* c) {
    int32_t n;
    CT_TRY(ct_tensor_ndim(TENSOR_H(self), &n));
    return PyLong_FromLong(n);
}

static PyObject* t_numel(PyObject* self, PyObject* u) {
    int64_t n;
    CT_TRY(ct_tensor_numel(TENSOR_H(self), &n));
    return PyLong_FromLongLong(n);
}

static PyObject* t_dtype_code(PyObject* self, void* c) {
    ct_dtype d;
    CT_TRY(ct_tensor_dtype(TENSOR_H(self), &d));
    return PyLong_FromLong(d);
}

static PyObject* t_device_tuple(PyObject* self, void* c) {
    ct_device d;
    CT_TRY(ct_tensor_device(TENSOR_H(self), &d));
    return device_tuple(d);
}

static PyObject* t_storage_offset(PyObject* self, PyObject* u) {
    int64_t off;
    CT_TRY(ct_tensor_offset(TENSOR_H(self), &off));
    return PyLong_FromLongLong(off);
}

static PyObject* t_is_contiguous(PyObject* self, PyObject* u) {
    int32_t c;
    CT_TRY(ct_tensor_is_contiguous(TENSOR_H(self), &c));
    return PyBool_FromLong(c);
}

static PyObject* t_data_ptr(PyObject* self, PyObject* u) {
    void* p;
    CT_TRY(ct_tensor_data_ptr(TENSOR_H(self), &p));
    return PyLong_FromVoidPtr(p);
}

static PyObject* t_version(PyObject* self, void* c) {
    int64_t v;
    CT_TRY(ct_tensor_version(TENSOR_H(self), &v));
    return PyLong_FromLongLong(v);
}

static PyObject* t_shares_storage(PyObject* self, PyObject* other) {
    if (!Tensor_Check(other)) return PyErr_Format(PyExc_TypeError, "expected a Tensor");
    int32_t s;
    CT_TRY(ct_tensor_shares_storage(TENSOR_H(self), TENSOR_H(other), &s));
    return PyBool_FromLong(s);
}

static PyObject* t_handle(PyObject* self, void* c) { return PyLong_FromVoidPtr(TENSOR_H(self)); }

/* item(): Python float for floating dtypes, int for integer dtypes, bool for bool. */
static PyObject* t_item(PyObject* self, PyObject* u) {
    ct_dtype d;
    CT_TRY(ct_tensor_dtype(TENSOR_H(self), &d));
    if (d == CT_COMPLEX64 || d == CT_COMPLEX128) { /* a Python complex */
        double re, im;
        REQUIRE_SYM(ct_tensor_item_complex);
        CT_TRY(ct_tensor_item_complex(TENSOR_H(self), &re, &im));
        return PyComplex_FromDoubles(re, im);
    }
    if (CT_DTYPE_IS_FLOATING(d)) {
        double v;
        CT_TRY(ct_tensor_item(TENSOR_H(self), &v));
        return PyFloat_FromDouble(v);
    }
    int64_t v;
    CT_TRY(ct_tensor_item_int64(TENSOR_H(self), &v));
    return d == CT_BOOL ? PyBool_FromLong(v != 0) : PyLong_FromLongLong(v);
}

static PyObject* t_repr(PyObject* self) {
    if (!ct_tensor_to_string) { /* older library: a minimal description */
        ct_dtype d = 0;
        ct_tensor_dtype(TENSOR_H(self), &d);
        PyObject* shape = get_dims(self, ct_tensor_shape);
        if (!shape) return NULL;
        PyObject* r = PyUnicode_FromFormat("tensor(shape=%S, dtype=%s)", shape, ct_dtype_name(d));
        Py_DECREF(shape);
        return r;
    }
    char small[1024];
    int64_t len = 0;
    CT_TRY(ct_tensor_to_string(TENSOR_H(self), small, (int64_t)sizeof small, &len));
    if (len < (int64_t)sizeof small) return PyUnicode_FromStringAndSize(small, (Py_ssize_t)len);
    char* big = PyMem_Malloc((size_t)len + 1);
    if (!big) return PyErr_NoMemory();
    ct_status st = ct_tensor_to_string(TENSOR_H(self), big, len + 1, &len);
    PyObject* r = st == CT_OK ? PyUnicode_FromStringAndSize(big, (Py_ssize_t)len) : raise_status(st);
    PyMem_Free(big);
    return r;
}

/* ---- autograd state ------------------------------------------------------------------------------ */

static PyObject* t_get_requires_grad(PyObject* self, void* c) {
    int32_t r;
    CT_TRY(ct_tensor_requires_grad(TENSOR_H(self), &r));
    return PyBool_FromLong(r);
}

static int t_set_requires_grad(PyObject* self, PyObject* v, void* c) {
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete requires_grad");
        return -1;
    }
    int on = PyObject_IsTrue(v);
    if (on < 0) return -1;
    ct_status st = ct_tensor_set_requires_grad(TENSOR_H(self), on);
    return st == CT_OK ? 0 : raise_status_int(st);
}

static PyObject* t_get_grad(PyObject* self, void* c) {
    ct_tensor g = NULL;
    CT_TRY(ct_tensor_grad(TENSOR_H(self), &g));
    return wrap_tensor(g);
}

static int t_set_grad(PyObject* self, PyObject* v, void* c) {
    ct_tensor g = NULL;
    if (v && v != Py_None) {
        if (!Tensor_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "grad must be a Tensor or None");
            return -1;
        }
        g = TENSOR_H(v);
    }
    ct_status st = ct_tensor_set_grad(TENSOR_H(self), g);
    return st == CT_OK ? 0 : raise_status_int(st);
}

static PyObject* t_is_leaf(PyObject* self, void* c) {
    int32_t r;
    CT_TRY(ct_tensor_is_leaf(TENSOR_H(self), &r));
    return PyBool_FromLong(r);
}

static PyObject* t_grad_fn_name(PyObject* self, void* c) {
    char buf[256];
    int32_t len = 0;
    CT_TRY(ct_tensor_grad_fn_name(TENSOR_H(self), buf, (int32_t)sizeof buf, &len));
    if (len == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(buf); /* names are short; a longer one is truncated */
}

static PyObject* t_retain_grad(PyObject* self, PyObject* u) {
    CT_TRY(ct_tensor_retain_grad(TENSOR_H(self)));
    Py_RETURN_NONE;
}

/* ---- buffer protocol (CPU only) ------------------------------------------------------------------ */

static const char* buffer_format(ct_dtype d) {
    switch (d) {
        case CT_FLOAT32: return "f";
        case CT_FLOAT64: return "d";
        case CT_INT32: return "i";
        case CT_INT64: return "q";
        case CT_UINT8: return "B";
        case CT_BOOL: return "?";
        case CT_FLOAT16: return "e";
        case CT_INT8: return "b";
        case CT_INT16: return "h";
        case CT_COMPLEX64: return "Zf";
        case CT_COMPLEX128: return "Zd";
        default: return NULL; /* bfloat16: NumPy has no such type */
    }
}

static int fill_buffer_layout(ct_tensor h, Py_buffer* view, int32_t ndim, Py_ssize_t itemsize) {
    int64_t* tmp = PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)(ndim ? ndim : 1));
    Py_ssize_t* arr = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (size_t)(ndim ? ndim : 1));
    if (!tmp || !arr) {
        PyMem_Free(tmp);
        PyMem_Free(arr);
        PyErr_NoMemory();
        return -1;
    }
    int32_t n;
    ct_status st = ct_tensor_shape(h, tmp, ndim, &n);
    if (st == CT_OK) st = ct_tensor_strides(h, tmp + ndim, ndim, &n);
    if (st != CT_OK) {
        PyMem_Free(tmp);
        PyMem_Free(arr);
        return raise_status_int(st);
    }
    Py_ssize_t len = itemsize;
    for (int32_t i = 0; i < ndim; ++i) {
        arr[i] = (Py_ssize_t)tmp[i];
        arr[ndim + i] = (Py_ssize_t)(tmp[ndim + i] * itemsize);
        len *= arr[i];
    }
    PyMem_Free(tmp);
    view->len = len;
    view->shape = arr;
    view->strides = arr + ndim;
    view->internal = arr;
    return 0;
}

static int tensor_getbuffer(PyObject* self, Py_buffer* view, int flags) {
    ct_tensor h = TENSOR_H(self);
    ct_device dev;
    ct_dtype dt;
    int32_t ndim, contiguous;
    void* data;
    ct_status st = ct_tensor_device(h, &dev);
    if (st == CT_OK) st = ct_tensor_dtype(h, &dt);
    if (st == CT_OK) st = ct_tensor_ndim(h, &ndim);
    if (st == CT_OK) st = ct_tensor_is_contiguous(h, &contiguous);
    if (st == CT_OK) st = ct_tensor_data_ptr(h, &data);
    if (st != CT_OK) return raise_status_int(st);
    if (dev.type != CT_DEVICE_CPU) {
        PyErr_Format(PyExc_BufferError,
                     "can't convert cuda:%d device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                     "host memory first.", dev.index);
        return -1;
    }
    if (!contiguous && !(flags & PyBUF_STRIDES & ~PyBUF_ND)) {
        PyErr_SetString(PyExc_BufferError, "tensor is not contiguous; request a strided buffer");
        return -1;
    }
    static char empty_placeholder;
    view->obj = Py_NewRef(self);
    view->buf = data ? data : &empty_placeholder;
    view->readonly = 0;
    view->itemsize = ct_dtype_size(dt);
    view->format = (flags & PyBUF_FORMAT) ? (char*)buffer_format(dt) : NULL;
    view->ndim = ndim;
    view->suboffsets = NULL;
    if (fill_buffer_layout(h, view, ndim, view->itemsize) < 0) {
        Py_CLEAR(view->obj);
        return -1;
    }
    if (!(flags & PyBUF_ND)) view->shape = NULL;       /* simple request: a flat run of bytes */
    if (!(flags & PyBUF_STRIDES & ~PyBUF_ND)) view->strides = NULL; /* contiguous (checked above) */
    return 0;
}

static void tensor_releasebuffer(PyObject* self, Py_buffer* view) { PyMem_Free(view->internal); }

static PyBufferProcs tensor_as_buffer = {tensor_getbuffer, tensor_releasebuffer};

/* ---- type definition ----------------------------------------------------------------------------- */

static PyMethodDef tensor_methods[] = {
    {"_shape", t_shape, METH_NOARGS, "Sizes as a tuple."},
    {"stride", t_stride, METH_NOARGS, "Strides (in elements) as a tuple."},
    {"numel", t_numel, METH_NOARGS, "Number of elements."},
    {"storage_offset", t_storage_offset, METH_NOARGS, "Offset of the first element in the storage."},
    {"is_contiguous", t_is_contiguous, METH_NOARGS, "True if laid out row-major without gaps."},
    {"data_ptr", t_data_ptr, METH_NOARGS, "Address of the first element."},
    {"item", t_item, METH_NOARGS, "Value of a one-element tensor as a Python number."},
    {"retain_grad", t_retain_grad, METH_NOARGS, "Keeps the gradient of a non-leaf in backward."},
    {"_shares_storage", t_shares_storage, METH_O, "True if both tensors share storage."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef tensor_getset[] = {
    {"shape", t_shape_prop, NULL, "Sizes as a ctensor.Size.", NULL},
    {"ndim", t_ndim, NULL, "Rank.", NULL},
    {"_dtype_code", t_dtype_code, NULL, "ct_dtype value.", NULL},
    {"_device_tuple", t_device_tuple, NULL, "(device type, index).", NULL},
    {"_version", t_version, NULL, "In-place version counter.", NULL},
    {"_handle", t_handle, NULL, "Address of the ct_tensor handle.", NULL},
    {"requires_grad", t_get_requires_grad, t_set_requires_grad, "Whether autograd records ops on it.", NULL},
    {"grad", t_get_grad, t_set_grad, "Accumulated gradient or None.", NULL},
    {"is_leaf", t_is_leaf, NULL, "True for tensors not made by a recorded op.", NULL},
    {"_grad_fn_name", t_grad_fn_name, NULL, "Name of the grad_fn node or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject TensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.TensorBase",
    .tp_basicsize = sizeof(TensorObject),
    .tp_dealloc = tensor_dealloc,
    .tp_repr = t_repr,
    .tp_hash = tensor_hash,
    .tp_as_number = &tensor_as_number,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_richcompare = tensor_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base of ctensor.Tensor: one ctensor handle.",
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_new = tensor_new,
};

static PyObject* py_set_tensor_class(PyObject* m, PyObject* cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &TensorBase_Type))
        return PyErr_Format(PyExc_TypeError, "expected a subclass of TensorBase");
    Py_INCREF(cls);
    g_tensor_class = (PyTypeObject*)cls; /* kept for the life of the process */
    Py_RETURN_NONE;
}

static PyObject* py_set_size_class(PyObject* m, PyObject* cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &PyTuple_Type))
        return PyErr_Format(PyExc_TypeError, "expected a tuple subclass");
    Py_XSETREF(g_size_class, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyObject* py_wrap_as(PyObject* m, PyObject* args) {
    PyTypeObject* cls;
    PyObject* t;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &TensorBase_Type, &t)) return NULL;
    if (!PyType_IsSubtype(cls, &TensorBase_Type)) return PyErr_Format(PyExc_TypeError, "not a Tensor class");
    return wrap_tensor_as(cls, ct_tensor_retain(TENSOR_H(t)));
}

static PyMethodDef tensor_module_functions[] = {
    {"_set_tensor_class", py_set_tensor_class, METH_O, "Registers the class ops return."},
    {"_wrap_as", py_wrap_as, METH_VARARGS, "New object of class cls sharing t's handle."},
    {"_set_size_class", py_set_size_class, METH_O, "Registers the class of .shape."},
    {NULL, NULL, 0, NULL}};

int init_tensor_type(PyObject* m) {
    if (PyType_Ready(&TensorBase_Type) < 0) return -1;
    Py_INCREF(&TensorBase_Type);
    if (PyModule_AddObject(m, "TensorBase", (PyObject*)&TensorBase_Type) < 0) return -1;
    return add_functions(m, tensor_module_functions);
}
