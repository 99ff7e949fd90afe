/* nn_creation.c - module functions for neural-network ops (linear, losses, conv/pool, dropout, embedding),
 * tensor creation (shapes, ranges, host bytes) and random numbers. Positional arguments mirror the C ABI. */
#include "ctmodule.h"

#define RETURN_OUT(fn, ...)                            \
    do {                                               \
        if (!(fn)) return raise_missing(#fn);          \
        ct_tensor out = NULL;                          \
        ct_status st_ = fn(__VA_ARGS__, &out);         \
        if (st_ != CT_OK) return raise_status(st_);    \
        return wrap_tensor(out);                       \
    } while (0)
#define T conv_tensor, &
#define OT conv_opt_tensor, &
#define G conv_opt_generator, &

/* ---- neural-network functions -------------------------------------------------------------------- */

static PyObject* py_linear(PyObject* m, PyObject* a) {
    ct_tensor x, w, b = NULL;
    if (!PyArg_ParseTuple(a, "O&O&|O&", T x, T w, OT b)) return NULL;
    RETURN_OUT(ct_linear, x, w, b);
}
static PyObject* py_softmax_xent(PyObject* m, PyObject* a, ct_status (*fn)(ct_tensor, ct_tensor, int32_t, int64_t,
                                                                           ct_tensor*), const char* name) {
    if (!fn) return raise_missing(name);
    ct_tensor x, target;
    int reduction = CT_REDUCTION_MEAN;
    long long ignore_index = -100;
    if (!PyArg_ParseTuple(a, "O&O&|iL", T x, T target, &reduction, &ignore_index)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(fn(x, target, reduction, ignore_index, &out));
    return wrap_tensor(out);
}
static PyObject* py_cross_entropy(PyObject* m, PyObject* a) {
    return py_softmax_xent(m, a, ct_cross_entropy, "ct_cross_entropy");
}
static PyObject* py_nll_loss(PyObject* m, PyObject* a) { return py_softmax_xent(m, a, ct_nll_loss, "ct_nll_loss"); }
/* cross_entropy_ex(x, target, weight_or_None, reduction, ignore_index, label_smoothing) */
static PyObject* py_cross_entropy_ex(PyObject* m, PyObject* a) {
    ct_tensor x, target, weight = NULL;
    int reduction;
    long long ignore_index;
    double smoothing;
    if (!PyArg_ParseTuple(a, "O&O&O&iLd", T x, T target, OT weight, &reduction, &ignore_index, &smoothing))
        return NULL;
    RETURN_OUT(ct_cross_entropy_ex, x, target, weight, reduction, ignore_index, smoothing);
}
/* nll_loss_ex(log_probs, target, weight_or_None, reduction, ignore_index) */
static PyObject* py_nll_loss_ex(PyObject* m, PyObject* a) {
    ct_tensor x, target, weight = NULL;
    int reduction;
    long long ignore_index;
    if (!PyArg_ParseTuple(a, "O&O&O&iL", T x, T target, OT weight, &reduction, &ignore_index)) return NULL;
    RETURN_OUT(ct_nll_loss_ex, x, target, weight, reduction, ignore_index);
}

static PyObject* call_loss(ct_status (*fn)(ct_tensor, ct_tensor, int32_t, ct_tensor*), const char* name,
                           PyObject* a) {
    if (!fn) return raise_missing(name);
    ct_tensor x, target;
    int reduction = CT_REDUCTION_MEAN;
    if (!PyArg_ParseTuple(a, "O&O&|i", T x, T target, &reduction)) return NULL;
    ct_tensor out = NULL;
    CT_TRY(fn(x, target, reduction, &out));
    return wrap_tensor(out);
}
static PyObject* py_mse_loss(PyObject* m, PyObject* a) { return call_loss(ct_mse_loss, "ct_mse_loss", a); }
static PyObject* py_binary_cross_entropy(PyObject* m, PyObject* a) {
    return call_loss(ct_binary_cross_entropy, "ct_binary_cross_entropy", a);
}
static PyObject* py_binary_cross_entropy_with_logits(PyObject* m, PyObject* a) {
    return call_loss(ct_binary_cross_entropy_with_logits, "ct_binary_cross_entropy_with_logits", a);
}
static PyObject* py_dropout(PyObject* m, PyObject* a) {
    ct_tensor x;
    ct_generator gen = NULL;
    double p;
    int training;
    if (!PyArg_ParseTuple(a, "O&dp|O&", T x, &p, &training, G gen)) return NULL;
    RETURN_OUT(ct_dropout, x, p, training, gen);
}
/* activations with scalar parameters (the parameter-free ones are in ops.c's tables) */
static PyObject* py_elu(PyObject* m, PyObject* a) {
    ct_tensor x;
    double alpha, scale, input_scale;
    if (!PyArg_ParseTuple(a, "O&ddd", T x, &alpha, &scale, &input_scale)) return NULL;
    RETURN_OUT(ct_elu, x, alpha, scale, input_scale);
}
static PyObject* py_leaky_relu(PyObject* m, PyObject* a) {
    ct_tensor x;
    double slope;
    if (!PyArg_ParseTuple(a, "O&d", T x, &slope)) return NULL;
    RETURN_OUT(ct_leaky_relu, x, slope);
}
static PyObject* py_hardtanh(PyObject* m, PyObject* a) {
    ct_tensor x;
    double lo, hi;
    if (!PyArg_ParseTuple(a, "O&dd", T x, &lo, &hi)) return NULL;
    RETURN_OUT(ct_hardtanh, x, lo, hi);
}
static PyObject* py_softshrink(PyObject* m, PyObject* a) {
    ct_tensor x;
    double lambd;
    if (!PyArg_ParseTuple(a, "O&d", T x, &lambd)) return NULL;
    RETURN_OUT(ct_softshrink, x, lambd);
}
static PyObject* py_hardshrink(PyObject* m, PyObject* a) {
    ct_tensor x;
    double lambd;
    if (!PyArg_ParseTuple(a, "O&d", T x, &lambd)) return NULL;
    RETURN_OUT(ct_hardshrink, x, lambd);
}
static PyObject* py_threshold(PyObject* m, PyObject* a) {
    ct_tensor x;
    double threshold, value;
    if (!PyArg_ParseTuple(a, "O&dd", T x, &threshold, &value)) return NULL;
    RETURN_OUT(ct_threshold, x, threshold, value);
}
static PyObject* py_rrelu(PyObject* m, PyObject* a) {
    ct_tensor x;
    ct_generator gen = NULL;
    double lower, upper;
    int training;
    if (!PyArg_ParseTuple(a, "O&ddp|O&", T x, &lower, &upper, &training, G gen)) return NULL;
    RETURN_OUT(ct_rrelu, x, lower, upper, training, gen);
}
static PyObject* py_embedding(PyObject* m, PyObject* a) {
    ct_tensor w, idx;
    if (!PyArg_ParseTuple(a, "O&O&", T w, T idx)) return NULL;
    RETURN_OUT(ct_embedding, w, idx);
}
/* embedding_ex(weight, indices, padding_idx or None, scale_grad_by_freq) */
static PyObject* py_embedding_ex(PyObject* m, PyObject* a) {
    ct_tensor w, idx;
    PyObject* pad;
    int by_freq;
    if (!PyArg_ParseTuple(a, "O&O&Op", T w, T idx, &pad, &by_freq)) return NULL;
    long long p = pad == Py_None ? 0 : PyLong_AsLongLong(pad);
    if (p == -1 && PyErr_Occurred()) return NULL;
    RETURN_OUT(ct_embedding_ex, w, idx, p, pad != Py_None, by_freq);
}
/* embedding_renorm_(weight, indices, max_norm, norm_type) -> None */
static PyObject* py_embedding_renorm_(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_embedding_renorm_);
    ct_tensor w, idx;
    double max_norm, norm_type;
    if (!PyArg_ParseTuple(a, "O&O&dd", T w, T idx, &max_norm, &norm_type)) return NULL;
    CT_TRY(ct_embedding_renorm_(w, idx, max_norm, norm_type));
    Py_RETURN_NONE;
}
/* embedding_bag(weight, indices, offsets or None, mode, per_sample_weights or None, include_last_offset,
 * padding_idx or None, scale_grad_by_freq) */
static PyObject* py_embedding_bag(PyObject* m, PyObject* a) {
    ct_tensor w, idx, off = NULL, psw = NULL;
    PyObject* pad;
    int mode, last, by_freq;
    if (!PyArg_ParseTuple(a, "O&O&O&iO&pOp", T w, T idx, OT off, &mode, OT psw, &last, &pad, &by_freq)) return NULL;
    long long p = pad == Py_None ? 0 : PyLong_AsLongLong(pad);
    if (p == -1 && PyErr_Occurred()) return NULL;
    RETURN_OUT(ct_embedding_bag, w, idx, off, mode, psw, last, p, pad != Py_None, by_freq);
}
static PyObject* py_conv2d(PyObject* m, PyObject* a) {
    ct_tensor x, w, b = NULL;
    int64_t s[2], p[2], d[2];
    long long groups;
    if (!PyArg_ParseTuple(a, "O&O&O&(LL)(LL)(LL)L", T x, T w, OT b, &s[0], &s[1], &p[0], &p[1], &d[0], &d[1],
                          &groups))
        return NULL;
    RETURN_OUT(ct_conv2d, x, w, b, s, p, d, groups);
}
static PyObject* call_pool(ct_status (*fn)(ct_tensor, const int64_t*, const int64_t*, const int64_t*, ct_tensor*),
                           const char* name, PyObject* a) {
    if (!fn) return raise_missing(name);
    ct_tensor x;
    int64_t k[2], s[2], p[2];
    if (!PyArg_ParseTuple(a, "O&(LL)(LL)(LL)", T x, &k[0], &k[1], &s[0], &s[1], &p[0], &p[1])) return NULL;
    ct_tensor out = NULL;
    CT_TRY(fn(x, k, s, p, &out));
    return wrap_tensor(out);
}
static PyObject* py_max_pool2d(PyObject* m, PyObject* a) { return call_pool(ct_max_pool2d, "ct_max_pool2d", a); }
static PyObject* py_avg_pool2d(PyObject* m, PyObject* a) { return call_pool(ct_avg_pool2d, "ct_avg_pool2d", a); }

/* (values, indices) from two handles; releases both on failure. */
static PyObject* values_indices(ct_tensor values, ct_tensor indices) {
    PyObject* v = wrap_tensor(values); /* releases values on failure */
    if (!v) {
        ct_tensor_release(indices);
        return NULL;
    }
    PyObject* i = wrap_tensor(indices);
    if (!i) {
        Py_DECREF(v);
        return NULL;
    }
    PyObject* pair = PyTuple_Pack(2, v, i);
    Py_DECREF(v);
    Py_DECREF(i);
    return pair;
}
/* max_pool2d_ex(x, kernel, stride, padding, dilation, ceil_mode) -> (values, indices) */
static PyObject* py_max_pool2d_ex(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_max_pool2d_ex);
    ct_tensor x, out = NULL, idx = NULL;
    int64_t k[2], s[2], p[2], d[2];
    int ceil_mode;
    if (!PyArg_ParseTuple(a, "O&(LL)(LL)(LL)(LL)p", T x, &k[0], &k[1], &s[0], &s[1], &p[0], &p[1], &d[0], &d[1],
                          &ceil_mode))
        return NULL;
    CT_TRY(ct_max_pool2d_ex(x, k, s, p, d, ceil_mode, &out, &idx));
    return values_indices(out, idx);
}
/* avg_pool2d_ex(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override (0 = none)) */
static PyObject* py_avg_pool2d_ex(PyObject* m, PyObject* a) {
    ct_tensor x;
    int64_t k[2], s[2], p[2];
    int ceil_mode, count_include_pad;
    long long divisor;
    if (!PyArg_ParseTuple(a, "O&(LL)(LL)(LL)ppL", T x, &k[0], &k[1], &s[0], &s[1], &p[0], &p[1], &ceil_mode,
                          &count_include_pad, &divisor))
        return NULL;
    RETURN_OUT(ct_avg_pool2d_ex, x, k, s, p, ceil_mode, count_include_pad, divisor);
}
/* adaptive_avg_pool2d(x, (oh, ow)) */
static PyObject* py_adaptive_avg_pool2d(PyObject* m, PyObject* a) {
    ct_tensor x;
    int64_t o[2];
    if (!PyArg_ParseTuple(a, "O&(LL)", T x, &o[0], &o[1])) return NULL;
    RETURN_OUT(ct_adaptive_avg_pool2d, x, o);
}
/* adaptive_max_pool2d(x, (oh, ow)) -> (values, indices) */
static PyObject* py_adaptive_max_pool2d(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_adaptive_max_pool2d);
    ct_tensor x, out = NULL, idx = NULL;
    int64_t o[2];
    if (!PyArg_ParseTuple(a, "O&(LL)", T x, &o[0], &o[1])) return NULL;
    CT_TRY(ct_adaptive_max_pool2d(x, o, &out, &idx));
    return values_indices(out, idx);
}

