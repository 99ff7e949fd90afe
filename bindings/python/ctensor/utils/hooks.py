"""ctensor.utils.hooks: RemovableHandle, the handle that every register_*_hook returns (torch.utils.hooks')."""
import itertools
import weakref

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """Removes its hook from the dict it was registered in: handle.remove(), or leave a `with handle:` block."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)

    def remove(self):
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None:
            hooks_dict.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
