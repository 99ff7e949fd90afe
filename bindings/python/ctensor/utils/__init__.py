"""ctensor.utils: helpers outside the tensor core (ctensor.utils.data: datasets, samplers, DataLoader)."""
from . import data  # noqa: F401
