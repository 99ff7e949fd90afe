"""ctensor.optim: optimizers over the C ABI's optimizer handles, plus learning-rate schedulers."""
from . import lr_scheduler  # noqa: F401
from .optimizer import SGD, Adam, AdamW, Optimizer  # noqa: F401