/* ---- creation ------------------------------------------------------------------------------------ */

/* name(shape, dtype, device) for empty/zeros/ones */
static PyObject* call_filled(ct_status (*fn)(const int64_t*, int32_t, ct_dtype, ct_device, ct_tensor*),
                             const char* name, PyObject* a) {
    if (!fn) return raise_missing(name);
    PyObject* shape_obj;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "Oi(ii)", &shape_obj, &dtype, &dev.type, &dev.index)) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "size") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(d.v, d.n, dtype, dev, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_empty(PyObject* m, PyObject* a) { return call_filled(ct_empty, "ct_empty", a); }
static PyObject* py_zeros(PyObject* m, PyObject* a) { return call_filled(ct_zeros, "ct_zeros", a); }
static PyObject* py_ones(PyObject* m, PyObject* a) { return call_filled(ct_ones, "ct_ones", a); }

static PyObject* py_full(PyObject* m, PyObject* a) {
    PyObject* shape_obj;
    double v;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "Odi(ii)", &shape_obj, &v, &dtype, &dev.type, &dev.index)) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "size") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = ct_full(d.v, d.n, v, dtype, dev, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_scalar_tensor(PyObject* m, PyObject* a) {
    double v;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "di(ii)", &v, &dtype, &dev.type, &dev.index)) return NULL;
    RETURN_OUT(ct_scalar_tensor, v, dtype, dev);
}
static PyObject* py_arange(PyObject* m, PyObject* a) {
    double start, end, step;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "dddi(ii)", &start, &end, &step, &dtype, &dev.type, &dev.index)) return NULL;
    RETURN_OUT(ct_arange, start, end, step, dtype, dev);
}
static PyObject* py_linspace(PyObject* m, PyObject* a) {
    double start, end;
    long long steps;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "ddLi(ii)", &start, &end, &steps, &dtype, &dev.type, &dev.index)) return NULL;
    RETURN_OUT(ct_linspace, start, end, steps, dtype, dev);
}
static PyObject* py_eye(PyObject* m, PyObject* a) {
    long long n, cols;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "LLi(ii)", &n, &cols, &dtype, &dev.type, &dev.index)) return NULL;
    RETURN_OUT(ct_eye, n, cols, dtype, dev);
}
static PyObject* py_full_like(PyObject* m, PyObject* a) {
    ct_tensor x;
    double v;
    if (!PyArg_ParseTuple(a, "O&d", T x, &v)) return NULL;
    RETURN_OUT(ct_full_like, x, v);
}

