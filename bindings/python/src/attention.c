/* attention.c - module functions for attention: scaled_dot_product_attention and multi_head_attention_forward.
 * Positional arguments mirror the C ABI; ctensor.nn.functional gives them torch's signatures. */
#include "ctmodule.h"

#pragma weak ct_scaled_dot_product_attention
#pragma weak ct_multi_head_attention_forward

#define T conv_tensor, &
#define OT conv_opt_tensor, &
#define G conv_opt_generator, &

/* scaled_dot_product_attention(q, k, v, mask_or_None, dropout_p, is_causal, scale, generator_or_None) */
static PyObject* py_scaled_dot_product_attention(PyObject* m, PyObject* a) {
    ct_tensor q, k, v, mask = NULL, out = NULL;
    ct_generator gen = NULL;
    double p, scale;
    int causal;
    if (!PyArg_ParseTuple(a, "O&O&O&O&dpd|O&", T q, T k, T v, OT mask, &p, &causal, &scale, G gen)) return NULL;
    REQUIRE_SYM(ct_scaled_dot_product_attention);
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_scaled_dot_product_attention(q, k, v, mask, p, causal, scale, gen, &out);
    Py_END_ALLOW_THREADS
    CT_TRY(st);
    return wrap_tensor(out);
}

/* multi_head_attention_forward(query, key, value, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v,
 * add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training, key_padding_mask, need_weights, attn_mask,
 * q_proj_weight, k_proj_weight, v_proj_weight, average_attn_weights, is_causal, generator) -> (out, weights|None);
 * optional tensors may be None. */
static PyObject* py_multi_head_attention_forward(PyObject* m, PyObject* a) {
    ct_tensor q, k, v, w_in = NULL, b_in = NULL, bias_k = NULL, bias_v = NULL, w_out, b_out = NULL, kpm = NULL,
                       mask = NULL, wq = NULL, wk = NULL, wv = NULL, out = NULL, weights = NULL;
    long long heads;
    int zero_attn, training, need_weights, average, causal;
    double p;
    ct_generator gen = NULL;
    if (!PyArg_ParseTuple(a, "O&O&O&LO&O&O&O&pdO&O&pO&pO&O&O&O&pp|O&", T q, T k, T v, &heads, OT w_in, OT b_in,
                          OT bias_k, OT bias_v, &zero_attn, &p, T w_out, OT b_out, &training, OT kpm, &need_weights,
                          OT mask, OT wq, OT wk, OT wv, &average, &causal, G gen))
        return NULL;
    REQUIRE_SYM(ct_multi_head_attention_forward);
    ct_status st;
    Py_BEGIN_ALLOW_THREADS st = ct_multi_head_attention_forward(q, k, v, heads, w_in, b_in, bias_k, bias_v, zero_attn,
                                                                p, w_out, b_out, training, kpm, need_weights, mask,
                                                                wq, wk, wv, average, causal, gen, &out, &weights);
    Py_END_ALLOW_THREADS
    CT_TRY(st);
    PyObject* o = wrap_tensor(out);
    if (!o) {
        ct_tensor_release(weights);
        return NULL;
    }
    PyObject* w = wrap_tensor(weights);  /* NULL handle -> None */
    if (!w) {
        Py_DECREF(o);
        return NULL;
    }
    PyObject* r = PyTuple_Pack(2, o, w);
    Py_DECREF(o);
    Py_DECREF(w);
    return r;
}

static PyMethodDef attention_functions[] = {
    {"multi_head_attention_forward", (PyCFunction)py_multi_head_attention_forward, METH_VARARGS, NULL},
    {"scaled_dot_product_attention", (PyCFunction)py_scaled_dot_product_attention, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

int init_attention(PyObject* m) { return add_functions(m, attention_functions); }
