/* ctmodule.h - shared declarations of the ctensor._C extension: the Tensor object, status -> exception
 * mapping, argument converters (tensors, Python scalars, dim lists) and the per-file init functions.
 * The extension talks to ctensor only through include/ctensor.h. */
#ifndef CTENSOR_PY_CTMODULE_H
#define CTENSOR_PY_CTMODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <ctensor.h>

#include "optional_symbols.h"

/* A Tensor object owns exactly one reference to its handle (never NULL after construction). */
typedef struct {
    PyObject_HEAD
    ct_tensor h;
} TensorObject;

extern PyTypeObject TensorBase_Type;
/* The Python class whose instances ops return (ctensor.Tensor once the package registered it). */
extern PyTypeObject* g_tensor_class;
/* Python callable turning foreign operands (NumPy arrays/scalars) into Tensors; may be NULL. */
extern PyObject* g_convert_hook;

#define Tensor_Check(o) PyObject_TypeCheck((o), &TensorBase_Type)
#define TENSOR_H(o) (((TensorObject*)(o))->h)
/* Floating dtypes (Python float items): float32, float64, float16, bfloat16. */
#define CT_DTYPE_IS_FLOATING(d) ((d) == CT_FLOAT32 || (d) == CT_FLOAT64 || (d) == CT_FLOAT16 || (d) == CT_BFLOAT16)

/* The one place mapping a ct_status to a Python exception (message from ct_last_error). Returns NULL. */
PyObject* raise_status(ct_status status);
/* Same, returning -1 for int-returning slots. */
int raise_status_int(ct_status status);
/* Raises NotImplementedError for an ABI symbol the loaded library does not export. Returns NULL. */
PyObject* raise_missing(const char* symbol);
#define REQUIRE_SYM(fn)                                  \
    do {                                                 \
        if (!(fn)) return raise_missing(#fn);            \
    } while (0)
/* Calls expr (a ct_status), raising on failure: use inside functions returning PyObject*. */
#define CT_TRY(expr)                                     \
    do {                                                 \
        ct_status st_ = (expr);                          \
        if (st_ != CT_OK) return raise_status(st_);      \
    } while (0)

/* New Python Tensor owning h (steals the reference); h == NULL gives None; on failure releases h. */
PyObject* wrap_tensor(ct_tensor h);
/* Like wrap_tensor but with an explicit (sub)class of TensorBase. */
PyObject* wrap_tensor_as(PyTypeObject* cls, ct_tensor h);

/* A tensor argument: a borrowed handle of a Tensor, or an owned handle made from a Python scalar. */
typedef struct {
    ct_tensor h;
    int owned;
    PyObject* keep; /* a converted Tensor object kept alive for the call */
} TArg;
#define TARG_INIT {NULL, 0, NULL}
/* Converts o; scalars become ct_wrapped_scalar (bools ct_wrapped_scalar_bool, complex numbers ct_wrapped_scalar_complex). Returns 1 on success, 0 if o is not convertible (no error
 * set: the caller may return NotImplemented) and -1 on error. */
int targ_convert(PyObject* o, TArg* a);
/* Like targ_convert but raises TypeError naming `what` when o is not convertible; returns 0/-1. */
int targ_require(PyObject* o, TArg* a, const char* what);
void targ_release(TArg* a);
/* Runs a binary op on handles. Matmul (milliseconds for large operands) runs with the GIL released so other
 * Python threads keep running; cheap ops keep it (releasing costs more than they take). */
static inline ct_status run_binary_op(ct_status (*fn)(ct_tensor, ct_tensor, ct_tensor*), ct_tensor a, ct_tensor b,
                                      ct_tensor* out) {
    ct_status st;
    if (fn != ct_matmul) return fn(a, b, out);
    Py_BEGIN_ALLOW_THREADS st = fn(a, b, out);
    Py_END_ALLOW_THREADS
    return st;
}
/* "O&" converter for a required Tensor (no scalars): stores a borrowed ct_tensor. */
int conv_tensor(PyObject* o, void* out);
/* "O&" converter for an optional Tensor (None -> NULL). */
int conv_opt_tensor(PyObject* o, void* out);

/* A list of int64 values (shape, dims, permutation) parsed from an int or a sequence of ints. */
typedef struct {
    int64_t small[16];
    int64_t* v;
    int32_t n;
    int is_none;
} Dims;
/* Parses o into d (None allowed when allow_none). Returns 0 or -1 with an exception set. */
int dims_parse(PyObject* o, Dims* d, int allow_none, const char* what);
void dims_free(Dims* d);
/* Borrowed handles of a sequence of Tensors (PyMem array in *hs, freed by the caller; the sequence object in *keep,
 * released by the caller). Returns 0 or -1 with TypeError naming the first item that is not a Tensor. */
int tensor_seq(PyObject* seq_obj, ct_tensor** hs, Py_ssize_t* n, PyObject** keep);

/* "O&" converter for an optional ctensor._C.Generator (None -> NULL, the default generator). */
int conv_opt_generator(PyObject* o, void* out);

/* Converts a dtype code / device tuple from the Python layer. */
int parse_device(PyObject* o, ct_device* dev);
/* Python tuple (type, index) for a device. */
PyObject* device_tuple(ct_device dev);

/* Per-file registration: each adds its functions/types to the module; return 0 or -1. */
int init_tensor_type(PyObject* m);
extern PyNumberMethods tensor_as_number;
PyObject* tensor_richcompare(PyObject* a, PyObject* b, int op);
int init_ops(PyObject* m);
int init_autograd(PyObject* m);
int init_interop(PyObject* m);
int init_handles(PyObject* m);
int init_safetensors(PyObject* m);
int init_nn_losses(PyObject* m);
int init_nn_rnn(PyObject* m);
int init_distributed(PyObject* m);
int init_data_parallel(PyObject* m);
/* The handle of a ctensor._C.ProcessGroup (borrowed); NULL with TypeError for anything else. */
ct_process_group group_handle(PyObject* o);
int init_linalg(PyObject* m);
int init_attention(PyObject* m);
int add_functions(PyObject* m, PyMethodDef* defs);
/* N-d convolution, pooling, unfold/fold (issue 14), conv_nd.c. */
int init_conv_nd(PyObject* m);
int init_resample(PyObject* m);
/* A tuple of the handles (NULL entries become None; all released on failure), in ops_sort.c. */
PyObject* tuple_of(ct_tensor* hs, int n);
/* The toolbox ops of issue 14 (ops_toolbox.c). */
int init_toolbox(PyObject* m);
/* The normalisation layers of issue 14 (nn_norms.c). */
int init_nn_norms(PyObject* m);
/* The rest of the toolbox: repeat_interleave, meshgrid, median, quantile, cdist (ops_toolbox_stats.c). */
int init_toolbox_stats(PyObject* m);
/* Autocast state and gradient scaler steps of issue 15 (amp.c). */
int init_amp(PyObject* m);
/* complex64 / complex128 (issue 15): complex, real, imag, views, conj, angle, polar, full_complex (complex.c). */
int init_complex(PyObject* m);
int init_binary_math(PyObject* m);
/* torch's type promotion queries: promote_types, can_cast, result_type (promotion.c). */
int init_promotion(PyObject* m);
/* aminmax, var_mean / std_mean, tensordot (issue 14, ops_more_reduce.c). */
int init_more_reduce(PyObject* m);

#endif
