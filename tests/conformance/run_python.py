"""run_python.py - the Python runner of the conformance suite: every case of cases/*.json through ctensor's public
Python API (the calls a user writes, torch-style), compared with the expected dtype, shape and values (per-dtype
tolerances; NaN equals NaN) and, for differentiable cases, the input gradients after backward(grad_output); error
cases must raise the exception the binding maps the status to. Prints the failures and the closing line
"N passed, N failed"; exits 1 when any failed. Usage: python run_python.py [CASES_DIR]
(CONFORMANCE_RESULTS_DIR, if set, receives python.json for pass_table.py)"""
import glob
import json
import math
import os
import sys

import ctensor as ct
import ctensor.nn.functional as F

DTYPES = {"float32": ct.float32, "float64": ct.float64, "int32": ct.int32, "int64": ct.int64, "uint8": ct.uint8,
          "bool": ct.bool, "float16": ct.float16, "bfloat16": ct.bfloat16, "complex64": ct.complex64,
          "complex128": ct.complex128}
NAMES = {v: k for k, v in DTYPES.items()}
# (atol, rtol); exact for the others. Half: about 2 units in the last place (README, "Tolerances"). Complex: each
# part with its real dtype's tolerance
TOLERANCE = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-10), "float16": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2),
             "complex64": (1e-5, 1e-5), "complex128": (1e-12, 1e-10)}
ERRORS = {"CT_ERR_INVALID_ARGUMENT": ValueError, "CT_ERR_SHAPE": ValueError, "CT_ERR_DTYPE": TypeError,
          "CT_ERR_INDEX": IndexError, "CT_ERR_OUT_OF_MEMORY": MemoryError, "CT_ERR_NOT_SUPPORTED": NotImplementedError,
          "CT_ERR_IO": OSError}


def decode(v):
    return float(v) if isinstance(v, str) else v


def make(j):
    if "scalar" in j:
        return decode(j["scalar"])
    if "bool_scalar" in j:  # a Python bool
        return bool(j["bool_scalar"])
    if "complex_scalar" in j:  # a Python complex number
        return complex(*(decode(v) for v in j["complex_scalar"]))
    values = [decode(v) for v in j["values"]]
    if j["dtype"].startswith("complex"):  # (re, im) pairs interleaved
        values = [complex(re, im) for re, im in zip(values[::2], values[1::2])]
    t = ct.tensor(values, dtype=DTYPES[j["dtype"]]).reshape(j["shape"])
    if j.get("requires_grad"):
        t.requires_grad_(True)
    return t


def reduce_call(fn, x, a):
    dims = a.get("dims")
    return fn(x) if dims is None else fn(x, dims, keepdim=a.get("keepdim", False))


def plain(fn):
    return lambda xs, a: fn(*xs)