/* from_buffer(obj, shape, dtype, device): copies a C-contiguous buffer (bytes, NumPy array, ...). */
static PyObject* py_from_buffer(PyObject* m, PyObject* a) {
    PyObject *obj, *shape_obj;
    int dtype;
    ct_device dev;
    if (!PyArg_ParseTuple(a, "OOi(ii)", &obj, &shape_obj, &dtype, &dev.type, &dev.index)) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "shape") < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = ct_tensor_from_data(view.buf, (int64_t)view.len, d.v, d.n, dtype, dev, &out);
    dims_free(&d);
    PyBuffer_Release(&view);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

/* to_bytes(x): x's elements in row-major order (copied from any device). */
static PyObject* py_to_bytes(PyObject* m, PyObject* x) {
    if (!Tensor_Check(x)) return PyErr_Format(PyExc_TypeError, "expected a Tensor");
    int64_t n;
    ct_dtype dt;
    CT_TRY(ct_tensor_numel(TENSOR_H(x), &n));
    CT_TRY(ct_tensor_dtype(TENSOR_H(x), &dt));
    int64_t nbytes = n * ct_dtype_size(dt);
    PyObject* bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nbytes);
    if (!bytes) return NULL;
    ct_status st = ct_tensor_copy_to_host(TENSOR_H(x), PyBytes_AS_STRING(bytes), nbytes);
    if (st != CT_OK) {
        Py_DECREF(bytes);
        return raise_status(st);
    }
    return bytes;
}

