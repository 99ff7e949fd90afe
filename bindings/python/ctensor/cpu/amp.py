"""ctensor.cpu.amp: torch.cpu.amp.autocast(enabled=True, dtype=bfloat16, cache_enabled=True)."""
from ..amp._autocast import cpu_autocast as autocast  # noqa: F401
