"""ctensor.optim.lr_scheduler: learning-rate schedules over an optimizer's param_groups with PyTorch's semantics
(chainable recursive updates, closed forms for step(epoch), state_dict/load_state_dict, get_last_lr):
StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR, PolynomialLR, CosineAnnealingLR, LambdaLR,
MultiplicativeLR, SequentialLR, ChainedScheduler, ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts and
OneCycleLR."""
import bisect
import collections
import math
import types
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

_Lambda = Callable[[int], float]

_EPOCH_DEPRECATION = ("The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
                      "possible. Please use `scheduler.step()` to step the scheduler.")
_GET_LR_OUTSIDE_STEP = "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."


def _check_optimizer(optimizer):
    if not hasattr(optimizer, "param_groups"):
        raise TypeError("%s is not an Optimizer" % type(optimizer).__name__)


def _print_lr(is_verbose, group, lr, epoch=None):
    if not is_verbose:
        return
    if epoch is None:
        print("Adjusting learning rate of group {} to {:.4e}.".format(group, lr))
    else:
        epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
        print("Epoch {}: adjusting learning rate of group {} to {:.4e}.".format(epoch_str, group, lr))


class LRScheduler:
    """Base class. Subclasses implement get_lr() (the chainable form: the new lr from each group's current lr) and
    optionally _get_closed_form_lr() (the lr as a function of last_epoch, used by the deprecated step(epoch)).

    Constructing a scheduler records group["initial_lr"] (when last_epoch == -1) and performs the first step(),
    so the optimizer's lr is the schedule's value for epoch 0 right away, as in PyTorch."""

    def __init__(self, optimizer: Any, last_epoch: int = -1, verbose: bool = False) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError("param 'initial_lr' is not specified in param_groups[%d] when resuming an "
                                   "optimizer" % i)
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._get_lr_called_within_step = False
        self._initial_step()

    def _initial_step(self):
        """Resets the step count and performs the first step (also used by SequentialLR to restart a scheduler)."""
        self._step_count = 0
        self.step()

    def get_lr(self) -> List[float]:
        """The learning rates of the current last_epoch (call get_last_lr() to read them instead)."""
        raise NotImplementedError

    def _warn_if_outside_step(self):
        if not self._get_lr_called_within_step:
            warnings.warn(_GET_LR_OUTSIDE_STEP, UserWarning)

    def _group_lrs(self):
        return [group["lr"] for group in self.optimizer.param_groups]

    def get_last_lr(self) -> List[float]:
        """The learning rates (one per param group) set by the last step()."""
        return self._last_lr

    def print_lr(self, is_verbose, group, lr, epoch=None):
        """Prints the new lr of a group when is_verbose (PyTorch's message)."""
        _print_lr(is_verbose, group, lr, epoch)

    def step(self, epoch: Optional[int] = None) -> None:
        """Advances last_epoch by one (or sets it to epoch, deprecated) and writes the new lr into each group."""
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                warnings.warn(_EPOCH_DEPRECATION, UserWarning)
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, values)):
            group["lr"] = lr
            self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = self._group_lrs()

    def state_dict(self) -> Dict[str, Any]:
        """Every attribute except the optimizer (PyTorch's format)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Restores the attributes saved by state_dict()."""
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler  # PyTorch's older name


