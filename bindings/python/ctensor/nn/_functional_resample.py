"""F.interpolate / F.upsample / F.upsample_nearest / F.upsample_bilinear with torch 1.13's signatures and
argument checks, over the C ABI's ct_interpolate (every mode, 1-3 spatial dims, differentiable to any order)."""
import math
import warnings

from .. import _C

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

# CT_INTERP_* and the spatial rank each torch mode name accepts (None: any of 1-3)
_MODES = {"nearest": (0, None), "nearest-exact": (1, None), "linear": (2, 1), "bilinear": (2, 2),
          "trilinear": (2, 3), "bicubic": (3, 2), "area": (4, None)}


def _per_dim(value, dim, what):
    if isinstance(value, (list, tuple)):
        if len(value) != dim:
            raise ValueError("Input and %s must have the same number of spatial dimensions, but got input with "
                             "spatial dimensions of %s and %s of %s." % (what, dim, what, list(value)))
        return list(value)
    return [value] * dim


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resamples input [N, C, d1..dk] (k = 1, 2, 3) to size or by scale_factor, as torch.nn.functional.interpolate."""
    if mode not in _MODES:
        raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: "
                                  "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
                                  "(got %s)" % (input.dim(), mode))
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported by ctensor")
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    code, rank = _MODES[mode]
    if dim < 1 or dim > 3 or (rank is not None and rank != dim):
        if mode in ("linear", "bilinear", "trilinear") and 1 <= dim <= 3:
            raise NotImplementedError("Got %dD input, but %s mode needs %dD input" % (input.dim(), mode, rank + 2))
        raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: "
                                  "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
                                  "(got %s)" % (input.dim(), mode))
    sizes = scales = None
    if size is not None:
        sizes = tuple(int(s) for s in _per_dim(size, dim, "output size"))
    else:
        scales = tuple(float(s) for s in _per_dim(scale_factor, dim, "scale_factor"))
        if mode == "area" or recompute_scale_factor:  # torch computes the size in Python, then drops the scales
            shape = input.shape
            sizes = tuple(int(math.floor(float(shape[i + 2]) * scales[i])) for i in range(dim))
            scales = None
    align = -1 if align_corners is None else int(bool(align_corners))
    return _C.interpolate(input, sizes, scales, code, align, False)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of interpolate (as torch)."""
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(..., mode='nearest')."""
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(..., mode='bilinear', align_corners=True)."""
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


