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
        if epoch is None:
            self.last_epoch += 1
            compute = self.get_lr
        else:
            warnings.warn(_EPOCH_DEPRECATION, UserWarning)
            self.last_epoch = epoch
            compute = getattr(self, "_get_closed_form_lr", None) or self.get_lr
        self._apply_lrs(compute, epoch)

    def _apply_lrs(self, compute, epoch):
        """Writes compute() (get_lr or a closed form, called as from within step()) into the param groups."""
        self._get_lr_called_within_step = True
        try:
            values = compute()
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


# the cyclic schedules live in their own module (they need LRScheduler, defined above)
from ._cyclic_schedulers import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR  # noqa: E402,F401