/* ---- random numbers ------------------------------------------------------------------------------ */

static PyObject* call_random(ct_status (*fn)(const int64_t*, int32_t, ct_dtype, ct_device, ct_generator,
                                             ct_tensor*),
                             const char* name, PyObject* a) {
    if (!fn) return raise_missing(name);
    PyObject* shape_obj;
    int dtype;
    ct_device dev;
    ct_generator gen = NULL;
    if (!PyArg_ParseTuple(a, "Oi(ii)|O&", &shape_obj, &dtype, &dev.type, &dev.index, G gen)) return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "size") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = fn(d.v, d.n, dtype, dev, gen, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_rand(PyObject* m, PyObject* a) { return call_random(ct_rand, "ct_rand", a); }
static PyObject* py_randn(PyObject* m, PyObject* a) { return call_random(ct_randn, "ct_randn", a); }

static PyObject* py_randint(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_randint);
    long long low, high;
    PyObject* shape_obj;
    int dtype;
    ct_device dev;
    ct_generator gen = NULL;
    if (!PyArg_ParseTuple(a, "LLOi(ii)|O&", &low, &high, &shape_obj, &dtype, &dev.type, &dev.index, G gen))
        return NULL;
    Dims d;
    if (dims_parse(shape_obj, &d, 0, "size") < 0) return NULL;
    ct_tensor out = NULL;
    ct_status st = ct_randint(low, high, d.v, d.n, dtype, dev, gen, &out);
    dims_free(&d);
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}
static PyObject* py_bernoulli(PyObject* m, PyObject* a) {
    ct_tensor p;
    ct_generator gen = NULL;
    if (!PyArg_ParseTuple(a, "O&|O&", T p, G gen)) return NULL;
    RETURN_OUT(ct_bernoulli, p, gen);
}
static PyObject* py_randperm(PyObject* m, PyObject* a) {
    long long n;
    ct_device dev;
    ct_generator gen = NULL;
    if (!PyArg_ParseTuple(a, "L(ii)|O&", &n, &dev.type, &dev.index, G gen)) return NULL;
    RETURN_OUT(ct_randperm, n, dev, gen);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef nn_creation_functions[] = {
    E(linear) E(cross_entropy) E(nll_loss) E(cross_entropy_ex) E(nll_loss_ex) E(mse_loss) E(binary_cross_entropy) E(binary_cross_entropy_with_logits)
    E(dropout) E(embedding) E(embedding_ex) E(embedding_renorm_) E(embedding_bag) E(conv2d) E(max_pool2d) E(avg_pool2d)
    E(max_pool2d_ex) E(avg_pool2d_ex) E(adaptive_avg_pool2d) E(adaptive_max_pool2d) E(empty) E(zeros) E(ones) E(full)
    E(scalar_tensor) E(arange) E(linspace) E(eye) E(full_like) E(from_buffer) E(rand) E(randn) E(randint)
    E(bernoulli) E(randperm) E(elu) E(leaky_relu) E(hardtanh) E(softshrink) E(hardshrink) E(threshold) E(rrelu)
    {"to_bytes", (PyCFunction)py_to_bytes, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

int init_nn_creation(PyObject* m) { return add_functions(m, nn_creation_functions); }
