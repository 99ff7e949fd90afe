"""ctensor.nn.functional unfold / fold (sliding blocks over the last two dims, each the other's adjoint) and
pixel_shuffle / pixel_unshuffle (issue 14), with torch's signatures; one C ABI call each."""
from __future__ import annotations

from .. import _C
from ._functional_conv import _ntuple


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """[N, C, H, W] (or [C, H, W]) -> [N, C * kh * kw, L] blocks, like torch.nn.functional.unfold."""
    return _C.unfold(input, _ntuple(kernel_size, 2, "kernel_size"), _ntuple(dilation, 2, "dilation"),
                     _ntuple(padding, 2, "padding"), _ntuple(stride, 2, "stride"))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """[N, C * kh * kw, L] (or 2 dims) -> [N, C, *output_size], overlaps summed, like torch.nn.functional.fold."""
    return _C.fold(input, _ntuple(output_size, 2, "output_size"), _ntuple(kernel_size, 2, "kernel_size"),
                   _ntuple(dilation, 2, "dilation"), _ntuple(padding, 2, "padding"), _ntuple(stride, 2, "stride"))


def pixel_shuffle(input, upscale_factor):
    """[*, C * r * r, H, W] -> [*, C, H * r, W * r]."""
    return _C.pixel_shuffle(input, int(upscale_factor), False)


def pixel_unshuffle(input, downscale_factor):
    """[*, C, H * r, W * r] -> [*, C * r * r, H, W]."""
    return _C.pixel_shuffle(input, int(downscale_factor), True)
