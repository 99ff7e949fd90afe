"""ctensor: PyTorch-style tensors with reverse-mode autograd over ctensor's stable C ABI.

    import ctensor as ct
    x = ct.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = (x * x).sum()
    y.backward()          # x.grad == 2 * x

The compiled layer ctensor._C calls include/ctensor.h only; this package adds PyTorch names and semantics."""
import builtins as _builtins

from . import _C  # noqa: F401  (checks the library's ABI version at import)
from ._types import (DTYPES as _DTYPES, Size, bool_, device, dtype, float32, float64, get_default_dtype, int32,
                     int64, set_default_dtype, uint8)
from ._types import bfloat16, float16, int8, int16  # noqa: F401
from ._types import complex64, complex128  # noqa: F401
cfloat = complex64
cdouble = complex128
half = float16
short = int16
from ._tensor import Node, Tensor
from ._creation import (arange, as_tensor, bernoulli, empty, empty_like, eye, from_numpy, full, full_like, linspace,
                        logspace, ones, ones_like, rand, rand_like, randint, randn, randn_like, randperm, scalar_tensor, tensor,
                        zeros, zeros_like)
from ._functions import *  # noqa: F401,F403
from ._shape_ops import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403  (after _shape_ops: its flip replaces the index_select one)
from ._toolbox import *  # noqa: F401,F403
from ._toolbox_stats import *  # noqa: F401,F403
from ._complex import *  # noqa: F401,F403
from ._unary_math import *  # noqa: F401,F403
from ._binary_math import *  # noqa: F401,F403
from ._promotion import *  # noqa: F401,F403
from ._more_ops import *  # noqa: F401,F403
from ._functions import (all, any, max, min, pow, round, sum)  # noqa: F401  (shadow builtins on purpose)
from . import _indexing  # noqa: F401  (installs Tensor.__getitem__/__setitem__)
from . import autograd
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .serialization import load, save
from .safetensors import load_file, load_metadata, save_file
from . import testing
from ._dlpack import from_dlpack
from . import distributed, nn, optim, utils  # noqa: E402
from . import linalg  # noqa: E402
from ._rnn_ops import (gru, gru_cell, lstm, lstm_cell, rnn_relu, rnn_relu_cell, rnn_tanh,  # noqa: E402,F401
                       rnn_tanh_cell)
from .linalg import det, inverse, logdet, matrix_power, pinverse, slogdet  # noqa: E402,F401  (torch's aliases)

Generator = _C.Generator
__version__ = "%d.%d.%d" % (_C.version() // 10000, _C.version() // 100 % 100, _C.version() % 100)

float = float32  # noqa: A001
double = float64
int = int32  # noqa: A001
long = int64
bool = bool_  # noqa: A001


def manual_seed(seed):
    """Reseeds the default generator (used by rand/randn/randint/dropout without a generator)."""
    _C.manual_seed(seed)


def seed(s=0):
    manual_seed(s)


def set_num_threads(n):
    _C.set_num_threads(n)


def get_num_threads():
    return _C.get_num_threads()


def set_cpu_memory_limit(nbytes):
    """Caps the CPU memory held by tensors at nbytes (None: no cap); an allocation beyond it raises
    MemoryError and leaves its inputs and the autograd graph as they were."""
    _C.set_cpu_memory_limit(nbytes)


def cpu_memory_stats():
    """{'allocated', 'cached', 'limit'} bytes of CPU memory (limit None when there is none)."""
    allocated, cached, limit = _C.cpu_memory_stats()
    return {"allocated": allocated, "cached": cached, "limit": None if limit < 0 else limit}


class cuda:
    """ctensor.cuda: is_available(), device_count(), synchronize(), memory statistics (like torch.cuda)."""

    @staticmethod
    def is_available():
        return _C.cuda_is_available()[0]

    @staticmethod
    def device_count():
        return _C.cuda_device_count()

    @staticmethod
    def unavailable_reason():
        """Why CUDA is unavailable ('' when it is available)."""
        return _C.cuda_is_available()[1]

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def _index(dev):
        """Device index of None (cuda:0), an int, 'cuda[:i]' or a ctensor.device."""
        if dev is None:
            return 0
        if isinstance(dev, _builtins.int):  # this module rebinds int to the dtype
            return dev
        d = device(dev)
        if d.type != "cuda":
            raise ValueError("Expected a cuda device, but got: %s" % d)
        return d.index or 0

    @staticmethod
    def synchronize(device=None):
        """Waits until the device has finished all queued work."""
        _C.cuda_synchronize(cuda._index(device))

    @staticmethod
    def memory_allocated(device=None):
        """Bytes held by live tensors on the device."""
        return _C.cuda_memory_stats(cuda._index(device))[0]

    @staticmethod
    def memory_reserved(device=None):
        """Bytes the caching allocator holds (live plus cached)."""
        return _C.cuda_memory_stats(cuda._index(device))[1]

    @staticmethod
    def max_memory_allocated(device=None):
        """Peak of memory_allocated since the process started."""
        return _C.cuda_memory_stats(cuda._index(device))[2]

    @staticmethod
    def empty_cache():
        """Returns the cached (unused) device memory to the driver."""
        _C.cuda_empty_cache()


# ---- mixed precision (issue 15): torch.autocast, torch.cpu.amp, torch.cuda.amp, torch.amp ----
from . import amp, cpu  # noqa: E402
from .amp import (autocast, autocast_decrement_nesting, autocast_increment_nesting,  # noqa: E402,F401
                  clear_autocast_cache, get_autocast_cpu_dtype, get_autocast_gpu_dtype, is_autocast_cache_enabled,
                  is_autocast_cpu_enabled, is_autocast_enabled, set_autocast_cache_enabled, set_autocast_cpu_dtype,
                  set_autocast_cpu_enabled, set_autocast_enabled, set_autocast_gpu_dtype)
cuda.amp = amp._cuda_amp  # ctensor.cuda.amp.GradScaler / ctensor.cuda.amp.autocast
