"""ctensor.cpu: torch.cpu's namespace; ctensor.cpu.amp.autocast is torch.cpu.amp.autocast."""
from . import amp  # noqa: F401
