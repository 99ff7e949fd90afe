"""ctensor.utils: helpers outside the tensor core (ctensor.utils.data: datasets, samplers, DataLoader;
ctensor.utils.hooks: RemovableHandle)."""
from . import data, hooks  # noqa: F401
