"""ctensor.optim: the cyclic learning-rate schedules (CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR) with
PyTorch 1.13's semantics; re-exported by ctensor.optim.lr_scheduler, whose LRScheduler they extend."""
import math
import types
from typing import Any, Callable, Optional, Sequence, Union

from .lr_scheduler import LRScheduler, _check_optimizer


def _per_group(name, optimizer, value):
    """value as one entry per param group (a list or tuple must already have one)."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError("expected %d values for %s, got %d" % (len(optimizer.param_groups), name, len(value)))
        return list(value)
    return [value] * len(optimizer.param_groups)


class CyclicLR(LRScheduler):
    """Cycles each group's lr between base_lr and max_lr (triangular waves of step_size_up rising and
    step_size_down falling steps; step() once per batch). mode "triangular" keeps the amplitude,
    "triangular2" halves it every cycle, "exp_range" scales it by gamma ** iteration; a custom scale_fn
    (of the cycle number or of the iteration, per scale_mode) replaces the mode. With cycle_momentum (the
    default; the optimizer must have a momentum), group["momentum"] cycles inversely between max_momentum and
    base_momentum. Constructing sets each group's lr to base_lr (and momentum to base_momentum)."""

    def __init__(self, optimizer: Any, base_lr: Union[float, Sequence[float]], max_lr: Union[float, Sequence[float]],
                 step_size_up: int = 2000, step_size_down: Optional[int] = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn: Optional[Callable[[float], float]] = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: Union[float, Sequence[float]] = 0.8,
                 max_momentum: Union[float, Sequence[float]] = 0.9, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        _check_optimizer(optimizer)
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma, self._scale_fn_custom = mode, gamma, scale_fn
        self.scale_mode = scale_mode if scale_fn is not None else "iterations" if mode == "exp_range" else "cycle"
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in getattr(optimizer, "defaults", {}):
                raise ValueError("optimizer must support momentum with `cycle_momentum` option enabled")
            base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for momentum, group in zip(base_momentums, optimizer.param_groups):
                    group["momentum"] = momentum
            self.base_momentums = [group["momentum"] for group in optimizer.param_groups]
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
        super().__init__(optimizer, last_epoch, verbose)
        self.base_lrs = base_lrs  # after the first step, which used the groups' initial_lr (as torch does)

    def scale_fn(self, x: float) -> float:
        """The amplitude scale of cycle (or iteration) x."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        """The lrs at batch index last_epoch; with cycle_momentum, also writes the groups' momentum."""
        self._warn_if_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base + (top - base) * scale_factor * scale for base, top in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                group["momentum"] = high - (high - low) * scale_factor * scale
        return lrs

    def state_dict(self):
        """As LRScheduler's, with a custom scale_fn saved like LambdaLR's functions (only a callable object's
        __dict__; plain functions and lambdas are not saved), so the state pickles."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_scale_fn_custom")}
        fn = self._scale_fn_custom
        state["_scale_fn_custom"] = None if fn is None or isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        saved_fn = state.pop("_scale_fn_custom", None)
        self.__dict__.update(state)
        if saved_fn is not None and self._scale_fn_custom is not None:
            self._scale_fn_custom.__dict__.update(saved_fn)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from base_lr to eta_min over T_i epochs, then a warm restart at base_lr; the period
    starts at T_0 and is multiplied by T_mult after every restart. step(epoch) accepts fractional epochs
    (e.g. epoch + batch / batches_per_epoch) without a deprecation warning, as in torch."""

    def __init__(self, optimizer: Any, T_0: int, T_mult: int = 1, eta_min: float = 0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError("Expected positive integer T_0, but got {}".format(T_0))
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError("Expected integer T_mult >= 1, but got {}".format(T_mult))
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        return [self.eta_min + (b - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for b in self.base_lrs]

    def step(self, epoch: Optional[float] = None) -> None:  # type: ignore[override]
        """Advances one epoch (restarting when the period ends), or jumps to epoch (may be fractional)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError("Expected non-negative epoch, but got {}".format(epoch))
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._apply_lrs(self.get_lr, epoch)


def _anneal_cos(start, end, pct):
    """Cosine from start (pct 0) to end (pct 1)."""
    return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)


def _anneal_linear(start, end, pct):
    """Straight line from start (pct 0) to end (pct 1)."""
    return (end - start) * pct + start


def _one_cycle_phases(total_steps, pct_start, three_phase):
    """The phases of OneCycleLR: the last step of each and the group keys it anneals between."""
    warm_up = {"end_step": float(pct_start * total_steps) - 1, "start_lr": "initial_lr", "end_lr": "max_lr",
               "start_momentum": "max_momentum", "end_momentum": "base_momentum"}
    if not three_phase:
        return [warm_up, {"end_step": total_steps - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                          "start_momentum": "base_momentum", "end_momentum": "max_momentum"}]
    return [warm_up,
            {"end_step": float(2 * pct_start * total_steps) - 2, "start_lr": "max_lr", "end_lr": "initial_lr",
             "start_momentum": "base_momentum", "end_momentum": "max_momentum"},
            {"end_step": total_steps - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
             "start_momentum": "max_momentum", "end_momentum": "max_momentum"}]


class OneCycleLR(LRScheduler):
    """The 1cycle policy (step() once per batch, total_steps or epochs * steps_per_epoch batches): the lr rises
    from max_lr / div_factor to max_lr over the first pct_start of the steps, then falls to
    initial_lr / final_div_factor, annealing with a cosine ("cos") or linearly ("linear"). three_phase makes
    the fall symmetric back to initial_lr and adds a last phase down to the minimum. With cycle_momentum the
    momentum (or Adam's beta1) moves inversely between max_momentum and base_momentum. Not chainable.
    Stores initial_lr, max_lr, min_lr (and max_momentum, base_momentum) in each param group."""

    def __init__(self, optimizer: Any, max_lr: Union[float, Sequence[float]], total_steps: Optional[int] = None,
                 epochs: Optional[int] = None, steps_per_epoch: Optional[int] = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: Union[float, Sequence[float]] = 0.85,
                 max_momentum: Union[float, Sequence[float]] = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = self._total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _one_cycle_phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError("Expected float between 0 and 1 pct_start, but got {}".format(pct_start))
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', instead got {}"
                             .format(anneal_strategy))
        self.anneal_strategy = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, top in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            defaults = getattr(optimizer, "defaults", {})
            if "momentum" not in defaults and "betas" not in defaults:
                raise ValueError("optimizer must support momentum with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in defaults
            max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for high, low, group in zip(max_momentums, base_momentums, optimizer.param_groups):
                    self._set_momentum(group, high)
                    group["max_momentum"], group["base_momentum"] = high, low
        super().__init__(optimizer, last_epoch, verbose)

    @staticmethod
    def _total_steps(total_steps, epochs, steps_per_epoch):
        if total_steps is None and epochs is None and steps_per_epoch is None:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError("Expected positive integer total_steps, but got {}".format(total_steps))
            return total_steps
        if epochs is None or epochs <= 0 or not isinstance(epochs, int):
            raise ValueError("Expected positive integer epochs, but got {}".format(epochs))
        if steps_per_epoch is None or steps_per_epoch <= 0 or not isinstance(steps_per_epoch, int):
            raise ValueError("Expected positive integer steps_per_epoch, but got {}".format(steps_per_epoch))
        return epochs * steps_per_epoch

    def _set_momentum(self, group, momentum):
        if self.use_beta1:
            group["betas"] = (momentum, *group["betas"][1:])
        else:
            group["momentum"] = momentum

    def anneal_func(self, start: float, end: float, pct: float) -> float:
        """The annealing of anneal_strategy from start (pct 0) to end (pct 1)."""
        return (_anneal_cos if self.anneal_strategy == "cos" else _anneal_linear)(start, end, pct)

    def get_lr(self):
        """The lrs at batch index last_epoch; with cycle_momentum, also writes the groups' momentum/betas."""
        self._warn_if_outside_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError("Tried to step {} times. The specified number of total steps is {}"
                             .format(step_num + 1, self.total_steps))
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self.anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self.anneal_func(group[phase["start_momentum"]],
                                                                   group[phase["end_momentum"]], pct))
                    break
                start_step = phase["end_step"]
        return lrs
