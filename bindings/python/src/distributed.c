/* distributed.c - ctensor._C.ProcessGroup and Work: process groups and collectives of the C ABI
 * (ct_process_group_* / ct_all_reduce ...; ctensor.distributed gives them torch's names). Every call that may wait
 * for other ranks releases the GIL. Each object owns one reference to its handle, released on dealloc. */
#include "ctmodule.h"

typedef struct {
    PyObject_HEAD
    ct_process_group h;
} GroupObject;

typedef struct {
    PyObject_HEAD
    ct_work h;
} WorkObject;

static PyTypeObject Group_Type, Work_Type;

static PyObject* wrap_group(ct_process_group h) {
    GroupObject* self = PyObject_New(GroupObject, &Group_Type);
    if (!self) {
        ct_process_group_release(h);
        return NULL;
    }
    self->h = h;
    return (PyObject*)self;
}

static PyObject* wrap_work(ct_work h) {
    WorkObject* self = PyObject_New(WorkObject, &Work_Type);
    if (!self) {
        ct_work_release(h);
        return NULL;
    }
    self->h = h;
    return (PyObject*)self;
}

static void group_dealloc(PyObject* self) {
    if (ct_process_group_release) ct_process_group_release(((GroupObject*)self)->h);
    PyObject_Free(self);
}

static void work_dealloc(PyObject* self) {
    ct_work h = ((WorkObject*)self)->h;
    if (ct_work_release) {
        Py_BEGIN_ALLOW_THREADS ct_work_release(h); /* an unfinished work is waited for */
        Py_END_ALLOW_THREADS
    }
    PyObject_Free(self);
}

#define GROUP(self) (((GroupObject*)(self))->h)

/* Runs a blocking collective with the GIL released. */
#define BLOCKING(call)                               \
    do {                                             \
        ct_status st_;                               \
        Py_BEGIN_ALLOW_THREADS st_ = (call);         \
        Py_END_ALLOW_THREADS                         \
        if (st_ != CT_OK) return raise_status(st_);  \
    } while (0)

/* process_group_new_mpi() -> ProcessGroup: the world group of the MPI launch */
static PyObject* py_process_group_new_mpi(PyObject* m, PyObject* unused) {
    REQUIRE_SYM(ct_process_group_new_mpi);
    ct_process_group g = NULL;
    BLOCKING(ct_process_group_new_mpi(&g));
    return wrap_group(g);
}

static PyObject* group_new_subgroup(PyObject* self, PyObject* ranks_obj) {
    PyObject* seq = PySequence_Fast(ranks_obj, "new_group: ranks must be a sequence of ints");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int32_t* ranks = PyMem_Malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    if (!ranks) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        long r = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (r == -1 && PyErr_Occurred()) {
            PyMem_Free(ranks);
            Py_DECREF(seq);
            return NULL;
        }
        ranks[i] = (int32_t)r;
    }
    Py_DECREF(seq);
    ct_process_group g = NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_process_group_new_subgroup(GROUP(self), ranks, (int32_t)n, &g);
    Py_END_ALLOW_THREADS
    PyMem_Free(ranks);
    if (st != CT_OK) return raise_status(st);
    return wrap_group(g);
}

static PyObject* group_rank(PyObject* self, PyObject* unused) {
    int32_t r = -1;
    CT_TRY(ct_process_group_rank(GROUP(self), &r));
    return PyLong_FromLong(r);
}

static PyObject* group_size(PyObject* self, PyObject* unused) {
    int32_t n = 0;
    CT_TRY(ct_process_group_size(GROUP(self), &n));
    return PyLong_FromLong(n);
}

static PyObject* group_set_timeout(PyObject* self, PyObject* arg) {
    double s = PyFloat_AsDouble(arg);
    if (s == -1.0 && PyErr_Occurred()) return NULL;
    CT_TRY(ct_process_group_set_timeout(GROUP(self), s));
    Py_RETURN_NONE;
}

/* set_checks(enabled): False skips the agreement round trip (lower latency, no mismatch errors or timeouts) */
static PyObject* group_set_checks(PyObject* self, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    REQUIRE_SYM(ct_process_group_set_checks);
    CT_TRY(ct_process_group_set_checks(GROUP(self), on));
    Py_RETURN_NONE;
}

/* all_reduce(t, op, async_op) -> None or Work */
static PyObject* group_all_reduce(PyObject* self, PyObject* args) {
    ct_tensor t;
    int op, async_op;
    if (!PyArg_ParseTuple(args, "O&ip", conv_tensor, &t, &op, &async_op)) return NULL;
    if (!async_op) {
        BLOCKING(ct_all_reduce(GROUP(self), t, op));
        Py_RETURN_NONE;
    }
    ct_work w = NULL;
    CT_TRY(ct_all_reduce_async(GROUP(self), t, op, &w));
    return wrap_work(w);
}

/* broadcast(t, root, async_op) -> None or Work */
static PyObject* group_broadcast(PyObject* self, PyObject* args) {
    ct_tensor t;
    int root, async_op;
    if (!PyArg_ParseTuple(args, "O&ip", conv_tensor, &t, &root, &async_op)) return NULL;
    if (!async_op) {
        BLOCKING(ct_broadcast(GROUP(self), t, root));
        Py_RETURN_NONE;
    }
    ct_work w = NULL;
    CT_TRY(ct_broadcast_async(GROUP(self), t, root, &w));
    return wrap_work(w);
}

