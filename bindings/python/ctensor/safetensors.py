"""ctensor.save_file / load_file: dicts of tensors in the safetensors format (the same calls as
safetensors.torch), so weights move between ctensor's languages, PyTorch and the safetensors package."""
import os

from . import _C
from ._types import to_device


def save_file(tensors, filename, metadata=None):
    """Writes {name: Tensor} (any device; stored row-major, detached) and optional {str: str} metadata to filename."""
    if not isinstance(tensors, dict):
        raise TypeError(f"save_file: tensors must be a dict of name -> Tensor, got {type(tensors).__name__}")
    for name in tensors:
        if not isinstance(name, str):
            raise TypeError(f"save_file: tensor names must be str, got {type(name).__name__}")
    if metadata is not None:
        if not isinstance(metadata, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("save_file: metadata must be a dict of str -> str")
    _C.save_safetensors(list(tensors.items()), list((metadata or {}).items()), os.fspath(filename))


def load_file(filename, device="cpu", mmap=True):
    """Reads a safetensors file into {name: Tensor} (in the file's data order) on device. With mmap, CPU tensors
    view a private mapping of the file (zero-copy; writing to them never changes the file)."""
    items, _ = _C.load_safetensors(os.fspath(filename), to_device(device)._tuple(), bool(mmap))
    return dict(items)


def load_metadata(filename):
    """The {str: str} metadata of a safetensors file (its "__metadata__")."""
    _, metadata = _C.load_safetensors(os.fspath(filename), to_device("cpu")._tuple(), True)
    return metadata
