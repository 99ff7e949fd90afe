/* nn_losses.c - module functions for the losses beyond cross entropy, nll, mse and bce (l1, smooth_l1, huber,
 * kl_div, the margin losses, poisson/gaussian nll, ctc). Positional arguments mirror the C ABI;
 * ctensor.nn.functional gives them torch's signatures. */
#include "ctmodule.h"

#define LOSS_OUT(fn, ...)                           \
    do {                                            \
        REQUIRE_SYM(fn);                            \
        ct_tensor out = NULL;                       \
        CT_TRY(fn(__VA_ARGS__, &out));              \
        return wrap_tensor(out);                    \
    } while (0)
#define T conv_tensor, &
#define OT conv_opt_tensor, &

/* name(input, target, reduction) -> fn(...) (the C name spelled out: pass_table.py reads these sources) */
#define PAIR_LOSS(name, fn)                                                      \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                       \
        ct_tensor x, t;                                                          \
        int r;                                                                   \
        if (!PyArg_ParseTuple(a, "O&O&i", T x, T t, &r)) return NULL;           \
        LOSS_OUT(fn, x, t, r);                                                   \
    }
/* name(input, target, reduction, double) */
#define PAIR_LOSS_D(name, fn)                                                    \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                       \
        ct_tensor x, t;                                                          \
        int r;                                                                   \
        double v;                                                                \
        if (!PyArg_ParseTuple(a, "O&O&id", T x, T t, &r, &v)) return NULL;      \
        LOSS_OUT(fn, x, t, r, v);                                                \
    }
/* name(input1, input2, target, reduction, margin) */
#define TRIPLE_LOSS_D(name, fn)                                                         \
    static PyObject* py_##name(PyObject* m, PyObject* a) {                              \
        ct_tensor x1, x2, t;                                                            \
        int r;                                                                          \
        double margin;                                                                  \
        if (!PyArg_ParseTuple(a, "O&O&O&id", T x1, T x2, T t, &r, &margin)) return NULL; \
        LOSS_OUT(fn, x1, x2, t, r, margin);                                             \
    }

PAIR_LOSS(l1_loss, ct_l1_loss)
PAIR_LOSS(soft_margin_loss, ct_soft_margin_loss)
PAIR_LOSS_D(smooth_l1_loss, ct_smooth_l1_loss)
PAIR_LOSS_D(huber_loss, ct_huber_loss)
PAIR_LOSS_D(hinge_embedding_loss, ct_hinge_embedding_loss)
TRIPLE_LOSS_D(margin_ranking_loss, ct_margin_ranking_loss)
TRIPLE_LOSS_D(cosine_embedding_loss, ct_cosine_embedding_loss)

static PyObject* py_kl_div(PyObject* m, PyObject* a) {
    ct_tensor x, t;
    int r, log_target;
    if (!PyArg_ParseTuple(a, "O&O&ip", T x, T t, &r, &log_target)) return NULL;
    LOSS_OUT(ct_kl_div, x, t, r, log_target);
}
static PyObject* py_poisson_nll_loss(PyObject* m, PyObject* a) {
    ct_tensor x, t;
    int r, log_input, full;
    double eps;
    if (!PyArg_ParseTuple(a, "O&O&ippd", T x, T t, &r, &log_input, &full, &eps)) return NULL;
    LOSS_OUT(ct_poisson_nll_loss, x, t, r, log_input, full, eps);
}
static PyObject* py_gaussian_nll_loss(PyObject* m, PyObject* a) {
    ct_tensor x, t, var;
    int r, full;
    double eps;
    if (!PyArg_ParseTuple(a, "O&O&O&ipd", T x, T t, T var, &r, &full, &eps)) return NULL;
    LOSS_OUT(ct_gaussian_nll_loss, x, t, var, r, full, eps);
}
/* multilabel_soft_margin_loss(input, target, weight_or_None, reduction) */
static PyObject* py_multilabel_soft_margin_loss(PyObject* m, PyObject* a) {
    ct_tensor x, t, w = NULL;
    int r;
    if (!PyArg_ParseTuple(a, "O&O&O&i", T x, T t, OT w, &r)) return NULL;
    LOSS_OUT(ct_multilabel_soft_margin_loss, x, t, w, r);
}
/* multi_margin_loss(input, target, reduction, p, margin, weight_or_None) */
static PyObject* py_multi_margin_loss(PyObject* m, PyObject* a) {
    ct_tensor x, t, w = NULL;
    int r;
    long long p;
    double margin;
    if (!PyArg_ParseTuple(a, "O&O&iLdO&", T x, T t, &r, &p, &margin, OT w)) return NULL;
    LOSS_OUT(ct_multi_margin_loss, x, t, r, p, margin, w);
}
/* triplet_margin_loss(anchor, positive, negative, reduction, margin, p, eps, swap) */
static PyObject* py_triplet_margin_loss(PyObject* m, PyObject* a) {
    ct_tensor an, po, ne;
    int r, swap;
    double margin, p, eps;
    if (!PyArg_ParseTuple(a, "O&O&O&idddp", T an, T po, T ne, &r, &margin, &p, &eps, &swap)) return NULL;
    LOSS_OUT(ct_triplet_margin_loss, an, po, ne, r, margin, p, eps, swap);
}

/* ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction, blank, zero_infinity); lengths are
 * sequences of ints */
static PyObject* py_ctc_loss(PyObject* m, PyObject* a) {
    REQUIRE_SYM(ct_ctc_loss);
    ct_tensor lp, t;
    PyObject *in_obj, *tg_obj;
    int r, zero_infinity;
    long long blank;
    if (!PyArg_ParseTuple(a, "O&O&OOiLp", T lp, T t, &in_obj, &tg_obj, &r, &blank, &zero_infinity)) return NULL;
    Dims in, tg;
    if (dims_parse(in_obj, &in, 0, "input_lengths") < 0) return NULL;
    if (dims_parse(tg_obj, &tg, 0, "target_lengths") < 0) {
        dims_free(&in);
        return NULL;
    }
    ct_tensor out = NULL;
    ct_status st = CT_OK;
    if (in.n != tg.n)
        PyErr_Format(PyExc_ValueError, "ctc_loss: %d input lengths and %d target lengths", (int)in.n, (int)tg.n);
    else
        st = ct_ctc_loss(lp, t, in.v, tg.v, in.n, r, blank, zero_infinity, &out);
    int failed = in.n != tg.n;
    dims_free(&in);
    dims_free(&tg);
    if (failed) return NULL;
    if (st != CT_OK) return raise_status(st);
    return wrap_tensor(out);
}

#define E(name) {#name, (PyCFunction)py_##name, METH_VARARGS, NULL},
static PyMethodDef loss_functions[] = {
    E(l1_loss) E(smooth_l1_loss) E(huber_loss) E(kl_div) E(soft_margin_loss) E(poisson_nll_loss) E(gaussian_nll_loss)
    E(hinge_embedding_loss) E(margin_ranking_loss) E(multilabel_soft_margin_loss) E(multi_margin_loss)
    E(cosine_embedding_loss) E(triplet_margin_loss) E(ctc_loss)
    {NULL, NULL, 0, NULL}};

int init_nn_losses(PyObject* m) { return add_functions(m, loss_functions); }
