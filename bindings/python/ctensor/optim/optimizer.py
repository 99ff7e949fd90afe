"""ctensor.optim: SGD, Adam and AdamW over the C optimizer handles (one handle per param group), with
PyTorch's param_groups (changing group["lr"], ["momentum"], ["betas"], ... takes effect at the next step, as
schedulers that cycle momentum expect), zero_grad and closures."""
from .. import _C


class Optimizer:
    """Base class: param_groups is a list of dicts, each with "params" and the hyper-parameters."""

    _kind = None

    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        self.param_groups = []
        self._handles = []
        self._synced = []  # per handle: the hyper-parameter values it was last given
        self.state = {}
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, group):
        group = dict(group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, _C.TensorBase) else list(params)
        for p in group["params"]:
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        self._validate(group)
        self.param_groups.append(group)
        self._handles.append(self._make_handle(group))
        self._synced.append(self._hparams(group))

    def _validate(self, group):
        if group["lr"] < 0:
            raise ValueError("Invalid learning rate: %s" % group["lr"])

    def _make_handle(self, group):
        raise NotImplementedError

    def _hparams(self, group):
        """The C handle's hyper-parameters (ct_optimizer_set_hparam names) for a param group."""
        return {"lr": group["lr"]}

    def _sync_hparams(self):
        """Passes edits of the param groups (by schedulers or by hand) on to the C handles."""
        for g, h, synced in zip(self.param_groups, self._handles, self._synced):
            for name, value in self._hparams(g).items():
                if synced.get(name) != value:
                    h.set_hparam(name, float(value))
                    synced[name] = value

    def step(self, closure=None):
        """One update of every parameter with a gradient; returns closure() when given (evaluated first)."""
        loss = None
        if closure is not None:
            prev = _C.set_grad_enabled(True)
            try:
                loss = closure()
            finally:
                _C.set_grad_enabled(prev)
        self._sync_hparams()
        for h in self._handles:
            h.step()
        return loss

    def zero_grad(self, set_to_none=True):
        for h in self._handles:
            h.zero_grad(set_to_none)

    def state_dict(self):
        """Like torch: {"state": {index: {name: tensor, "step": tensor}}, "param_groups": [...]} where index counts
        parameters across groups. The tensors are copies of the optimizer's buffers."""
        from .._creation import tensor

        groups, state, index = [], {}, 0
        for g, h in zip(self.param_groups, self._handles):
            d = {k: v for k, v in g.items() if k != "params"}
            d["params"] = list(range(index, index + len(g["params"])))
            groups.append(d)
            names = h.state_names()
            for i in range(len(g["params"])):
                entry = {}
                for name in names:
                    t = h.get_state(i, name)
                    if t is not None:
                        entry[name] = t
                if self._has_step and entry:
                    entry["step"] = tensor(float(h.get_step(i)))
                if entry:
                    state[index + i] = entry
            index += len(g["params"])
        return {"state": state, "param_groups": groups}

    _has_step = False

    def load_state_dict(self, state_dict):
        """Restores hyper-parameters and per-parameter state saved by state_dict (of ctensor or torch)."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        state = state_dict["state"]
        for gi, (mine, saved) in enumerate(zip(self.param_groups, groups)):
            for k, v in saved.items():
                if k != "params":
                    mine[k] = tuple(v) if k == "betas" else v
            self._validate(mine)
            h = self._handles[gi] = self._make_handle(mine)
            self._synced[gi] = self._hparams(mine)
            names = h.state_names()
            for i, key in enumerate(saved["params"]):
                entry = state.get(key, state.get(str(key), {}))
                for name in names:
                    h.set_state(i, name, self._as_tensor(entry.get(name), mine["params"][i]))
                if self._has_step:
                    step = entry.get("step", 0)
                    h.set_step(i, int(step.item() if hasattr(step, "item") else step))

    @staticmethod
    def _as_tensor(value, like):
        """value as a ctensor Tensor on like's device (accepts ctensor, torch or NumPy arrays); None stays None."""
        if value is None or isinstance(value, _C.TensorBase):
            return value
        from .._creation import tensor

        if hasattr(value, "detach"):  # a torch tensor
            value = value.detach().cpu().numpy()
        return tensor(value, dtype=like.dtype, device=like.device)

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, g in enumerate(self.param_groups):
            lines.append("Parameter Group %d" % i)
            lines.extend("    %s: %s" % (k, g[k]) for k in sorted(g) if k != "params")
        return "\n".join(lines) + "\n)"


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False):
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov))

    def _make_handle(self, g):
        return _C.Optimizer("sgd", g["params"], g["lr"], g["momentum"], g["dampening"], g["weight_decay"], 0.0,
                            bool(g["nesterov"]))

    def _hparams(self, g):
        return {"lr": g["lr"], "momentum": g["momentum"], "dampening": g["dampening"],
                "weight_decay": g["weight_decay"], "nesterov": bool(g["nesterov"])}


class _AdamBase(Optimizer):
    _kind = "adam"
    _has_step = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False):
        if amsgrad:
            raise NotImplementedError("amsgrad is not supported")
        if not 0.0 <= betas[0] < 1.0 or not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameters: %s" % (betas,))
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=False))

    def _make_handle(self, g):
        b1, b2 = g["betas"]
        return _C.Optimizer(self._kind, g["params"], g["lr"], b1, b2, g["eps"], g["weight_decay"])

    def _hparams(self, g):
        b1, b2 = g["betas"]
        return {"lr": g["lr"], "beta1": b1, "beta2": b2, "eps": g["eps"], "weight_decay": g["weight_decay"]}


class Adam(_AdamBase):
    """Adam with L2 weight decay (torch.optim.Adam)."""

    _kind = "adam"


class AdamW(_AdamBase):
    """Adam with decoupled weight decay (torch.optim.AdamW; weight_decay defaults to 0.01)."""

    _kind = "adamw"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad)
