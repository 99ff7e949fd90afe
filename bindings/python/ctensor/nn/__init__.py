"""ctensor.nn: Modules, Parameters, layers, losses, functional and init (PyTorch names)."""
from . import functional, init  # noqa: F401
from .layers import (AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, BCELoss, BCEWithLogitsLoss,  # noqa: F401
                     Conv2d, CrossEntropyLoss, Dropout, Embedding, Flatten, GELU, Identity, L1Loss, LayerNorm, LeakyReLU, Linear, LogSoftmax,
                     MaxPool2d, MSELoss, NLLLoss, ReLU, ReLU6, Sigmoid, SiLU, SmoothL1Loss, Softmax, Softplus, Tanh,
                     Unflatten)
from .module import Module, ModuleDict, ModuleList, Sequential  # noqa: F401
from .parameter import Parameter  # noqa: F401
