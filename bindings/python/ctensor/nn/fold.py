"""ctensor.nn Unfold / Fold and PixelShuffle / PixelUnshuffle layers (issue 14), torch's arguments, each a call of
the functional form."""
from . import _functional_fold as FF
from .module import Module


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return FF.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return "kernel_size=%s, dilation=%s, padding=%s, stride=%s" % (self.kernel_size, self.dilation, self.padding,
                                                                        self.stride)


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return FF.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return "output_size=%s, kernel_size=%s, dilation=%s, padding=%s, stride=%s" % (
            self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return FF.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return "upscale_factor=%d" % self.upscale_factor


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return FF.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return "downscale_factor=%d" % self.downscale_factor
