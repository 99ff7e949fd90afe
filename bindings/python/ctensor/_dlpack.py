"""ctensor.from_dlpack: imports any object with __dlpack__ (NumPy, PyTorch, ...) or a DLPack capsule, zero-copy."""
from . import _C


def from_dlpack(ext):
    """A tensor sharing ext's memory. Asks for a versioned capsule first, falling back to the legacy protocol
    for producers that do not accept max_version (PyTorch < 2.3, NumPy < 2.1)."""
    if not hasattr(ext, "__dlpack__"):
        return _C.from_dlpack_capsule(ext)
    if hasattr(ext, "__dlpack_device__"):
        dev_type, _ = ext.__dlpack_device__()
        if int(dev_type) not in (_C.DEVICE_CPU, _C.DEVICE_CUDA):
            raise BufferError("from_dlpack: unsupported DLPack device type %d" % int(dev_type))
    try:
        capsule = ext.__dlpack__(max_version=(_C.DLPACK_MAJOR_VERSION, _C.DLPACK_MINOR_VERSION))
    except TypeError:
        capsule = ext.__dlpack__()
    return _C.from_dlpack_capsule(capsule)