class StepLR(LRScheduler):
    """Multiplies each group's lr by gamma every step_size epochs: lr = base_lr * gamma ** (epoch // step_size)."""

    def __init__(self, optimizer: Any, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._group_lrs()
        return [lr * self.gamma for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiplies each group's lr by gamma whenever the epoch reaches one of the milestones (a milestone listed
    k times multiplies by gamma ** k)."""

    def __init__(self, optimizer: Any, milestones: Iterable[int], gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.milestones = collections.Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch not in self.milestones:
            return self._group_lrs()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect.bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiplies each group's lr by factor until epoch total_iters, then restores it:
    lr = base_lr * factor for epoch < total_iters, base_lr afterwards."""

    def __init__(self, optimizer: Any, factor: float = 1.0 / 3, total_iters: int = 5, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self._group_lrs()]
        if self.last_epoch != self.total_iters:
            return self._group_lrs()
        return [lr * (1.0 / self.factor) for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Scales each group's lr by a factor going linearly from start_factor (epoch 0) to end_factor (epoch
    total_iters and after): lr = base_lr * (start + (end - start) * min(epoch, total_iters) / total_iters)."""

    def __init__(self, optimizer: Any, start_factor: float = 1.0 / 3, end_factor: float = 1.0, total_iters: int = 5,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if start_factor > 1.0 or start_factor < 0:
            raise ValueError("Starting multiplicative factor expected to be between 0 and 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in self._group_lrs()]
        if self.last_epoch > self.total_iters:
            return self._group_lrs()
        delta = self.end_factor - self.start_factor
        ratio = 1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta)
        return [lr * ratio for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        delta = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + delta * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]

class ExponentialLR(LRScheduler):
    """Multiplies each group's lr by gamma every epoch: lr = base_lr * gamma ** epoch."""

    def __init__(self, optimizer: Any, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return self._group_lrs()
        return [lr * self.gamma for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decays each group's lr polynomially to 0 at epoch total_iters:
    lr = base_lr * (1 - min(epoch, total_iters) / total_iters) ** power."""

    def __init__(self, optimizer: Any, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return self._group_lrs()
        decay = ((1.0 - self.last_epoch / self.total_iters) / (1.0 - (self.last_epoch - 1) / self.total_iters)) \
            ** self.power
        return [lr * decay for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]

class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from base_lr to eta_min over T_max epochs (then back up, periodically), computed with
    PyTorch's recursive update so that it composes with other changes of the lr:
    lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2 when nothing else changes it."""

    def __init__(self, optimizer: Any, T_max: int, eta_min: float = 0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        t, T, eta_min = self.last_epoch, self.T_max, self.eta_min
        if t == 0:
            return self._group_lrs()
        if self._step_count == 1 and t > 0:  # resuming at last_epoch > 0: closed form
            return [eta_min + (b - eta_min) * (1 + math.cos(t * math.pi / T)) / 2 for b in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:  # leaving the minimum: the recursive ratio would be 0 / 0
            return [lr + (b - eta_min) * (1 - math.cos(math.pi / T)) / 2
                    for b, lr in zip(self.base_lrs, self._group_lrs())]
        ratio = (1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
        return [ratio * (lr - eta_min) + eta_min for lr in self._group_lrs()]

    def _get_closed_form_lr(self):
        return [self.eta_min + (b - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for b in self.base_lrs]


class _LambdaScheduler(LRScheduler):
    """Shared by LambdaLR and MultiplicativeLR: one function per param group; state_dict keeps the __dict__ of
    callable objects (plain functions and lambdas are not saved), as PyTorch does."""

    def __init__(self, optimizer: Any, lr_lambda: Union[_Lambda, Sequence[_Lambda]], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        _check_optimizer(optimizer)
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError("Expected %d lr_lambdas, but got %d" % (n, len(lr_lambda)))
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch, verbose)

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        saved_lambdas = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for fn, saved in zip(self.lr_lambdas, saved_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(_LambdaScheduler):
    """lr = base_lr * lr_lambda(epoch), with one function or a list of one function per param group."""

    def get_lr(self):
        self._warn_if_outside_step()
        return [b * fn(self.last_epoch) for fn, b in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaScheduler):
    """Multiplies each group's lr by lr_lambda(epoch) every epoch after the first."""

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch > 0:
            return [lr * fn(self.last_epoch) for fn, lr in zip(self.lr_lambdas, self._group_lrs())]
        return self._group_lrs()


class _SchedulerList(LRScheduler):
    """Shared by SequentialLR and ChainedScheduler: holds other schedulers of one optimizer; state_dict nests
    theirs under "_schedulers"."""

    _schedulers: List[LRScheduler]

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)  # the caller's dict is left as it was
        saved = state.pop("_schedulers")
        self.__dict__.update(state)
        for scheduler, scheduler_state in zip(self._schedulers, saved):
            scheduler.load_state_dict(scheduler_state)


class SequentialLR(_SchedulerList):
    """Runs schedulers one after another: schedulers[i] drives the lr from milestones[i - 1] on, restarted at
    its epoch 0 when its milestone is reached (with step(0), hence torch's deprecation warning there).
    Construction resets every group's lr to its initial_lr and restarts the first scheduler."""

    def __init__(self, optimizer: Any, schedulers: Sequence[LRScheduler], milestones: Sequence[int],
                 last_epoch: int = -1, verbose: bool = False) -> None:
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                                 "got schedulers at index %d to be different than the optimizer passed in." % i)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             "number of milestone points, but got number of schedulers %d and the number of "
                             "milestones to be equal to %d" % (len(schedulers), len(milestones)))
        self._schedulers, self._milestones = list(schedulers), list(milestones)
        self.last_epoch, self.optimizer = last_epoch + 1, optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        for scheduler in self._schedulers:  # undo the step each scheduler made when it was constructed
            scheduler.last_epoch -= 1
        self._schedulers[0]._initial_step()
        self._last_lr = self._schedulers[0].get_last_lr()

    def step(self) -> None:  # type: ignore[override]
        """Advances the epoch and steps the scheduler in charge of it."""
        self.last_epoch += 1
        index = bisect.bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_SchedulerList):
    """Steps several chainable schedulers of one optimizer together, so their changes to the lr compose
    (e.g. ConstantLR warm-up times ExponentialLR decay)."""

    def __init__(self, schedulers: Sequence[LRScheduler]) -> None:
        for i in range(1, len(schedulers)):
            if schedulers[i].optimizer is not schedulers[0].optimizer:
                raise ValueError("ChainedScheduler expects all schedulers to belong to the same optimizer, but got "
                                 "schedulers at index 0 and %d to be different" % i)
        self._schedulers = list(schedulers)
        self.optimizer = schedulers[0].optimizer
        self._last_lr = self._group_lrs()

    def step(self) -> None:  # type: ignore[override]
        """Steps every scheduler once, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._group_lrs()

class ReduceLROnPlateau:
    """Multiplies each group's lr by factor (not below min_lr) once a metric passed to step(metric) has not
    improved for more than patience epochs; then waits cooldown epochs before counting bad epochs again.
    mode "min"/"max"; an improvement beats the best value by threshold, relative ("rel") or absolute ("abs").
    A reduction smaller than eps is skipped."""

    def __init__(self, optimizer: Any, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr: Union[float, Sequence[float]] = 0, eps: float = 1e-8, verbose: bool = False) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        _check_optimizer(optimizer)
        self.factor, self.optimizer = factor, optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError("expected %d min_lrs, got %d" % (n, len(min_lr)))
            self.min_lrs = list(min_lr)
        else:
            self.min_lrs = [min_lr] * n
        self.patience, self.verbose, self.cooldown, self.eps = patience, verbose, cooldown, eps
        self.cooldown_counter, self.last_epoch = 0, 0
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in ("min", "max"):
            raise ValueError("mode " + str(mode) + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + str(threshold_mode) + " is unknown!")
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.mode_worse = math.inf if mode == "min" else -math.inf

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        """Whether metric value a improves on best by more than the threshold."""
        if self.mode == "min":
            return a < (best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return a > (best * (1.0 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold)

    def step(self, metrics: Any, epoch: Optional[int] = None) -> None:
        """Records one epoch's metric (a number or a one-element Tensor) and reduces the lr when it plateaus."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(_EPOCH_DEPRECATION, UserWarning)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs during cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _reduce_lr(self, epoch):
        for i, group in enumerate(self.optimizer.param_groups):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr
                if self.verbose:
                    epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
                    print("Epoch {}: reducing learning rate of group {} to {:.4e}.".format(epoch_str, i, new_lr))

    def get_last_lr(self) -> List[float]:
        """The learning rates (one per param group) after the last step()."""
        return self._last_lr

    def state_dict(self) -> Dict[str, Any]:
        """Every attribute except the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Restores the attributes saved by state_dict()."""
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


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
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, values)):
            group["lr"] = lr
            self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = self._group_lrs()


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
