"""ctensor.autograd.functional: jacobian, hessian, vjp, jvp, hvp and vhp of a Python function, with torch 1.13's
signatures and results, built on ctensor.autograd.grad (reverse mode only: vectorize=False, strategy
"reverse-mode"). Forward products (jvp, hvp) use the double-backward trick: the gradient of <grad_out, J> with
respect to grad_out is J v.

Conventions (as torch): `inputs` is a Tensor or a tuple of Tensors and results mirror that (a Tensor for a Tensor, a
tuple for a tuple); jacobian[i][j] has shape outputs[i].shape + inputs[j].shape. Inputs are detached copies that
require grad (aliases that keep the graph when create_graph and the input requires grad). Without create_graph
every result is detached. A result independent of an input is zeros, or a RuntimeError when strict=True."""
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, Union

from .. import _C
from .._creation import zeros, zeros_like
from .._shape_ops import reshape, stack
from . import enable_grad, grad, is_grad_enabled, set_grad_enabled

if TYPE_CHECKING:  # the public type of the stubs (ctensor/__init__.pyi)
    from .. import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]

_TB = _C.TensorBase
_Tensors = Union["Tensor", Tuple["Tensor", ...]]  # a Tensor or a tuple of Tensors (results mirror the argument)


def _as_tuple(x, arg_name, fn_name):
    """(was it a tuple, the tensors as a tuple); TypeError when an entry is not a Tensor."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, _TB):
            where = "the value at index %d" % i if is_tuple else "the given %s" % arg_name
            raise TypeError("The %s given to %s must be either a Tensor or a tuple of Tensors but %s has type %s."
                            % (arg_name, fn_name, where, type(el)))
    return is_tuple, items


def _unpack(res, is_tuple):
    return res if is_tuple else res[0]


def _unpack2(res, outer_tuple, inner_tuple):
    """Nested results (jacobian, hessian): drop the inner then the outer tuple where the argument was a Tensor."""
    if not inner_tuple:
        res = tuple(r[0] for r in res)
    return res if outer_tuple else res[0]


def _prepare(inputs, create_graph, need_graph):
    """The tensors func sees: graph-keeping aliases (create_graph and requires_grad), else detached leaves."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(need_graph))
    return tuple(out)


def _finish(tensors, create_graph):
    if tensors and isinstance(tensors[0], tuple):
        return tuple(_finish(t, create_graph) for t in tensors)
    return tensors if create_graph else tuple(t.detach() for t in tensors)


def _validate_v(v, other, is_other_tuple):
    if len(v) != len(other):
        if is_other_tuple:
            raise RuntimeError("v is a tuple of invalid length: should be %d but got %d." % (len(other), len(v)))
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if tuple(a.shape) != tuple(b.shape):
            prefix = "Entry %d in " % i if is_other_tuple else ""
            raise RuntimeError("%sv has invalid size: should be %s but got %s." % (prefix, list(b.shape),
                                                                                    list(a.shape)))


def _prepare_v(v, other, is_other_tuple, fn_name, create_graph, none_msg):
    if v is None:
        if len(other) != 1 or other[0].numel() != 1:
            raise RuntimeError(none_msg)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _prepare(v, create_graph, need_graph=False)
    _validate_v(v, other, is_other_tuple)
    return v


_STRICT_MSG = {
    "outputs": "Output %d of the user-provided function does not require gradients. The outputs must be computed in "
               "a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input %d is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect to "
                "input %d is independent of the input. This is not allowed in strict mode.",
    "hessian": "The hessian of the user-provided function with respect to input %d is independent of the input. "
               "This is not allowed in strict mode.",
}


def _check_requires_grad(tensors, kind, strict):
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError("The output of the user-provided function is independent of input %d. This is not "
                               "allowed in strict mode." % i)
        if not t.requires_grad:
            raise RuntimeError(_STRICT_MSG[kind] % i)


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad (None for every input when none does)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs = tuple(o for o, _ in pairs)
    gos = tuple(g for _, g in pairs)
    gos = None if all(g is None for g in gos) else gos
    return grad(outs, inputs, gos, retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)


