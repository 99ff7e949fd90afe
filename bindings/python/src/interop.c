/* interop.c - zero-copy exchange with other Python libraries: tensors over any strided buffer exporter
 * (NumPy arrays, kept alive until the tensor storage dies) and DLPack capsules in both directions
 * (legacy "dltensor" and versioned "dltensor_versioned"). */
#include <dlpack/dlpack.h>
#include <string.h>

#include "ctmodule.h"

static int interpreter_alive(void) {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsInitialized() && !Py_IsFinalizing();
#else
    return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

/* ---- buffers (NumPy) ----------------------------------------------------------------------------- */

/* ctensor dtype of a struct-module format with the given item size; -1 when unsupported. */
static ct_dtype dtype_of_format(const char* fmt, Py_ssize_t itemsize) {
    if (!fmt) return CT_UINT8;
    if (*fmt == '@' || *fmt == '=' || (*fmt == '<' && PY_LITTLE_ENDIAN) || (*fmt == '>' && PY_BIG_ENDIAN)) ++fmt;
    if (fmt[0] == 'Z' && strlen(fmt) == 2) /* NumPy complex64 / complex128 */
        return fmt[1] == 'f' && itemsize == 8 ? CT_COMPLEX64 : fmt[1] == 'd' && itemsize == 16 ? CT_COMPLEX128 : -1;
    if (strlen(fmt) != 1) return -1;
    switch (*fmt) {
        case 'f': return itemsize == 4 ? CT_FLOAT32 : -1;
        case 'd': return itemsize == 8 ? CT_FLOAT64 : -1;
        case 'i':
        case 'l':
        case 'q': return itemsize == 4 ? CT_INT32 : itemsize == 8 ? CT_INT64 : -1;
        case 'B': return itemsize == 1 ? CT_UINT8 : -1;
        case '?': return itemsize == 1 ? CT_BOOL : -1;
        case 'e': return itemsize == 2 ? CT_FLOAT16 : -1;
        case 'b': return itemsize == 1 ? CT_INT8 : -1;
        case 'h': return itemsize == 2 ? CT_INT16 : -1;
        default: return -1;
    }
}

/* Deleter of a tensor over a Python buffer: releases the buffer (and its exporter) with the GIL. */
static void release_py_buffer(void* data, void* ctx) {
    Py_buffer* view = ctx;
    if (!interpreter_alive()) return; /* shutdown: the interpreter reclaims the exporter */
    PyGILState_STATE gil = PyGILState_Ensure();
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    PyGILState_Release(gil);
}

/* Fills shape and element strides from view; -1 with ValueError for negative or misaligned strides. */
static int buffer_layout(const Py_buffer* view, int64_t* shape, int64_t* strides) {
    Py_ssize_t expected = view->itemsize;
    for (int i = view->ndim - 1; i >= 0; --i) {
        Py_ssize_t st = view->strides ? view->strides[i] : expected;
        shape[i] = view->shape[i];
        if (st < 0) {
            PyErr_SetString(PyExc_ValueError, "At least one stride in the given numpy array is negative, and tensors "
                                              "with negative strides are not currently supported. (You can probably "
                                              "work around this by making a copy of your array with array.copy().)");
            return -1;
        }
        if (st % view->itemsize) {
            PyErr_SetString(PyExc_ValueError, "given numpy array strides not a multiple of the element byte size. "
                                              "Copy the numpy array to reallocate the memory.");
            return -1;
        }
        strides[i] = st / view->itemsize;
        expected *= view->shape[i];
    }
    return 0;
}

/* from_buffer_shared(obj): a CPU tensor viewing obj's memory (no copy); obj stays alive with the tensor. */
static PyObject* py_from_buffer_shared(PyObject* m, PyObject* obj) {
    Py_buffer* view = PyMem_RawMalloc(sizeof(Py_buffer));
    if (!view) return PyErr_NoMemory();
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0) {
        PyMem_RawFree(view);
        return NULL;
    }
    ct_dtype dt = dtype_of_format(view->format, view->itemsize);
    int64_t small[32];
    int64_t* dims = view->ndim <= 16 ? small : PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)view->ndim);
    ct_tensor out = NULL;
    ct_status st = CT_OK;
    if (dt < 0)
        PyErr_Format(PyExc_TypeError, "can't convert an array with format '%s' (item size %zd); the supported "
                     "types are: float64, float32, int64, int32, uint8, and bool", view->format ? view->format : "B",
                     view->itemsize);
    else if (!dims) PyErr_NoMemory();
    else if (buffer_layout(view, dims, dims + view->ndim) == 0) {
        st = ct_tensor_from_blob(view->buf, dims, dims + view->ndim, view->ndim, dt, ct_cpu(), release_py_buffer,
                                 view, &out);
        if (st != CT_OK) raise_status(st);
    }
    if (dims && dims != small) PyMem_Free(dims);
    if (!out) { /* failure: we still own the buffer */
        PyBuffer_Release(view);
        PyMem_RawFree(view);
        return NULL;
    }
    return wrap_tensor(out);
}

