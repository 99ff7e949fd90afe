"""ctensor.nn.parallel: DistributedDataParallel (torch.nn.parallel's name) over ctensor.distributed."""
from .distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DistributedDataParallel"]