def _fill_zeros(grads, refs, strict, create_graph, what):
    """None gradients become zeros like refs (or, when strict, a RuntimeError naming `what`)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError("The %s is independent of input %d. This is not allowed in strict mode."
                                   % (what, i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            raise RuntimeError("The %s is independent of input %d. This is not allowed in strict mode when "
                               "create_graph=True." % (what, i))
        out.append(g)
    return tuple(out)


def _single_scalar_output(outputs, is_tuple, fn_name):
    if is_tuple or len(outputs) != 1:
        raise RuntimeError("The function given to %s should return a single Tensor" % fn_name)
    if outputs[0].numel() != 1:
        raise RuntimeError("The Tensor returned by the function given to %s should contain a single element"
                           % fn_name)


def vjp(func: Callable[..., _Tensors], inputs: _Tensors, v: Optional[_Tensors] = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[_Tensors, _Tensors]:
    """(func(inputs), v^T J): the vector-Jacobian product; v may be None when func returns one element."""
    with enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(v, outputs, out_tuple, "vjp", create_graph, "The vector v can only be None if the "
                       "user-provided function returns a single Tensor with a single element.")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        res = _fill_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict, create_graph,
                          "output of the user-provided function")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), in_tuple)


def jvp(func: Callable[..., _Tensors], inputs: _Tensors, v: Optional[_Tensors] = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[_Tensors, _Tensors]:
    """(func(inputs), J v): the Jacobian-vector product; v may be None when the input has one element."""
    with enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, in_tuple, "jvp", create_graph, "The vector v can only be None if the input to "
                       "the user-provided function is a single Tensor with a single element.")
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        grad_outputs = tuple(zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        res = _fill_zeros(_grad(grad_inputs, grad_outputs, v, create_graph), outputs, strict, create_graph,
                          "gradient with respect to the input (double backward trick), entry")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), out_tuple)


def jacobian(func: Callable[..., _Tensors], inputs: _Tensors, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """The Jacobian of func at inputs, one reverse pass per output element: jacobian[i][j] has shape
    outputs[i].shape + inputs[j].shape (a Tensor where func takes and returns Tensors)."""
    if vectorize:
        raise NotImplementedError("jacobian: vectorize=True is not supported by ctensor (no vmap); use "
                                  "vectorize=False")
    if strategy != "reverse-mode":
        raise NotImplementedError("jacobian: strategy=%r is not supported by ctensor (no forward-mode AD); use "
                                  "strategy='reverse-mode'" % (strategy,))
    with enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        jac = tuple(_jacobian_of_output(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs))
    return _unpack2(_finish(jac, create_graph), out_tuple, in_tuple)


def _jacobian_of_output(i, out, inputs, create_graph, strict):
    """(d out / d inputs[j] for each j): rows are gradients of out's elements in row-major order."""
    rows = [[] for _ in inputs]
    flat = reshape(out, -1)
    for k in range(out.numel()):
        for j, (g, inp) in enumerate(zip(_grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph),
                                         inputs)):
            if g is None:
                if strict:
                    raise RuntimeError("Output %d of the user-provided function is independent of input %d. This "
                                       "is not allowed in strict mode." % (i, j))
                g = zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError("The jacobian of the user-provided function is independent of input %d. This "
                                   "is not allowed in strict mode when create_graph=True." % j)
            rows[j].append(g)
    return tuple(_stack_rows(r, out, inp) for r, inp in zip(rows, inputs))


def _stack_rows(rows, out, inp):
    shape = tuple(out.shape) + tuple(inp.shape)
    if not rows:  # an output with no elements
        return zeros(shape, dtype=inp.dtype, device=inp.device)
    return reshape(stack(rows, 0), shape)


def hessian(func: Callable[..., "Tensor"], inputs: _Tensors, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar func: hessian[i][j] has shape inputs[i].shape + inputs[j].shape."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def scalar_func(*inp):
        out = func(*inp)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        _single_scalar_output(outs, out_tuple, "hessian")
        return reshape(out, ())

    def jac_func(*inp):
        jac = jacobian(scalar_func, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack2(res, in_tuple, in_tuple)


def _scalar_jacobian(func, inputs, v, create_graph, strict, fn_name):
    """The common start of vhp and hvp (call under enable_grad): checked inputs and v, func's single scalar output,
    and its gradient w.r.t. the inputs with a graph (for the second differentiation)."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _prepare(inputs, create_graph, need_graph=True)
    v = _prepare_v(v, inputs, in_tuple, fn_name, create_graph, "The vector v can only be None if the input to "
                   "the user-provided function is a single Tensor with a single element.")
    out_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    _single_scalar_output(outputs, out_tuple, fn_name)
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return in_tuple, inputs, v, out_tuple, outputs, jac


def vhp(func: Callable[..., "Tensor"], inputs: _Tensors, v: Optional[_Tensors] = None, create_graph: bool = False,
        strict: bool = False) -> Tuple["Tensor", _Tensors]:
    """(func(inputs), v^T H) of a scalar func."""
    with enable_grad():
        in_tuple, inputs, v, out_tuple, outputs, jac = _scalar_jacobian(func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        res = _fill_zeros(_grad(jac, inputs, v, create_graph), inputs, strict, create_graph,
                          "jacobian of the user-provided function")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), in_tuple)


def hvp(func: Callable[..., "Tensor"], inputs: _Tensors, v: Optional[_Tensors] = None, create_graph: bool = False,
        strict: bool = False) -> Tuple["Tensor", _Tensors]:
    """(func(inputs), H v) of a scalar func, by the double-backward trick (equal to vhp for a symmetric H)."""
    with enable_grad():
        in_tuple, inputs, v, out_tuple, outputs, jac = _scalar_jacobian(func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(zeros_like(t, requires_grad=True) for t in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        res = _fill_zeros(_grad(double_back, grad_jac, v, create_graph), inputs, strict, create_graph,
                          "hessian of the user-provided function (double backward trick), entry")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), in_tuple)
