/* amp.c - ctensor._C's mixed-precision functions (issue 15): the autocast region state and the two gradient
 * scaler steps, each a direct call of its ct_autocast_* / ct_amp_* function. */
#include "ctmodule.h"

static PyObject* py_autocast_set_enabled(PyObject* m, PyObject* args) {
    int device_type, enabled;
    if (!PyArg_ParseTuple(args, "ip", &device_type, &enabled)) return NULL;
    int32_t prev = 0;
    CT_TRY(ct_autocast_set_enabled(device_type, enabled, &prev));
    return PyBool_FromLong(prev);
}

static PyObject* py_autocast_is_enabled(PyObject* m, PyObject* arg) {
    long device_type = PyLong_AsLong(arg);
    if (device_type == -1 && PyErr_Occurred()) return NULL;
    int32_t enabled = 0;
    CT_TRY(ct_autocast_is_enabled((int32_t)device_type, &enabled));
    return PyBool_FromLong(enabled);
}

static PyObject* py_autocast_set_dtype(PyObject* m, PyObject* args) {
    int device_type, dtype;
    if (!PyArg_ParseTuple(args, "ii", &device_type, &dtype)) return NULL;
    ct_dtype prev = 0;
    CT_TRY(ct_autocast_set_dtype(device_type, dtype, &prev));
    return PyLong_FromLong(prev);
}

static PyObject* py_autocast_get_dtype(PyObject* m, PyObject* arg) {
    long device_type = PyLong_AsLong(arg);
    if (device_type == -1 && PyErr_Occurred()) return NULL;
    ct_dtype dtype = 0;
    CT_TRY(ct_autocast_get_dtype((int32_t)device_type, &dtype));
    return PyLong_FromLong(dtype);
}

static PyObject* py_autocast_set_cache_enabled(PyObject* m, PyObject* arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    return PyBool_FromLong(ct_autocast_set_cache_enabled(on));
}

static PyObject* py_autocast_is_cache_enabled(PyObject* m, PyObject* unused) {
    return PyBool_FromLong(ct_autocast_is_cache_enabled());
}
static PyObject* py_autocast_increment_nesting(PyObject* m, PyObject* unused) {
    return PyLong_FromLong(ct_autocast_increment_nesting());
}
static PyObject* py_autocast_decrement_nesting(PyObject* m, PyObject* unused) {
    return PyLong_FromLong(ct_autocast_decrement_nesting());
}
static PyObject* py_autocast_clear_cache(PyObject* m, PyObject* unused) {
    ct_autocast_clear_cache();
    Py_RETURN_NONE;
}
static PyObject* py_autocast_cache_size(PyObject* m, PyObject* unused) {
    return PyLong_FromLongLong(ct_autocast_cache_size());
}

static PyObject* py_autocast_policy(PyObject* m, PyObject* args) {
    const char* op;
    int device_type;
    if (!PyArg_ParseTuple(args, "si", &op, &device_type)) return NULL;
    int32_t policy = 0;
    CT_TRY(ct_autocast_policy(op, device_type, &policy));
    return PyLong_FromLong(policy);
}

static PyObject* py_amp_non_finite_check_and_unscale_(PyObject* m, PyObject* args) {
    PyObject* seq_obj;
    ct_tensor found_inf, inv_scale;
    if (!PyArg_ParseTuple(args, "OO&O&", &seq_obj, conv_tensor, &found_inf, conv_tensor, &inv_scale)) return NULL;
    ct_tensor* hs = NULL;
    Py_ssize_t n = 0;
    PyObject* keep = NULL;
    if (tensor_seq(seq_obj, &hs, &n, &keep) < 0) return NULL;
    if (n > INT32_MAX) {
        PyMem_Free(hs);
        Py_XDECREF(keep);
        return PyErr_Format(PyExc_ValueError, "_amp_foreach_non_finite_check_and_unscale_: too many tensors");
    }
    ct_status st = ct_amp_non_finite_check_and_unscale_(hs, (int32_t)n, found_inf, inv_scale);
    PyMem_Free(hs);
    Py_XDECREF(keep);
    CT_TRY(st);
    Py_RETURN_NONE;
}

static PyObject* py_amp_update_scale_(PyObject* m, PyObject* args) {
    ct_tensor scale, tracker, found_inf;
    double growth, backoff;
    long long interval;
    if (!PyArg_ParseTuple(args, "O&O&O&ddL", conv_tensor, &scale, conv_tensor, &tracker, conv_tensor, &found_inf,
                          &growth, &backoff, &interval))
        return NULL;
    CT_TRY(ct_amp_update_scale_(scale, tracker, found_inf, growth, backoff, (int64_t)interval));
    Py_RETURN_NONE;
}

static PyMethodDef amp_functions[] = {
    {"autocast_set_enabled", py_autocast_set_enabled, METH_VARARGS, "(device_type, on): returns the old state."},
    {"autocast_is_enabled", py_autocast_is_enabled, METH_O, "Whether this thread is in device_type's region."},
    {"autocast_set_dtype", py_autocast_set_dtype, METH_VARARGS, "(device_type, dtype code): returns the old one."},
    {"autocast_get_dtype", py_autocast_get_dtype, METH_O, "The region's dtype code for device_type."},
    {"autocast_set_cache_enabled", py_autocast_set_cache_enabled, METH_O, "Returns the old setting."},
    {"autocast_is_cache_enabled", py_autocast_is_cache_enabled, METH_NOARGS, "Whether the cast cache is on."},
    {"autocast_increment_nesting", py_autocast_increment_nesting, METH_NOARGS, "Returns the new depth."},
    {"autocast_decrement_nesting", py_autocast_decrement_nesting, METH_NOARGS, "Returns the new depth (0 clears)."},
    {"autocast_clear_cache", py_autocast_clear_cache, METH_NOARGS, "Drops this thread's cached casts."},
    {"autocast_cache_size", py_autocast_cache_size, METH_NOARGS, "Number of cached casts (tests)."},
    {"autocast_policy", py_autocast_policy, METH_VARARGS, "(op, device_type): the CT_AUTOCAST_* code."},
    {"amp_non_finite_check_and_unscale_", py_amp_non_finite_check_and_unscale_, METH_VARARGS,
     "(grads, found_inf, inv_scale): unscale in place, flag infs/NaNs."},
    {"amp_update_scale_", py_amp_update_scale_, METH_VARARGS,
     "(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval), in place."},
    {NULL, NULL, 0, NULL}};

int init_amp(PyObject* m) { return add_functions(m, amp_functions); }