/* all_gather(t) -> Tensor [size, *t.shape] */
static PyObject* group_all_gather(PyObject* self, PyObject* args) {
    ct_tensor t, out = NULL;
    if (!PyArg_ParseTuple(args, "O&", conv_tensor, &t)) return NULL;
    BLOCKING(ct_all_gather(GROUP(self), t, &out));
    return wrap_tensor(out);
}

/* reduce_scatter(t, op) -> Tensor (this rank's chunk of dim 0) */
static PyObject* group_reduce_scatter(PyObject* self, PyObject* args) {
    ct_tensor t, out = NULL;
    int op;
    if (!PyArg_ParseTuple(args, "O&i", conv_tensor, &t, &op)) return NULL;
    BLOCKING(ct_reduce_scatter(GROUP(self), t, op, &out));
    return wrap_tensor(out);
}

static PyObject* group_barrier(PyObject* self, PyObject* unused) {
    BLOCKING(ct_barrier(GROUP(self)));
    Py_RETURN_NONE;
}

/* send(t, dst, tag) / recv(t, src, tag) */
static PyObject* group_send(PyObject* self, PyObject* args) {
    ct_tensor t;
    int peer, tag;
    if (!PyArg_ParseTuple(args, "O&ii", conv_tensor, &t, &peer, &tag)) return NULL;
    BLOCKING(ct_send(GROUP(self), t, peer, tag));
    Py_RETURN_NONE;
}

static PyObject* group_recv(PyObject* self, PyObject* args) {
    ct_tensor t;
    int peer, tag;
    if (!PyArg_ParseTuple(args, "O&ii", conv_tensor, &t, &peer, &tag)) return NULL;
    BLOCKING(ct_recv(GROUP(self), t, peer, tag));
    Py_RETURN_NONE;
}

static PyMethodDef group_methods[] = {
    {"new_subgroup", group_new_subgroup, METH_O, "A group of the given ranks (collective over this group)."},
    {"rank", group_rank, METH_NOARGS, "This process's rank (-1 when not a member)."},
    {"size", group_size, METH_NOARGS, "Number of ranks (0 when not a member)."},
    {"set_timeout", group_set_timeout, METH_O, "Timeout in seconds of later calls."},
    {"set_checks", group_set_checks, METH_O,
     "False: later collectives skip the agreement between ranks (lower latency; mismatches and absent ranks are "
     "no longer reported); True (the default) turns it back on."},
    {"all_reduce", group_all_reduce, METH_VARARGS, "all_reduce(t, op, async_op)"},
    {"broadcast", group_broadcast, METH_VARARGS, "broadcast(t, root, async_op)"},
    {"all_gather", group_all_gather, METH_VARARGS, "all_gather(t) -> Tensor [size, *t.shape]"},
    {"reduce_scatter", group_reduce_scatter, METH_VARARGS, "reduce_scatter(t, op) -> this rank's chunk"},
    {"barrier", group_barrier, METH_NOARGS, "Returns once every rank has called it."},
    {"send", group_send, METH_VARARGS, "send(t, dst, tag)"},
    {"recv", group_recv, METH_VARARGS, "recv(t, src, tag)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject Group_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.ProcessGroup",
    .tp_basicsize = sizeof(GroupObject),
    .tp_dealloc = group_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A group of processes that run collectives (made by process_group_new_mpi or new_subgroup).",
    .tp_methods = group_methods,
};

static PyObject* work_wait(PyObject* self, PyObject* unused) {
    BLOCKING(ct_work_wait(((WorkObject*)self)->h));
    Py_RETURN_TRUE;
}

static PyObject* work_is_completed(PyObject* self, PyObject* unused) {
    int32_t done = 0;
    CT_TRY(ct_work_is_completed(((WorkObject*)self)->h, &done));
    return PyBool_FromLong(done);
}

static PyMethodDef work_methods[] = {
    {"wait", work_wait, METH_NOARGS, "Waits for the collective; raises its error; returns True."},
    {"is_completed", work_is_completed, METH_NOARGS, "Whether the collective has finished."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject Work_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ctensor._C.Work",
    .tp_basicsize = sizeof(WorkObject),
    .tp_dealloc = work_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An asynchronous collective in flight.",
    .tp_methods = work_methods,
};

ct_process_group group_handle(PyObject* o) {
    if (!PyObject_TypeCheck(o, &Group_Type)) {
        PyErr_Format(PyExc_TypeError, "expected a ProcessGroup, got %.100s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    return GROUP(o);
}

static PyMethodDef distributed_functions[] = {
    {"process_group_new_mpi", py_process_group_new_mpi, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int init_distributed(PyObject* m) {
    if (PyType_Ready(&Group_Type) < 0 || PyType_Ready(&Work_Type) < 0) return -1;
    Py_INCREF(&Group_Type);
    if (PyModule_AddObject(m, "ProcessGroup", (PyObject*)&Group_Type) < 0) return -1;
    Py_INCREF(&Work_Type);
    if (PyModule_AddObject(m, "Work", (PyObject*)&Work_Type) < 0) return -1;
    return add_functions(m, distributed_functions);
}
