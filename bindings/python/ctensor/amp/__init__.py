"""ctensor.amp: automatic mixed precision (issue 15) - autocast regions and the gradient scaler, with torch's
names (torch.autocast, torch.cpu.amp.autocast, torch.cuda.amp.GradScaler)."""
from ._autocast import (autocast, autocast_decrement_nesting, autocast_increment_nesting, clear_autocast_cache,
                        get_autocast_cpu_dtype, get_autocast_gpu_dtype, is_autocast_cache_enabled,
                        is_autocast_cpu_enabled, is_autocast_enabled, set_autocast_cache_enabled,
                        set_autocast_cpu_dtype, set_autocast_cpu_enabled, set_autocast_enabled,
                        set_autocast_gpu_dtype)
from .grad_scaler import GradScaler, OptState

__all__ = ["autocast", "GradScaler", "OptState"]

# torch.cuda.amp's namespace (attached to ctensor.cuda as ctensor.cuda.amp).
import types as _types  # noqa: E402

from ._autocast import cuda_autocast as _cuda_autocast  # noqa: E402

_cuda_amp = _types.SimpleNamespace(GradScaler=GradScaler, autocast=_cuda_autocast)