def op_table():
    """op name -> f(inputs, args), each calling the public API as a user would."""
    t = {name: plain(getattr(ct, name)) for name in (
        "neg", "abs", "sign", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
        "sigmoid", "relu", "floor", "ceil", "round", "reciprocal", "logical_not", "mul", "div", "pow", "maximum",
        "minimum", "atan2", "remainder", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
        "logical_xor", "where", "max", "min",
        # binary math (issue 14)
        "logaddexp", "logaddexp2", "hypot", "xlogy", "copysign", "fmax", "fmin", "heaviside", "nextafter",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "gcd",
        "lcm")}
    t.update({
        "floor_divide": lambda xs, a: xs[0] // xs[1],
        "gelu": plain(F.gelu), "silu": plain(F.silu), "softplus": plain(F.softplus),
        "pow_scalar": lambda xs, a: ct.pow(xs[0], a["exponent"]),
        # unary math (issue 14)
        "asin": plain(ct.asin),
        "acos": plain(ct.acos),
        "atan": plain(ct.atan),
        "sinh": plain(ct.sinh),
        "cosh": plain(ct.cosh),
        "asinh": plain(ct.asinh),
        "acosh": plain(ct.acosh),
        "atanh": plain(ct.atanh),
        "erf": plain(ct.erf),
        "erfc": plain(ct.erfc),
        "erfinv": plain(ct.erfinv),
        "lgamma": plain(ct.lgamma),
        "digamma": plain(ct.digamma),
        "sinc": plain(ct.sinc),
        "sgn": plain(ct.sgn),
        "deg2rad": plain(ct.deg2rad),
        "rad2deg": plain(ct.rad2deg),
        "signbit": plain(ct.signbit),
        "isposinf": plain(ct.isposinf),
        "isneginf": plain(ct.isneginf),
        "positive": plain(ct.positive),
        "i0": plain(ct.i0),
        "logit": lambda xs, a: ct.logit(xs[0], a.get("eps")),
        "clamp": lambda xs, a: ct.clamp(xs[0], a["min"], a["max"]),
        "add": lambda xs, a: ct.add(*xs, alpha=a.get("alpha", 1)),
        "addcmul": lambda xs, a: ct.addcmul(*xs, value=a["value"]),  # issue 14
        "addcdiv": lambda xs, a: ct.addcdiv(*xs, value=a["value"]),
        "sub": lambda xs, a: ct.sub(*xs, alpha=a.get("alpha", 1)),
        "sum": lambda xs, a: reduce_call(ct.sum, xs[0], a),
        "mean": lambda xs, a: reduce_call(ct.mean, xs[0], a),
        "prod": lambda xs, a: ct.prod(xs[0], a["dims"][0], keepdim=a["keepdim"]),
        "logsumexp": lambda xs, a: ct.logsumexp(xs[0], a["dims"], keepdim=a["keepdim"]),
        "var": lambda xs, a: ct.var(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "std": lambda xs, a: ct.std(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "norm": lambda xs, a: ct.norm(xs[0], a["p"], a["dims"], keepdim=a["keepdim"]),
        "all": lambda xs, a: ct.all(xs[0]) if a["dims"] is None else ct.all(xs[0], a["dims"][0]),
        "any": lambda xs, a: ct.any(xs[0]) if a["dims"] is None else ct.any(xs[0], a["dims"][0]),
        "max_dim": lambda xs, a: tuple(ct.max(xs[0], a["dim"], keepdim=a["keepdim"])),
        "min_dim": lambda xs, a: tuple(ct.min(xs[0], a["dim"], keepdim=a["keepdim"])),
        "argmax": lambda xs, a: ct.argmax(xs[0], a["dim"], keepdim=a["keepdim"]),
        "argmin": lambda xs, a: ct.argmin(xs[0], a["dim"], keepdim=a["keepdim"]),
        "argmax_all": plain(ct.argmax), "argmin_all": plain(ct.argmin),
        "cumsum": lambda xs, a: ct.cumsum(xs[0], a["dim"]),
        "cumprod": lambda xs, a: ct.cumprod(xs[0], a["dim"]),
        # complex parts and views (issue 15)
        "angle": plain(ct.angle), "conj": plain(ct.conj), "real": plain(ct.real), "imag": plain(ct.imag),
        "view_as_real": plain(ct.view_as_real), "view_as_complex": plain(ct.view_as_complex),
        "complex": plain(ct.complex), "polar": plain(ct.polar),
        # views
        "reshape": lambda xs, a: xs[0].reshape(*a["shape"]),
        "view": lambda xs, a: xs[0].view(*a["shape"]),
        "transpose": lambda xs, a: xs[0].transpose(a["dim0"], a["dim1"]),
        "permute": lambda xs, a: xs[0].permute(*a["dims"]),
        "squeeze": lambda xs, a: xs[0].squeeze(a["dim"]),
        "unsqueeze": lambda xs, a: xs[0].unsqueeze(a["dim"]),
        "expand": lambda xs, a: xs[0].expand(*a["shape"]),
        "flatten": lambda xs, a: xs[0].flatten(a["start_dim"], a["end_dim"]),
        "narrow": lambda xs, a: xs[0].narrow(a["dim"], a["start"], a["length"]),
        "slice": lambda xs, a: xs[0][slice_index(a)],
        "select": lambda xs, a: xs[0].select(a["dim"], a["index"]),
        "t": lambda xs, a: xs[0].t(),
        "diagonal": lambda xs, a: xs[0].diagonal(a["offset"], a["dim1"], a["dim2"]),
        # linear algebra, nn, indexing
        "matmul": lambda xs, a: xs[0] @ xs[1], "dot": plain(ct.dot), "outer": plain(ct.outer),
        "linear": lambda xs, a: F.linear(*xs),
        "scaled_dot_product_attention": lambda xs, a: F.scaled_dot_product_attention(
            xs[0], xs[1], xs[2], xs[3] if len(xs) > 3 else None, a["dropout_p"], a["is_causal"], a["scale"] or None),
        "multi_head_attention_forward": lambda xs, a: F.multi_head_attention_forward(
            xs[0], xs[1], xs[2], xs[0].shape[-1], a["num_heads"], xs[3], xs[4], None, None, False, 0.0, xs[5], xs[6],
            training=False, key_padding_mask=xs[7] if len(xs) > 7 else None, need_weights=a["need_weights"]),
        "softmax": lambda xs, a: F.softmax(xs[0], a["dim"]),
        "log_softmax": lambda xs, a: F.log_softmax(xs[0], a["dim"]),
        "index_select": lambda xs, a: ct.index_select(xs[0], a["dim"], xs[1]),
        "gather": lambda xs, a: ct.gather(xs[0], a["dim"], xs[1]),
        "cat": lambda xs, a: ct.cat(xs, a["dim"]),
        "stack": lambda xs, a: ct.stack(xs, a["dim"]),
        # ordering, masking, scatter, sorting, copies, conversions, mse_loss
        "flip": lambda xs, a: ct.flip(xs[0], a["dims"]),
        "roll": lambda xs, a: ct.roll(xs[0], a["shifts"], a["dims"]),
        "tril": lambda xs, a: ct.tril(xs[0], a["diagonal"]),
        "triu": lambda xs, a: ct.triu(xs[0], a["diagonal"]),
        "clone": lambda xs, a: xs[0].clone(), "contiguous": lambda xs, a: xs[0].contiguous(),
        "detach": lambda xs, a: xs[0].detach(), "squeeze_all": lambda xs, a: xs[0].squeeze(),
        "masked_fill": lambda xs, a: xs[0].masked_fill(xs[1], a["value"]),
        "masked_select": lambda xs, a: ct.masked_select(xs[0], xs[1]),
        "nonzero": lambda xs, a: ct.nonzero(xs[0]),
        "to_dtype": lambda xs, a: xs[0].to(DTYPES[a["dtype"]]),
        "sort": lambda xs, a: tuple(ct.sort(xs[0], a["dim"], descending=a["descending"], stable=True)),
        "argsort": lambda xs, a: ct.argsort(xs[0], a["dim"], descending=a["descending"], stable=True),
        "topk": lambda xs, a: tuple(ct.topk(xs[0], a["k"], a["dim"], largest=a["largest"], sorted=True)),
        "kthvalue": lambda xs, a: tuple(ct.kthvalue(xs[0], a["k"], a["dim"], keepdim=a["keepdim"])),
        "mse_loss": lambda xs, a: F.mse_loss(xs[0], xs[1], reduction=a["reduction"]),
        "scatter": lambda xs, a: ct.scatter(xs[0], a["dim"], xs[1], xs[2]),
        "scatter_add": lambda xs, a: ct.scatter_add(xs[0], a["dim"], xs[1], xs[2]),
        # the in-place forms write into a clone of input 0, which is the output
        "scatter_": lambda xs, a: xs[0].clone().scatter_(a["dim"], xs[1], xs[2]),
        "scatter_add_": lambda xs, a: xs[0].clone().scatter_add_(a["dim"], xs[1], xs[2]),
        "scatter_reduce": lambda xs, a: ct.scatter_reduce(xs[0], a["dim"], xs[1], xs[2], a["reduce"],
                                                          include_self=a["include_self"]),
        "scatter_reduce_": lambda xs, a: xs[0].clone().scatter_reduce_(a["dim"], xs[1], xs[2], a["reduce"],
                                                                       include_self=a["include_self"]),
        "index_add_": lambda xs, a: xs[0].clone().index_add_(a["dim"], xs[1], xs[2], alpha=a["alpha"]),
        "index_copy_": lambda xs, a: xs[0].clone().index_copy_(a["dim"], xs[1], xs[2]),
        "index_put_": lambda xs, a: xs[0].clone().index_put_(tuple(xs[2:]), xs[1], accumulate=a["accumulate"]),
        # the toolbox's indexed writes (issue 14); index_put's inputs are x, values, then the index tensors
        "index_add": lambda xs, a: ct.index_add(xs[0], a["dim"], xs[1], xs[2], alpha=a["alpha"]),
        "index_copy": lambda xs, a: xs[0].index_copy(a["dim"], xs[1], xs[2]),
        "index_put": lambda xs, a: xs[0].index_put(tuple(xs[2:]), xs[1], accumulate=a["accumulate"]),
        "searchsorted": lambda xs, a: ct.searchsorted(xs[0], xs[1], right=a["right"], out_int32=a["out_int32"],
                                                      sorter=xs[2] if len(xs) > 2 else None),
        "bincount": lambda xs, a: ct.bincount(xs[0], xs[1] if len(xs) > 1 else None, minlength=a["minlength"]),
        "histc": lambda xs, a: ct.histc(xs[0], bins=a["bins"], min=a["min"], max=a["max"]),
        "cummax": lambda xs, a: tuple(ct.cummax(xs[0], a["dim"])),
        "cummin": lambda xs, a: tuple(xs[0].cummin(a["dim"])),
        "nan_to_num": lambda xs, a: ct.nan_to_num(xs[0], 0.0 if a["nan"] is None else a["nan"], a["posinf"], a["neginf"]),
        "diff": lambda xs, a: ct.diff(xs[0], a["n"], a["dim"], xs[1] if a["prepend"] else None,
                                      xs[-1] if a["append"] else None),
        "take_along_dim": lambda xs, a: ct.take_along_dim(xs[0], xs[1], a["dim"]),
        "median_dim": lambda xs, a: tuple(ct.median(xs[0], a["dim"], a["keepdim"])),
        "quantile": lambda xs, a: ct.quantile(xs[0], a["q"], a["dim"], a["keepdim"], interpolation=a["interpolation"]),
        "cdist": lambda xs, a: ct.cdist(xs[0], xs[1], decode(a["p"])),
        "median": lambda xs, a: ct.median(xs[0]),
        "nanmedian": lambda xs, a: ct.nanmedian(xs[0]),
        "nanmedian_dim": lambda xs, a: tuple(ct.nanmedian(xs[0], a["dim"], a["keepdim"])),
        "nanquantile": lambda xs, a: ct.nanquantile(xs[0], a["q"], a["dim"], a["keepdim"],
                                                    interpolation=a["interpolation"]),
        "repeat_interleave": lambda xs, a: ct.repeat_interleave(xs[0], xs[1] if a["repeats"] is None else a["repeats"],
                                                                a["dim"]),
        "meshgrid": lambda xs, a: tuple(ct.meshgrid(*xs, indexing=a["indexing"])),
        # more reductions and products (issue 14)
        "logcumsumexp": lambda xs, a: ct.logcumsumexp(xs[0], a["dim"]),
        "aminmax": lambda xs, a: tuple(ct.aminmax(xs[0], dim=a["dim"], keepdim=a["keepdim"])),
        "var_mean": lambda xs, a: ct.var_mean(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "std_mean": lambda xs, a: ct.std_mean(xs[0], a["dims"], correction=a["correction"], keepdim=a["keepdim"]),
        "kron": plain(ct.kron), "inner": plain(ct.inner),
        "tensordot": lambda xs, a: ct.tensordot(xs[0], xs[1], (a["dims_a"], a["dims_b"])),
        "linalg_lstsq_ex": lambda xs, a: tuple(ct.linalg.lstsq(xs[0], xs[1], a["rcond"], driver=a["driver"])),
        # convolution, pooling, losses, embedding, einsum, split/chunk, unique
        "conv2d": lambda xs, a: F.conv2d(xs[0], xs[1], xs[2] if len(xs) > 2 else None, a["stride"], a["padding"],
                                         a["dilation"], a["groups"]),
        "max_pool2d": lambda xs, a: F.max_pool2d(xs[0], a["kernel"], a["stride"], a["padding"]),
        "avg_pool2d": lambda xs, a: F.avg_pool2d(xs[0], a["kernel"], a["stride"], a["padding"]),
        "max_pool2d_ex": lambda xs, a: tuple(F.max_pool2d(xs[0], a["kernel"], a["stride"], a["padding"], a["dilation"],
                                                          a["ceil_mode"], return_indices=True)),
        "avg_pool2d_ex": lambda xs, a: F.avg_pool2d(xs[0], a["kernel"], a["stride"], a["padding"], a["ceil_mode"],
                                                    a["count_include_pad"], a["divisor_override"] or None),
        "adaptive_avg_pool2d": lambda xs, a: F.adaptive_avg_pool2d(xs[0], a["output_size"]),
        "adaptive_max_pool2d": lambda xs, a: tuple(F.adaptive_max_pool2d(xs[0], a["output_size"], return_indices=True)),
        # issue 14: N-d convolution and pooling, unfold / fold, pixel_shuffle
        "convolution": lambda xs, a: (
            getattr(F, "conv_transpose%dd" % a["ndim_spatial"])(xs[0], xs[1], xs[2] if len(xs) > 2 else None,
                                                                 a["stride"], a["padding"], a["output_padding"],
                                                                 a["groups"], a["dilation"])
            if a["transposed"] else
            getattr(F, "conv%dd" % a["ndim_spatial"])(xs[0], xs[1], xs[2] if len(xs) > 2 else None, a["stride"],
                                                      a["padding"], a["dilation"], a["groups"])),
        "max_pool_nd": lambda xs, a: tuple(getattr(F, "max_pool%dd" % a["ndim_spatial"])(
            xs[0], a["kernel"], a["stride"], a["padding"], a["dilation"], a["ceil_mode"], return_indices=True)),
        "avg_pool_nd": lambda xs, a: getattr(F, "avg_pool%dd" % a["ndim_spatial"])(
            xs[0], a["kernel"], a["stride"], a["padding"], a["ceil_mode"], a["count_include_pad"],
            *([a["divisor_override"] or None] if a["ndim_spatial"] > 1 else [])),
        "adaptive_avg_pool_nd": lambda xs, a: getattr(F, "adaptive_avg_pool%dd" % a["ndim_spatial"])(
            xs[0], a["output_size"]),
        "adaptive_max_pool_nd": lambda xs, a: tuple(getattr(F, "adaptive_max_pool%dd" % a["ndim_spatial"])(
            xs[0], a["output_size"], return_indices=True)),
        "unfold": lambda xs, a: F.unfold(xs[0], a["kernel"], a["dilation"], a["padding"], a["stride"]),
        "fold": lambda xs, a: F.fold(xs[0], a["output_size"], a["kernel"], a["dilation"], a["padding"], a["stride"]),
        "pixel_shuffle": lambda xs, a: F.pixel_shuffle(xs[0], a["upscale_factor"]),
        "pixel_unshuffle": lambda xs, a: F.pixel_unshuffle(xs[0], a["downscale_factor"]),
        "cross_entropy": lambda xs, a: F.cross_entropy(xs[0], xs[1], reduction=a["reduction"],
                                                       ignore_index=a["ignore_index"]),
        "nll_loss": lambda xs, a: F.nll_loss(xs[0], xs[1], reduction=a["reduction"], ignore_index=a["ignore_index"]),
        "cross_entropy_ex": lambda xs, a: F.cross_entropy(xs[0], xs[1], xs[2], reduction=a["reduction"],
                                                          ignore_index=a["ignore_index"],
                                                          label_smoothing=a["label_smoothing"]),
        "nll_loss_ex": lambda xs, a: F.nll_loss(xs[0], xs[1], xs[2], reduction=a["reduction"],
                                                ignore_index=a["ignore_index"]),
        "binary_cross_entropy": lambda xs, a: F.binary_cross_entropy(xs[0], xs[1], reduction=a["reduction"]),
        "binary_cross_entropy_with_logits": lambda xs, a: F.binary_cross_entropy_with_logits(
            xs[0], xs[1], reduction=a["reduction"]),
        "embedding": lambda xs, a: F.embedding(xs[1], xs[0]),
        # the binding of ct_embedding_ex itself: F.embedding checks padding_idx first and raises torch's AssertionError
        "embedding_ex": lambda xs, a: ct._C.embedding_ex(xs[0], xs[1], a["padding_idx"], a["scale_grad_by_freq"]),
        "embedding_renorm_": lambda xs, a: renormed(xs, a),
        "embedding_bag": lambda xs, a: F.embedding_bag(
            xs[1], xs[0], xs[2] if len(xs) > 2 else None, mode=a["mode"], padding_idx=a["padding_idx"],
            scale_grad_by_freq=a["scale_grad_by_freq"], include_last_offset=a["include_last_offset"],
            per_sample_weights=xs[3] if len(xs) > 3 else None),
        "interpolate": lambda xs, a: F.interpolate(xs[0], a["size"], a["scale_factor"], a["mode"], a["align_corners"],
                                                   a["recompute_scale_factor"] or None),
        # normalisation layers: inputs x, then weight and bias when given, then running_mean and running_var
        "layer_norm": lambda xs, a: F.layer_norm(xs[0], a["normalized_shape"], opt(xs, 1), opt(xs, 2), a["eps"]),
        "group_norm": lambda xs, a: F.group_norm(xs[0], a["num_groups"], opt(xs, 1), opt(xs, 2), a["eps"]),
        "batch_norm": lambda xs, a: F.batch_norm(xs[0], opt(xs, 3), opt(xs, 4), opt(xs, 1), opt(xs, 2), a["training"],
                                                 a["momentum"], a["eps"]),
        "einsum": lambda xs, a: ct.einsum(a["equation"], *xs),
        "split": lambda xs, a: tuple(ct.split(xs[0], a["split_size"], a["dim"])),
        "chunk": lambda xs, a: tuple(ct.chunk(xs[0], a["chunks"], a["dim"])),
        "unique": lambda xs, a: tuple(ct.unique(xs[0], sorted=a["sorted"], return_inverse=True, return_counts=True)),
        # creation, host data (every tensor input is made with ct.tensor), language scalars, moves
        "zeros": lambda xs, a: ct.zeros(a["shape"], dtype=DTYPES[a["dtype"]]),
        "ones": lambda xs, a: ct.ones(a["shape"], dtype=DTYPES[a["dtype"]]),
        "full": lambda xs, a: ct.full(a["shape"], a["value"], dtype=DTYPES[a["dtype"]]),
        "scalar_tensor": lambda xs, a: ct.scalar_tensor(a["value"], dtype=DTYPES[a["dtype"]]),
        "eye": lambda xs, a: ct.eye(a["n"], a["m"], dtype=DTYPES[a["dtype"]]),
        "arange": lambda xs, a: ct.arange(a["start"], a["end"], a["step"], dtype=DTYPES[a["dtype"]]),
        "linspace": lambda xs, a: ct.linspace(a["start"], a["end"], a["steps"], dtype=DTYPES[a["dtype"]]),
        "zeros_like": lambda xs, a: ct.zeros_like(xs[0]), "ones_like": lambda xs, a: ct.ones_like(xs[0]),
        "full_like": lambda xs, a: ct.full_like(xs[0], a["value"]),
        "to_device": lambda xs, a: xs[0].to(a["device"]),
        "tensor_from_data": lambda xs, a: xs[0],
        "wrapped_scalar": lambda xs, a: xs[0] * xs[1],
        "wrapped_scalar_bool": lambda xs, a: xs[0] * xs[1],
        "tensor_from_blob": lambda xs, a: ct.from_numpy(xs[0].numpy().copy()),
        # random and uninitialised tensors (run_case seeds the default generator with args["seed"])
        "rand": lambda xs, a: ct.rand(a["shape"], dtype=DTYPES[a["dtype"]]),
        "randn": lambda xs, a: ct.randn(a["shape"], dtype=DTYPES[a["dtype"]]),
        "randint": lambda xs, a: ct.randint(a["low"], a["high"], a["shape"], dtype=DTYPES[a["dtype"]]),
        "randperm": lambda xs, a: ct.randperm(a["n"]),
        "bernoulli": lambda xs, a: ct.bernoulli(xs[0]),
        "dropout": lambda xs, a: F.dropout(xs[0], a["p"], a["training"]),
        "empty": lambda xs, a: ct.empty(a["shape"], dtype=DTYPES[a["dtype"]]),
        "empty_like": lambda xs, a: ct.empty_like(xs[0]),
        # activations (torch.nn.functional names; elu's parameters select ELU, SELU or CELU as a user writes them)
        "elu": lambda xs, a: elu_call(xs[0], a),
        "leaky_relu": lambda xs, a: F.leaky_relu(xs[0], a["negative_slope"]),
        "hardtanh": lambda xs, a: F.hardtanh(xs[0], a["min_val"], a["max_val"]),
        "hardsigmoid": plain(F.hardsigmoid), "hardswish": plain(F.hardswish), "mish": plain(F.mish),
        "log_sigmoid": plain(F.logsigmoid), "softsign": plain(F.softsign), "tanhshrink": plain(F.tanhshrink),
        "softshrink": lambda xs, a: F.softshrink(xs[0], a["lambd"]),
        "hardshrink": lambda xs, a: F.hardshrink(xs[0], a["lambd"]),
        "threshold": lambda xs, a: F.threshold(xs[0], a["threshold"], a["value"]),
        "softmin": lambda xs, a: F.softmin(xs[0], a["dim"]),
        "glu": lambda xs, a: F.glu(xs[0], a["dim"]),
        "prelu": lambda xs, a: F.prelu(xs[0], xs[1]),
        "rrelu": lambda xs, a: F.rrelu(xs[0], a["lower"], a["upper"], a["training"]),
        # losses (issue 14): torch's keyword arguments; an optional weight is the input after the required ones
        "l1_loss": lambda xs, a: F.l1_loss(xs[0], xs[1], reduction=a["reduction"]),
        "smooth_l1_loss": lambda xs, a: F.smooth_l1_loss(xs[0], xs[1], reduction=a["reduction"], beta=a["beta"]),
        "huber_loss": lambda xs, a: F.huber_loss(xs[0], xs[1], reduction=a["reduction"], delta=a["delta"]),
        "kl_div": lambda xs, a: F.kl_div(xs[0], xs[1], reduction=a["reduction"], log_target=a["log_target"]),
        "soft_margin_loss": lambda xs, a: F.soft_margin_loss(xs[0], xs[1], reduction=a["reduction"]),
        "poisson_nll_loss": lambda xs, a: F.poisson_nll_loss(xs[0], xs[1], a["log_input"], a["full"], eps=a["eps"],
                                                             reduction=a["reduction"]),
        "gaussian_nll_loss": lambda xs, a: F.gaussian_nll_loss(xs[0], xs[1], xs[2], a["full"], a["eps"],
                                                               a["reduction"]),
        "hinge_embedding_loss": lambda xs, a: F.hinge_embedding_loss(xs[0], xs[1], a["margin"],
                                                                     reduction=a["reduction"]),
        "margin_ranking_loss": lambda xs, a: F.margin_ranking_loss(xs[0], xs[1], xs[2], a["margin"],
                                                                   reduction=a["reduction"]),
        "multilabel_soft_margin_loss": lambda xs, a: F.multilabel_soft_margin_loss(
            xs[0], xs[1], xs[2] if len(xs) > 2 else None, reduction=a["reduction"]),
        "multi_margin_loss": lambda xs, a: F.multi_margin_loss(xs[0], xs[1], a["p"], a["margin"],
                                                               xs[2] if len(xs) > 2 else None,
                                                               reduction=a["reduction"]),
        "cosine_embedding_loss": lambda xs, a: F.cosine_embedding_loss(xs[0], xs[1], xs[2], a["margin"],
                                                                       reduction=a["reduction"]),
        "ctc_loss": lambda xs, a: F.ctc_loss(xs[0], xs[1], a["input_lengths"], a["target_lengths"], a["blank"],
                                             a["reduction"], a["zero_infinity"]),
        "triplet_margin_loss": lambda xs, a: F.triplet_margin_loss(xs[0], xs[1], xs[2], a["margin"], a["p"], a["eps"],
                                                                   a["swap"], reduction=a["reduction"]),
        # torch.linalg
        "linalg_inv": lambda xs, a: ct.linalg.inv(xs[0]), "linalg_det": lambda xs, a: ct.linalg.det(xs[0]),
        "linalg_slogdet": lambda xs, a: tuple(ct.linalg.slogdet(xs[0])),
        "linalg_solve": lambda xs, a: ct.linalg.solve(xs[0], xs[1]),
        "linalg_cholesky": lambda xs, a: ct.linalg.cholesky(xs[0], upper=a["upper"]),
        "linalg_qr": lambda xs, a: tuple(ct.linalg.qr(xs[0], mode=a["mode"])),
        "linalg_eigh": lambda xs, a: tuple(ct.linalg.eigh(xs[0], UPLO=a["UPLO"])),
        "linalg_eigvalsh": lambda xs, a: ct.linalg.eigvalsh(xs[0], UPLO=a["UPLO"]),
        "linalg_eig": lambda xs, a: tuple(ct.linalg.eig(xs[0])),
        "linalg_eigvals": lambda xs, a: ct.linalg.eigvals(xs[0]),
        "linalg_svd": lambda xs, a: tuple(ct.linalg.svd(xs[0], full_matrices=a["full_matrices"])),
        "linalg_svdvals": lambda xs, a: ct.linalg.svdvals(xs[0]),
        "linalg_matrix_power": lambda xs, a: ct.linalg.matrix_power(xs[0], a["n"]),
        "linalg_cross": lambda xs, a: ct.linalg.cross(xs[0], xs[1], dim=a["dim"]),
        "linalg_vector_norm": lambda xs, a: ct.linalg.vector_norm(xs[0], decode(a["ord"]), a["dims"], a["keepdim"]),
        "linalg_matrix_norm": lambda xs, a: ct.linalg.matrix_norm(
            xs[0], a["ord"] if a["ord"] in ("fro", "nuc") else float(a["ord"]), tuple(a["dims"]), a["keepdim"]),
        "linalg_pinv": lambda xs, a: ct.linalg.pinv(xs[0], atol=a["atol"], rtol=a["rtol"]),
        "linalg_matrix_rank": lambda xs, a: ct.linalg.matrix_rank(xs[0], atol=a["atol"], rtol=a["rtol"]),
        "linalg_lstsq": lambda xs, a: ct.linalg.lstsq(xs[0], xs[1]).solution,
        "linalg_solve_triangular": lambda xs, a: ct.linalg.solve_triangular(
            xs[0], xs[1], upper=a["upper"], left=a["left"], unitriangular=a["unitriangular"]),
        # recurrent nets: torch's top-level fused functions (ct.lstm, ct.gru_cell, ...)
        "rnn": rnn_call, "rnn_cell": rnn_cell_call,
    })
    # in-place writes through a view of a clone of input 0; the output is the clone
    writes = {
        "add_": lambda v, xs, a: v.add_(xs[1], alpha=a["alpha"]), "sub_": lambda v, xs, a: v.sub_(xs[1], alpha=a["alpha"]),
        "mul_": lambda v, xs, a: v.mul_(xs[1]), "div_": lambda v, xs, a: v.div_(xs[1]),
        "copy_": lambda v, xs, a: v.copy_(xs[1]), "zero_": lambda v, xs, a: v.zero_(),
        "fill_": lambda v, xs, a: v.fill_(a["value"]), "clamp_": lambda v, xs, a: v.clamp_(a["min"], a["max"]),
    }
    for name, write in writes.items():
        t[name] = lambda xs, a, write=write: through_view(t, write, xs, a)
    return t


def rnn_call(xs, a):
    """ct.lstm / gru / rnn_tanh / rnn_relu on inputs x, hx, (cx for LSTM), weights."""
    lstm = a["mode"] == "lstm"
    hx, ws = ((xs[1], xs[2]), xs[3:]) if lstm else (xs[1], xs[2:])
    fn = getattr(ct, a["mode"])
    common = (a["has_biases"], a["num_layers"], 0.0, False, a["bidirectional"])
    if "batch_sizes" in a:
        return fn(xs[0], a["batch_sizes"], hx, ws, *common)
    return fn(xs[0], hx, ws, *common, a["batch_first"])


def rnn_cell_call(xs, a):
    """ct.lstm_cell / gru_cell / rnn_tanh_cell / rnn_relu_cell on inputs x, hx, (cx for LSTM), w_ih, w_hh, b_ih, b_hh."""
    if a["mode"] == "lstm":
        return tuple(ct.lstm_cell(xs[0], (xs[1], xs[2]), *xs[3:]))
    return getattr(ct, a["mode"] + "_cell")(xs[0], xs[1], *xs[2:])


def elu_call(x, a):
    """ELU, SELU or CELU, whichever the case's parameters are."""
    if a["input_scale"] != 1:
        return F.celu(x, a["alpha"])
    return F.elu(x, a["alpha"]) if a["scale"] == 1 else F.selu(x)


def slice_index(a):
    """x[...] index of a slice case: start:end:step at dim (negative dims counted from the end)."""
    s, d = slice(a["start"], a["end"], a["step"]), a["dim"]
    return (slice(None),) * d + (s,) if d >= 0 else (Ellipsis, s) + (slice(None),) * (-d - 1)


def opt(xs, i):
    """Input i when the case gives it, else None (optional tensor arguments)."""
    return xs[i] if len(xs) > i else None


def renormed(xs, a):
    """embedding_renorm_'s case output: a clone of input 0 renormalised at the indices of input 1."""
    y = xs[0].clone()
    F.embedding(xs[1], y, max_norm=a["max_norm"], norm_type=a["norm_type"])
    return y


def through_view(table, write, xs, a):
    y = xs[0].clone()
    write(table[a["view"]]([y], a["view_args"]), xs, a)
    return y


def mismatch(what, got, want):
    """None when tensor got matches the expected JSON want (its values, or the properties of its values), else a
    description."""
    name = NAMES.get(got.dtype, str(got.dtype))
    if name != want["dtype"]:
        return f"{what}: dtype {name}, expected {want['dtype']}"
    if list(got.shape) != want["shape"]:
        return f"{what}: shape {list(got.shape)}, expected {want['shape']}"
    values = (ct.view_as_real(got.detach()) if got.is_complex() else got.detach()).reshape(-1).tolist()
    if "properties" in want:
        return property_mismatch(what, [float(v) for v in values], want["properties"], TOLERANCE.get(name, (0, 0)))
    atol, rtol = TOLERANCE.get(name, (0, 0))
    for i, (g, w) in enumerate(zip(values, (decode(v) for v in want["values"]))):
        if name not in TOLERANCE:  # integers and bool exactly (as Python ints: int64 beyond 2**53 stays exact)
            if int(g) != int(w):
                return f"{what}: element {i} is {int(g)}, expected {int(w)}"
            continue
        g, w = float(g), float(w)
        if math.isnan(w) and math.isnan(g):
            continue
        if not (g == w or abs(g - w) <= atol + rtol * abs(w)):
            return f"{what}: element {i} is {g!r}, expected {w!r}"
    return None


def property_mismatch(what, values, props, tolerance):
    """None when the values have every property of the case (README, "Properties"), else a description."""
    atol, rtol = tolerance
    for i, v in enumerate(values):
        if "range" in props and not props["range"][0] <= v < props["range"][1]:
            return f"{what}: element {i} is {v!r}, outside [{props['range'][0]}, {props['range'][1]})"
        if props.get("integral") and v != math.floor(v):
            return f"{what}: element {i} is {v!r}, not an integer"
        if "zero_or" in props:
            w = decode(props["zero_or"][i])
            if v != 0 and abs(v - w) > atol + rtol * abs(w):
                return f"{what}: element {i} is {v!r}, expected 0 or {w!r}"
        if "abs" in props:  # equal up to sign: singular vectors and eigenvectors (one sign per vector)
            w = abs(decode(props["abs"][i]))
            if abs(abs(v) - w) > atol + rtol * w:
                return f"{what}: element {i} is {v!r}, expected +-{w!r}"
    if props.get("permutation") and sorted(values) != list(range(len(values))):
        return f"{what}: not a permutation of 0..{len(values) - 1}"
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if "mean" in props and not abs(mean - props["mean"][0]) <= props["mean"][1]:
        return f"{what}: mean {mean!r}, expected {props['mean'][0]} within {props['mean'][1]}"
    if "std" in props:
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        if not abs(std - props["std"][0]) <= props["std"][1]:
            return f"{what}: standard deviation {std!r}, expected {props['std'][0]} within {props['std'][1]}"
    return None


def run_case(case, table):
    fn = table.get(case["op"])
    if fn is None:
        return f"op {case['op']} is not exposed"
    inputs = [make(j) for j in case["inputs"]]
    if "seed" in case["args"]:
        ct.manual_seed(case["args"]["seed"])
    if "error" in case:
        kind = ERRORS.get(case["error"], RuntimeError)
        try:
            fn(inputs, case["args"])
        except kind:
            return None
        except Exception as e:  # noqa: BLE001 - any other exception is the failure being reported
            return f"raised {type(e).__name__}: {e}; expected {kind.__name__} ({case['error']})"
        return f"returned; expected {case['error']}"
    out = fn(inputs, case["args"])
    outs = list(out) if isinstance(out, tuple) else [out]
    expect = case["expect"]
    if len(outs) != len(expect["outputs"]):
        return f"{len(outs)} outputs, expected {len(expect['outputs'])}"
    for k, (o, w) in enumerate(zip(outs, expect["outputs"])):
        problem = mismatch(f"output {k}", o, w)
        if problem:
            return problem
    if "grads" in expect:
        outs[0].backward(make(expect["grad_output"]))
        for k, (x, w) in enumerate(zip(inputs, expect["grads"])):
            if w is None:
                continue
            if x.grad is None:
                return f"input {k} got no gradient"
            problem = mismatch(f"gradient of input {k}", x.grad, w)
            if problem:
                return problem
    return None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cases_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "cases")
    table = op_table()
    passed, failures, ops, failed_ops = 0, [], set(), set()
    for path in sorted(glob.glob(os.path.join(cases_dir, "*.json"))):
        with open(path) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            ops.add(case["op"])
            try:
                problem = run_case(case, table)
            except Exception as e:  # noqa: BLE001 - an unexpected exception fails the case
                problem = f"raised {type(e).__name__}: {e}"
            if problem:
                failures.append(f"{case['id']}: {problem}")
                failed_ops.add(case["op"])
            else:
                passed += 1
    for line in failures[:50]:
        print("FAIL", line)
    if len(failures) > 50:
        print(f"... and {len(failures) - 50} more")
    print(f"{passed} passed, {len(failures)} failed")
    out = os.environ.get("CONFORMANCE_RESULTS_DIR")
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "python.json"), "w") as f:
            json.dump({"language": "Python", "run": passed + len(failures), "passed": passed, "failed": len(failures),
                       "ops": len(ops), "ops_passed": len(ops) - len(failed_ops)}, f)
            f.write("\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
