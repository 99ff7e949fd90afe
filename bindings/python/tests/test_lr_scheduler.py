"""ctensor.optim.lr_scheduler against torch.optim.lr_scheduler: lr sequences over two param groups (including
an lr changed from outside mid-run, resuming with last_epoch, the deprecated step(epoch)), get_last_lr,
state_dict round trips and argument errors."""
import math
import pickle
import warnings

import pytest

import ctensor as ct
import ctensor.nn as nn
from ctensor.optim import lr_scheduler as ct_sched

from conftest import requires_torch


def _optimizers(torch, lrs=(0.1, 0.02)):
    """A ctensor and a torch SGD, each with one param group per lr."""
    mine = ct.optim.SGD([{"params": [nn.Parameter(ct.ones(2))], "lr": lr} for lr in lrs], lr=lrs[0])
    theirs = torch.optim.SGD([{"params": [torch.nn.Parameter(torch.ones(2))], "lr": lr} for lr in lrs], lr=lrs[0])
    return mine, theirs


def _lrs(opt):
    return [g["lr"] for g in opt.param_groups]


class _Factor:
    """A picklable callable lr_lambda with state (saved by state_dict, unlike plain functions)."""

    def __init__(self, base):
        self.base = base

    def __call__(self, epoch):
        return self.base ** epoch


SCHEDULES = [
    ("StepLR", dict(step_size=3, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=4, eta_min=0.001)),
    ("CosineAnnealingLR", dict(T_max=5)),
    ("LambdaLR", dict(lr_lambda=lambda e: 1.0 / (e + 1))),
    ("LambdaLR", dict(lr_lambda=[lambda e: 0.5 ** e, lambda e: e % 3 + 1])),
    ("MultiplicativeLR", dict(lr_lambda=lambda e: 0.95)),
]


@pytest.mark.parametrize("name,kwargs", SCHEDULES)
def test_lr_sequence_matches_torch(name, kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = getattr(ct_sched, name)(mine_opt, **kwargs)
    theirs = getattr(torch.optim.lr_scheduler, name)(torch_opt, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    for epoch in range(1, 25):
        if epoch == 11:  # an outside change composes with chainable schedules exactly as in torch
            for g_mine, g_torch in zip(mine_opt.param_groups, torch_opt.param_groups):
                g_mine["lr"] = g_torch["lr"] = g_torch["lr"] * 2.0
        torch_opt.step()
        theirs.step()
        mine.step()
        assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15), (name, epoch)
        assert _lrs(mine_opt) == pytest.approx(_lrs(torch_opt), rel=1e-12, abs=1e-15)
    assert mine.last_epoch == theirs.last_epoch == 24


@pytest.mark.parametrize("name,kwargs", [s for s in SCHEDULES if s[0] != "MultiplicativeLR"])
def test_step_with_epoch_uses_closed_form_like_torch(name, kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = getattr(ct_sched, name)(mine_opt, **kwargs)
    theirs = getattr(torch.optim.lr_scheduler, name)(torch_opt, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in (7, 3, 12, 0, 5):
            theirs.step(epoch)
            with pytest.warns(UserWarning, match="deprecated"):
                mine.step(epoch)
            assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name,kwargs", SCHEDULES[:5])
def test_resume_with_last_epoch_matches_torch(name, kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    for g in mine_opt.param_groups + torch_opt.param_groups:
        g["initial_lr"] = g["lr"]
    mine = getattr(ct_sched, name)(mine_opt, last_epoch=6, **kwargs)
    theirs = getattr(torch.optim.lr_scheduler, name)(torch_opt, last_epoch=6, **kwargs)
    for _ in range(6):
        assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15)
        torch_opt.step()
        theirs.step()
        mine.step()


def test_resume_without_initial_lr_raises():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.1)
    with pytest.raises(KeyError, match="initial_lr"):
        ct_sched.StepLR(opt, step_size=2, last_epoch=3)


def test_state_dict_round_trip_continues_the_sequence():
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = ct_sched.LambdaLR(mine_opt, lr_lambda=[_Factor(0.9), lambda e: 1.0])
    for _ in range(4):
        mine.step()
    state = pickle.loads(pickle.dumps({k: v for k, v in mine.state_dict().items()}))
    assert "optimizer" not in state and state["last_epoch"] == 4
    assert state["lr_lambdas"][0] == {"base": 0.9} and state["lr_lambdas"][1] is None
    theirs = torch.optim.lr_scheduler.LambdaLR(torch_opt, lr_lambda=[_Factor(0.9), lambda e: 1.0])
    assert set(theirs.state_dict()) == set(state)

    fresh_opt = ct.optim.SGD([{"params": [nn.Parameter(ct.ones(2))], "lr": lr} for lr in (0.1, 0.02)], lr=0.1)
    factor = _Factor(0.5)
    restored = ct_sched.LambdaLR(fresh_opt, lr_lambda=[factor, lambda e: 1.0])
    restored.load_state_dict(state)
    assert factor.base == 0.9 and restored.last_epoch == 4 and state["lr_lambdas"][0] == {"base": 0.9}
    for _ in range(3):
        mine.step()
        restored.step()
        assert restored.get_last_lr() == pytest.approx(mine.get_last_lr())


def test_step_lr_state_dict_and_get_lr_warning():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    sched = ct_sched.MultiStepLR(opt, milestones=[1, 3], gamma=0.1)
    state = sched.state_dict()
    assert state["milestones"] == {1: 1, 3: 1} and state["base_lrs"] == [1.0] and state["last_epoch"] == 0
    sched.step()
    sched.load_state_dict(state)
    assert sched.last_epoch == 0
    with pytest.warns(UserWarning, match="get_last_lr"):
        sched.get_lr()


def test_lambda_lr_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        ct_sched.LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0])
    with pytest.raises(TypeError, match="is not an Optimizer"):
        ct_sched.StepLR(object(), step_size=1)