/* ---- DLPack -------------------------------------------------------------------------------------- */

/* Capsule destructors: call the deleter only when no consumer took the tensor (name unchanged). They use
 * no interpreter state beyond the capsule itself, so they are safe during shutdown. */
static void legacy_capsule_destructor(PyObject* cap) {
    if (!PyCapsule_IsValid(cap, "dltensor")) return; /* consumed: renamed to "used_dltensor" */
    struct DLManagedTensor* mt = PyCapsule_GetPointer(cap, "dltensor");
    if (mt && mt->deleter) mt->deleter(mt);
}

static void versioned_capsule_destructor(PyObject* cap) {
    if (!PyCapsule_IsValid(cap, "dltensor_versioned")) return;
    struct DLManagedTensorVersioned* mt = PyCapsule_GetPointer(cap, "dltensor_versioned");
    if (mt && mt->deleter) mt->deleter(mt);
}

/* to_dlpack(t, versioned) -> capsule */
static PyObject* py_to_dlpack(PyObject* m, PyObject* args) {
    ct_tensor t;
    int versioned = 0;
    if (!PyArg_ParseTuple(args, "O&|p", conv_tensor, &t, &versioned)) return NULL;
    if (versioned) {
        REQUIRE_SYM(ct_to_dlpack_versioned);
        struct DLManagedTensorVersioned* mt = NULL;
        CT_TRY(ct_to_dlpack_versioned(t, &mt));
        PyObject* cap = PyCapsule_New(mt, "dltensor_versioned", versioned_capsule_destructor);
        if (!cap) mt->deleter(mt);
        return cap;
    }
    REQUIRE_SYM(ct_to_dlpack);
    struct DLManagedTensor* mt = NULL;
    CT_TRY(ct_to_dlpack(t, &mt));
    PyObject* cap = PyCapsule_New(mt, "dltensor", legacy_capsule_destructor);
    if (!cap) mt->deleter(mt);
    return cap;
}

/* from_dlpack_capsule(capsule) -> Tensor; marks the capsule used on success (ctensor then owns the tensor). */
static PyObject* py_from_dlpack_capsule(PyObject* m, PyObject* cap) {
    ct_tensor out = NULL;
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        REQUIRE_SYM(ct_from_dlpack_versioned);
        struct DLManagedTensorVersioned* mt = PyCapsule_GetPointer(cap, "dltensor_versioned");
        CT_TRY(ct_from_dlpack_versioned(mt, &out));
        PyCapsule_SetName(cap, "used_dltensor_versioned");
    } else if (PyCapsule_IsValid(cap, "dltensor")) {
        REQUIRE_SYM(ct_from_dlpack);
        struct DLManagedTensor* mt = PyCapsule_GetPointer(cap, "dltensor");
        CT_TRY(ct_from_dlpack(mt, &out));
        PyCapsule_SetName(cap, "used_dltensor");
    } else if (PyCapsule_CheckExact(cap)) {
        const char* name = PyCapsule_GetName(cap);
        if (!name && PyErr_Occurred()) return NULL;
        return PyErr_Format(PyExc_ValueError,
                            name && !strncmp(name, "used_", 5)
                                ? "from_dlpack: the DLPack capsule was already consumed"
                                : "from_dlpack: expected a capsule named 'dltensor' or 'dltensor_versioned', got '%s'",
                            name ? name : "(null)");
    } else {
        return PyErr_Format(PyExc_TypeError, "from_dlpack: expected a DLPack capsule, got %.100s",
                            Py_TYPE(cap)->tp_name);
    }
    return wrap_tensor(out);
}

static PyMethodDef interop_functions[] = {
    {"from_buffer_shared", py_from_buffer_shared, METH_O, "Zero-copy CPU tensor over a buffer exporter."},
    {"to_dlpack", py_to_dlpack, METH_VARARGS, "to_dlpack(t, versioned=False) -> capsule"},
    {"from_dlpack_capsule", py_from_dlpack_capsule, METH_O, "Imports a DLPack capsule."},
    {NULL, NULL, 0, NULL}};

int init_interop(PyObject* m) {
    PyModule_AddIntConstant(m, "DLPACK_MAJOR_VERSION", DLPACK_MAJOR_VERSION);
    PyModule_AddIntConstant(m, "DLPACK_MINOR_VERSION", DLPACK_MINOR_VERSION);
    return add_functions(m, interop_functions);
}
