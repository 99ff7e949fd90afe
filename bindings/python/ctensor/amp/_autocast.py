"""ctensor.autocast: torch's autocast context manager / decorator over the C ABI's thread-local autocast state
(ct_autocast_*). Inside a region the matmul family runs in the half dtype, losses and linear algebra in float32;
the table of ops lives in the engine (src/ops/autocast.cpp), ctensor._C.autocast_policy(op, device) reads it."""
import functools
import warnings

from .. import _C
from .._types import BY_CODE, bfloat16, float16

_DEVICE_TYPES = {"cpu": 1, "cuda": 2}
_SUPPORTED = (bfloat16, float16)  # ctensor's CPU computes both (torch 1.13's CPU autocast: bfloat16 only)


def _device_code(device_type):
    if device_type not in _DEVICE_TYPES:
        raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu', got %r" % (device_type,))
    return _DEVICE_TYPES[device_type]


def is_autocast_cpu_enabled():
    return _C.autocast_is_enabled(1)


def set_autocast_cpu_enabled(enabled):
    _C.autocast_set_enabled(1, bool(enabled))


def get_autocast_cpu_dtype():
    return BY_CODE[_C.autocast_get_dtype(1)]


def set_autocast_cpu_dtype(dtype):
    _C.autocast_set_dtype(1, dtype.code)


def is_autocast_enabled():
    """Whether this thread is in a CUDA autocast region (torch's name)."""
    return _C.autocast_is_enabled(2)


def set_autocast_enabled(enabled):
    _C.autocast_set_enabled(2, bool(enabled))


def get_autocast_gpu_dtype():
    return BY_CODE[_C.autocast_get_dtype(2)]


def set_autocast_gpu_dtype(dtype):
    _C.autocast_set_dtype(2, dtype.code)


def is_autocast_cache_enabled():
    return _C.autocast_is_cache_enabled()


def set_autocast_cache_enabled(enabled):
    _C.autocast_set_cache_enabled(bool(enabled))


def clear_autocast_cache():
    _C.autocast_clear_cache()


def autocast_increment_nesting():
    return _C.autocast_increment_nesting()


def autocast_decrement_nesting():
    return _C.autocast_decrement_nesting()


class autocast:
    """autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a region in which listed ops cast
    their floating inputs (torch's semantics: the state is per thread; regions nest and restore the outer state;
    the cast cache is cleared when the outermost region exits). Also a decorator."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = device_type
        self._code = _device_code(device_type)
        self.fast_dtype = BY_CODE[_C.autocast_get_dtype(self._code)] if dtype is None else dtype
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else bool(cache_enabled)
        if enabled and self.fast_dtype not in _SUPPORTED:
            warnings.warn("In %s autocast, but the target dtype %s is not supported (float16 or bfloat16). "
                          "Disabling autocast." % (device_type, self.fast_dtype))
            enabled = False
        self._enabled = bool(enabled)

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = _C.autocast_is_enabled(self._code)
        self.prev_fastdtype = _C.autocast_get_dtype(self._code)
        if self.fast_dtype in _SUPPORTED:
            _C.autocast_set_dtype(self._code, self.fast_dtype.code)
        _C.autocast_set_enabled(self._code, self._enabled)
        _C.autocast_increment_nesting()
        _C.autocast_set_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc):
        if _C.autocast_decrement_nesting() == 0:
            _C.autocast_clear_cache()
        _C.autocast_set_enabled(self._code, self.prev)
        _C.autocast_set_dtype(self._code, self.prev_fastdtype)
        _C.autocast_set_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


class cpu_autocast(autocast):
    """torch.cpu.amp.autocast(enabled=True, dtype=bfloat16, cache_enabled=True)."""

    def __init__(self, enabled=True, dtype=bfloat16, cache_enabled=True):
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class cuda_autocast(autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=float16, cache_enabled=True)."""

    def __init__(self, enabled=True, dtype=float16, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
