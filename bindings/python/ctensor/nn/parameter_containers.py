"""ctensor.nn.ParameterList and ParameterDict (torch 1.13's behaviour): containers whose Parameters are registered
on the module, so parameters(), named_parameters(), state_dict() and optimizers see them ("0", "1", ... for a list,
the keys for a dict). A Tensor that is not a Parameter is wrapped in one on insertion; other values (None, numbers)
are kept but are not parameters.

Invariant: every entry lives in exactly one place, self._parameters (Parameters) or self._plain (anything else),
under its key; ParameterDict's order is self._order (insertion order), ParameterList's keys are "0".."len-1"."""
import collections
import collections.abc

from .. import _C
from .module import Module
from .parameter import Parameter


def _as_parameter(value):
    if isinstance(value, _C.TensorBase) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


class _ParameterStore(Module):
    """Key -> value storage shared by ParameterList and ParameterDict."""

    def __init__(self):
        super().__init__()
        object.__setattr__(self, "_plain", collections.OrderedDict())

    def _put(self, key, value):
        """Stores value under key. As in torch, a Parameter replacing a Parameter keeps its place in
        named_parameters() / state_dict(), and one replacing a non-parameter is registered last."""
        value = _as_parameter(value)
        target, other = (self._parameters, self._plain) if isinstance(value, Parameter) else (self._plain,
                                                                                            self._parameters)
        other.pop(key, None)
        target[key] = value

    def _get(self, key):
        if key in self._parameters:
            return self._parameters[key]
        return self._plain[key]

    def _drop(self, key):
        return self._parameters.pop(key) if key in self._parameters else self._plain.pop(key)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s should not be called." % type(self).__name__)

    def _entry_repr(self, key, value):
        if not isinstance(value, _C.TensorBase):
            return "  (%s): Object of type: %s" % (key, type(value).__name__)
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        size = "x".join(str(s) for s in value.shape)
        device = "" if value.device.type == "cpu" else " (%s)" % value.device
        return "  (%s): %s containing: [%s of size %s%s]" % (key, kind, value.type(), size, device)


class ParameterList(_ParameterStore):
    """A list of Parameters registered as "0", "1", ...: indexing (negative and slices), append, extend, +=,
    len and iteration."""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self += values

    def _key(self, idx):
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise TypeError("ParameterList indices must be integers or slices, not %s" % type(idx).__name__)
        if not -self._size <= idx < self._size:
            raise IndexError("index %d is out of range for a ParameterList of length %d" % (idx, self._size))
        return str(idx % self._size)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self._get(str(i)) for i in range(self._size)[idx]])
        return self._get(self._key(idx))

    def __setitem__(self, idx, value):
        self._put(self._key(idx), value)

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self._get(str(i)) for i in range(self._size))

    def __iadd__(self, values):
        return self.extend(values)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value):
        """Appends value (a Tensor becomes a Parameter); returns self."""
        key = str(self._size)
        object.__setattr__(self, "_size", self._size + 1)
        self._put(key, value)
        return self

    def extend(self, values):
        """Appends every value of an iterable (not a Tensor); returns self."""
        if not isinstance(values, collections.abc.Iterable) or isinstance(values, _C.TensorBase):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for v in values:
            self.append(v)
        return self

    def extra_repr(self):
        return "\n".join(self._entry_repr(i, v) for i, v in enumerate(self))

    def __repr__(self):
        return "ParameterList(\n%s\n)" % self.extra_repr() if self._size else "ParameterList()"


class ParameterDict(_ParameterStore):
    """An ordered dict of Parameters registered under their keys, with dict's methods (update keeps the order of
    OrderedDict/ParameterDict/sequences of pairs and sorts a plain mapping's keys, as torch 1.13 does)."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_order", collections.OrderedDict())
        if parameters is not None:
            self.update(parameters)

    def _check_key(self, key):
        if not isinstance(key, str):
            raise TypeError("ParameterDict keys must be strings, got %s" % type(key).__name__)
        if "." in key or key == "":
            raise KeyError("parameter name can't contain \".\" or be empty, got %r" % key)
        return key

    def __getitem__(self, key):
        if key not in self._order:
            raise KeyError(key)
        return self._get(key)

    def __setitem__(self, key, value):
        self._order[self._check_key(key)] = None
        self._put(key, value)

    def __delitem__(self, key):
        if key not in self._order:
            raise KeyError(key)
        del self._order[key]
        self._drop(key)

    def __len__(self):
        return len(self._order)

    def __iter__(self):
        return iter(self._order)

    def __reversed__(self):
        return reversed(list(self._order))

    def __contains__(self, key):
        return key in self._order

    def keys(self):
        return self._order.keys()

    def values(self):
        return [self._get(k) for k in self._order]

    def items(self):
        return [(k, self._get(k)) for k in self._order]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        if not self._order:
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(self._order))
        return key, self.pop(key)

    def clear(self):
        for key in list(self._order):
            del self[key]

    def copy(self):
        return ParameterDict(collections.OrderedDict(self.items()))

    @classmethod
    def fromkeys(cls, keys, default=None):
        return cls(collections.OrderedDict((k, default) for k in keys))

    def update(self, parameters):
        """Adds or replaces entries from a mapping or an iterable of (key, value) pairs."""
        if isinstance(parameters, (collections.OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, collections.abc.Mapping):
            pairs = sorted(parameters.items())
        elif isinstance(parameters, collections.abc.Iterable) and not isinstance(parameters, (str, _C.TensorBase)):
            pairs = []
            for i, p in enumerate(parameters):
                if not isinstance(p, collections.abc.Iterable) or len(p) != 2:
                    raise ValueError("ParameterDict update sequence element #%d has length %s; 2 is required"
                                     % (i, len(p) if hasattr(p, "__len__") else "unknown"))
                pairs.append(tuple(p))
        else:
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        for k, v in pairs:
            self[k] = v

    def __or__(self, other):
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other):
        out = ParameterDict(other)
        out.update(self)
        return out

    def __ior__(self, other):
        self.update(other)
        return self

    def extra_repr(self):
        return "\n".join(self._entry_repr(k, v) for k, v in self.items())

    def __repr__(self):
        return "ParameterDict(\n%s\n)" % self.extra_repr() if self._order else "ParameterDict()"
