"""ctensor.nn: Modules, Parameters, layers, losses, functional and init (PyTorch names)."""
from . import functional, init  # noqa: F401
from .layers import (AdaptiveAvgPool2d, AvgPool2d, BCELoss, BCEWithLogitsLoss, Conv2d, CrossEntropyLoss,  # noqa: F401
                     Dropout, Embedding, Flatten, GELU, Identity, L1Loss, LayerNorm, LeakyReLU, Linear, LogSoftmax,
                     MaxPool2d, MSELoss, NLLLoss, ReLU, ReLU6, Sigmoid, SiLU, SmoothL1Loss, Softmax, Softplus, Tanh,
                     Unflatten)
from .module import Module, ModuleDict, ModuleList, Sequential  # noqa: F401
from .parameter import Parameter  # noqa: F401
