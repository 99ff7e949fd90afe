"""ctensor.nn: Modules, Parameters, layers, losses, functional, init and utils (PyTorch names)."""
from . import functional, init, utils  # noqa: F401
from .layers import (AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, BCELoss, BCEWithLogitsLoss,  # noqa: F401
                     Conv2d, CrossEntropyLoss, Dropout, Dropout1d, Dropout2d, Embedding, Flatten, GELU, Identity,
                     L1Loss, LayerNorm, LeakyReLU, Linear, LogSoftmax, MaxPool2d, MSELoss, NLLLoss, ReLU, ReLU6,
                     Sigmoid, SiLU, SmoothL1Loss, Softmax, Softplus, Tanh, Unflatten)
from .module import Module, ModuleDict, ModuleList, Sequential  # noqa: F401
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm  # noqa: F401
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d,  # noqa: F401
                      ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,
                      ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .parameter import Parameter  # noqa: F401
