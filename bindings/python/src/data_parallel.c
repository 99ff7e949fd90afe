/* data_parallel.c - ctensor._C.DataParallel: the C ABI's gradient reducer (ct_data_parallel_*), which
 * ctensor.nn.parallel.DistributedDataParallel drives. Calls that may wait for other ranks release the GIL; the
 * object owns one reference to its handle, released (after the reductions in flight) on dealloc. */
#include "ctmodule.h"

typedef struct {
    PyObject_HEAD
    ct_data_parallel h;
} DataParallelObject;

static PyTypeObject DataParallel_Type;

#define DP(self) (((DataParallelObject*)(self))->h)

/* Borrowed handles of a sequence of Tensors in a PyMem buffer (free with PyMem_Free); NULL with an error set. */
static ct_tensor* tensor_handles(PyObject* obj, Py_ssize_t* n, const char* what) {
    PyObject* seq = PySequence_Fast(obj, what);
    if (!seq) return NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    ct_tensor* hs = PyMem_Malloc(sizeof(ct_tensor) * (size_t)(*n > 0 ? *n : 1));
    if (!hs) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; ++i) {
        PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
        if (!Tensor_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s: item %zd is %.100s, not a Tensor", what, i, Py_TYPE(item)->tp_name);
            PyMem_Free(hs);
            Py_DECREF(seq);
            return NULL;
        }
        hs[i] = TENSOR_H(item); /* borrowed: the caller's sequence keeps the Tensors alive during the call */
    }
    Py_DECREF(seq);
    return hs;
}

/* data_parallel_new(group, params, bucket_bytes) -> DataParallel (collective over group) */
static PyObject* py_data_parallel_new(PyObject* m, PyObject* args) {
    PyObject *group, *params;
    long long bucket_bytes;
    if (!PyArg_ParseTuple(args, "OOL", &group, &params, &bucket_bytes)) return NULL;
    REQUIRE_SYM(ct_data_parallel_new);
    ct_process_group g = group_handle(group);
    if (!g) return NULL;
    Py_ssize_t n = 0;
    ct_tensor* hs = tensor_handles(params, &n, "DistributedDataParallel: parameters");
    if (!hs) return NULL;
    if (n > INT32_MAX) {
        PyMem_Free(hs);
        return PyErr_Format(PyExc_ValueError, "DistributedDataParallel: too many parameters (%zd)", n);
    }
    ct_data_parallel dp = NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_data_parallel_new(g, hs, (int32_t)n, (int64_t)bucket_bytes, &dp);
    Py_END_ALLOW_THREADS
    PyMem_Free(hs);
    if (st != CT_OK) return raise_status(st);
    DataParallelObject* self = PyObject_New(DataParallelObject, &DataParallel_Type);
    if (!self) {
        ct_data_parallel_release(dp);
        return NULL;
    }
    self->h = dp;
    return (PyObject*)self;
}

static void dp_dealloc(PyObject* self) {
    ct_data_parallel h = DP(self);
    if (ct_data_parallel_release) {
        Py_BEGIN_ALLOW_THREADS ct_data_parallel_release(h); /* waits for reductions in flight */
        Py_END_ALLOW_THREADS
    }
    PyObject_Free(self);
}

static PyObject* dp_set_sync(PyObject* self, PyObject* arg) {
    int sync = PyObject_IsTrue(arg);
    if (sync < 0) return NULL;
    CT_TRY(ct_data_parallel_set_sync(DP(self), sync));
    Py_RETURN_NONE;
}

static PyObject* dp_finish(PyObject* self, PyObject* unused) {
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_data_parallel_finish(DP(self));
    Py_END_ALLOW_THREADS
    if (st != CT_OK) return raise_status(st);
    Py_RETURN_NONE;
}

/* prepare(outputs): the tensors the forward returned (find_unused_parameters) */
static PyObject* dp_prepare(PyObject* self, PyObject* outputs) {
    Py_ssize_t n = 0;
    ct_tensor* hs = tensor_handles(outputs, &n, "DistributedDataParallel: outputs");
    if (!hs) return NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_data_parallel_prepare(DP(self), hs, (int32_t)n);
    Py_END_ALLOW_THREADS
    PyMem_Free(hs);
    if (st != CT_OK) return raise_status(st);
    Py_RETURN_NONE;
}

static PyObject* dp_bucket_count(PyObject* self, PyObject* unused) {
    int32_t n = 0;
    CT_TRY(ct_data_parallel_bucket_count(DP(self), &n));
    return PyLong_FromLong(n);
}

static PyMethodDef dp_methods[] = {
    {"set_sync", dp_set_sync, METH_O, "False: later backwards accumulate locally (no_sync); True: average."},
    {"finish", dp_finish, METH_NOARGS, "Completes a reduction a backward left open (unused params count as zero)."},
    {"prepare", dp_prepare, METH_O, "prepare(outputs): params unreachable from outputs count as unused."},
    {"bucket_count", dp_bucket_count, METH_NOARGS, "Number of gradient buckets."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject DataParallel_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.DataParallel",
    .tp_basicsize = sizeof(DataParallelObject),
    .tp_dealloc = dp_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Averages the gradients of parameters over a process group during backward (data_parallel_new).",
    .tp_methods = dp_methods,
};

static PyMethodDef data_parallel_functions[] = {
    {"data_parallel_new", py_data_parallel_new, METH_VARARGS,
     "data_parallel_new(group, params, bucket_bytes) -> DataParallel (broadcasts params from rank 0)"},
    {NULL, NULL, 0, NULL}};

int init_data_parallel(PyObject* m) {
    if (PyType_Ready(&DataParallel_Type) < 0) return -1;
    Py_INCREF(&DataParallel_Type);
    if (PyModule_AddObject(m, "DataParallel", (PyObject*)&DataParallel_Type) < 0) return -1;
    return add_functions(m, data_parallel_functions);
}