def test_cosine_closed_form_values_by_hand():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    sched = ct_sched.CosineAnnealingLR(opt, T_max=10, eta_min=0.1)
    for epoch in range(1, 21):
        sched.step()
        expected = 0.1 + 0.9 * (1 + math.cos(math.pi * epoch / 10)) / 2
        assert opt.param_groups[0]["lr"] == pytest.approx(expected, abs=1e-12)


PLATEAU_METRICS = [5.0, 4.0, 4.0, 4.0, 3.9999, 4.1, 4.2, 4.2, 3.0, 3.0, 3.0, 3.0, 3.0, 2.0, 2.5, 2.5, 2.5, 2.5,
                   2.5, 2.5, 2.5, 2.5]


@pytest.mark.parametrize("kwargs", [
    dict(patience=2),
    dict(mode="max", patience=1, factor=0.5),
    dict(patience=1, threshold=0.5, threshold_mode="abs", cooldown=2),
    dict(patience=0, factor=0.2, min_lr=[0.004, 0.0015]),
    dict(patience=0, factor=0.5, min_lr=0.01, eps=0.02),
])
def test_reduce_lr_on_plateau_matches_torch(kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = ct_sched.ReduceLROnPlateau(mine_opt, **kwargs)
    theirs = torch.optim.lr_scheduler.ReduceLROnPlateau(torch_opt, **kwargs)
    assert mine.get_last_lr() == _lrs(torch_opt)
    for i, metric in enumerate(PLATEAU_METRICS):
        value = ct.tensor(metric, dtype=ct.float64) if i % 2 else metric  # a 0-d Tensor or a float
        theirs.step(metric)
        mine.step(value)
        assert _lrs(mine_opt) == pytest.approx(_lrs(torch_opt), rel=1e-12), i
        assert mine.get_last_lr() == _lrs(mine_opt)
        assert (mine.best, mine.num_bad_epochs, mine.cooldown_counter, mine.last_epoch) == \
            (theirs.best, theirs.num_bad_epochs, theirs.cooldown_counter, theirs.last_epoch)


def test_reduce_lr_on_plateau_state_dict_and_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    sched = ct_sched.ReduceLROnPlateau(opt, patience=0)
    sched.step(1.0)
    sched.step(2.0)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.1)
    state = sched.state_dict()
    assert "optimizer" not in state and state["best"] == 1.0
    other = ct_sched.ReduceLROnPlateau(opt, mode="max")
    other.load_state_dict(state)
    assert other.mode == "min" and other.mode_worse == math.inf and other.best == 1.0
    with pytest.raises(ValueError, match="Factor should be < 1.0"):
        ct_sched.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="mode maximum is unknown"):
        ct_sched.ReduceLROnPlateau(opt, mode="maximum")
    with pytest.raises(ValueError, match="threshold mode relative is unknown"):
        ct_sched.ReduceLROnPlateau(opt, threshold_mode="relative")
    with pytest.raises(ValueError, match="expected 1 min_lrs, got 2"):
        ct_sched.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])
