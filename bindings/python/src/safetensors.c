/* safetensors.c - ctensor._C.save_safetensors / load_safetensors: named tensors and string metadata through a
 * ct_safetensors handle that lives only for the call (ctensor.save_file / load_file build on these). */
#include "ctmodule.h"

/* Text of a ct_safetensors_name / _metadata_key / _metadata_get call as a Python str (asks the length first). */
typedef ct_status (*text_fn)(ct_safetensors f, int32_t i, const char* key, char* buf, int32_t cap, int32_t* len);

static ct_status name_at(ct_safetensors f, int32_t i, const char* key, char* buf, int32_t cap, int32_t* len) {
    (void)key;
    return ct_safetensors_name(f, i, buf, cap, len);
}
static ct_status key_at(ct_safetensors f, int32_t i, const char* key, char* buf, int32_t cap, int32_t* len) {
    (void)key;
    return ct_safetensors_metadata_key(f, i, buf, cap, len);
}
static ct_status value_of(ct_safetensors f, int32_t i, const char* key, char* buf, int32_t cap, int32_t* len) {
    (void)i;
    return ct_safetensors_metadata_get(f, key, buf, cap, len);
}

static PyObject* text(text_fn fn, ct_safetensors f, int32_t i, const char* key) {
    int32_t len = 0;
    ct_status st = fn(f, i, key, NULL, 0, &len);
    if (st != CT_OK) return raise_status(st);
    char* buf = (char*)PyMem_Malloc((size_t)len + 1);
    if (!buf) return PyErr_NoMemory();
    st = fn(f, i, key, buf, len + 1, &len);
    PyObject* s = st == CT_OK ? PyUnicode_DecodeUTF8(buf, len, "strict") : raise_status(st);
    PyMem_Free(buf);
    return s;
}

/* save_safetensors(items: sequence of (name, Tensor), metadata: sequence of (key, value), path) */
static PyObject* py_save_safetensors(PyObject* m, PyObject* args) {
    PyObject *items, *metadata;
    const char* path;
    if (!PyArg_ParseTuple(args, "OOs", &items, &metadata, &path)) return NULL;
    REQUIRE_SYM(ct_save_safetensors);
    PyObject* seq = PySequence_Fast(items, "save_safetensors: items must be a sequence of (name, tensor) pairs");
    PyObject* meta = seq ? PySequence_Fast(metadata, "save_safetensors: metadata must be a sequence of (key, value)") : NULL;
    if (!meta) {
        Py_XDECREF(seq);
        return NULL;
    }
    ct_safetensors f = NULL;
    ct_status st = ct_safetensors_new(&f);
    int failed = st != CT_OK;
    if (failed) raise_status(st);
    for (Py_ssize_t i = 0; !failed && i < PySequence_Fast_GET_SIZE(seq); ++i) {
        const char* name;
        ct_tensor t;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "sO&", &name, conv_tensor, &t)) failed = 1;
        else if ((st = ct_safetensors_add(f, name, t)) != CT_OK) failed = 1, raise_status(st);
    }
    for (Py_ssize_t i = 0; !failed && i < PySequence_Fast_GET_SIZE(meta); ++i) {
        const char *key, *value;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(meta, i), "ss", &key, &value)) failed = 1;
        else if ((st = ct_safetensors_set_metadata(f, key, value)) != CT_OK) failed = 1, raise_status(st);
    }
    if (!failed) {
        Py_BEGIN_ALLOW_THREADS st = ct_save_safetensors(f, path);
        Py_END_ALLOW_THREADS
        if (st != CT_OK) failed = 1, raise_status(st);
    }
    ct_safetensors_release(f);
    Py_DECREF(seq);
    Py_DECREF(meta);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

/* load_safetensors(path, device, map) -> ([(name, Tensor), ...] in file order, {key: value}) */
static PyObject* py_load_safetensors(PyObject* m, PyObject* args) {
    const char* path;
    PyObject* dev_obj;
    int map;
    ct_device dev;
    if (!PyArg_ParseTuple(args, "sOp", &path, &dev_obj, &map) || parse_device(dev_obj, &dev) < 0) return NULL;
    REQUIRE_SYM(ct_load_safetensors);
    ct_safetensors f = NULL;
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_load_safetensors(path, dev, map, &f);
    Py_END_ALLOW_THREADS
    if (st != CT_OK) return raise_status(st);
    PyObject *items = PyList_New(0), *metadata = PyDict_New(), *result = NULL;
    int32_t n = 0, nm = 0;
    if (!items || !metadata) goto done;
    if ((st = ct_safetensors_count(f, &n)) != CT_OK || (st = ct_safetensors_metadata_count(f, &nm)) != CT_OK) {
        raise_status(st);
        goto done;
    }
    for (int32_t i = 0; i < n; ++i) {
        PyObject* name = text(name_at, f, i, NULL);
        if (!name) goto done;
        ct_tensor t = NULL;
        st = ct_safetensors_get(f, PyUnicode_AsUTF8(name), &t);
        PyObject* tensor = st == CT_OK ? wrap_tensor(t) : raise_status(st);
        PyObject* pair = tensor ? PyTuple_Pack(2, name, tensor) : NULL;
        Py_DECREF(name);
        Py_XDECREF(tensor);
        if (!pair || PyList_Append(items, pair) < 0) {
            Py_XDECREF(pair);
            goto done;
        }
        Py_DECREF(pair);
    }
    for (int32_t i = 0; i < nm; ++i) {
        PyObject* key = text(key_at, f, i, NULL);
        PyObject* value = key ? text(value_of, f, 0, PyUnicode_AsUTF8(key)) : NULL;
        int bad = !value || PyDict_SetItem(metadata, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (bad) goto done;
    }
    result = PyTuple_Pack(2, items, metadata);
done:
    ct_safetensors_release(f);
    Py_XDECREF(items);
    Py_XDECREF(metadata);
    return result;
}

static PyMethodDef safetensors_functions[] = {
    {"save_safetensors", py_save_safetensors, METH_VARARGS, "Writes (name, tensor) pairs and metadata to a file."},
    {"load_safetensors", py_load_safetensors, METH_VARARGS, "Reads a safetensors file: ([(name, tensor)], {key: value})."},
    {NULL, NULL, 0, NULL}};

int init_safetensors(PyObject* m) { return add_functions(m, safetensors_functions); }
