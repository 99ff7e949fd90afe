"""More ctensor.optim.lr_scheduler against torch.optim.lr_scheduler: ConstantLR, LinearLR, PolynomialLR (chainable
sequences, closed forms, resuming), SequentialLR and ChainedScheduler (including nested state_dicts), CyclicLR
(all modes, custom scale functions, momentum cycling), OneCycleLR (cos/linear, three_phase, SGD momentum and
Adam betas) and CosineAnnealingWarmRestarts (integer and fractional epochs), plus argument errors."""
import math
import pickle
import warnings

import pytest

import ctensor as ct
import ctensor.nn as nn
from ctensor.optim import lr_scheduler as ct_sched

from conftest import requires_torch


def _optimizers(torch, lrs=(0.1, 0.02), kind="SGD", **kwargs):
    """A ctensor and a torch optimizer of the same kind, each with one param group per lr."""
    mine = getattr(ct.optim, kind)([{"params": [nn.Parameter(ct.ones(2))], "lr": lr} for lr in lrs], lr=lrs[0],
                                   **kwargs)
    theirs = getattr(torch.optim, kind)([{"params": [torch.nn.Parameter(torch.ones(2))], "lr": lr} for lr in lrs],
                                        lr=lrs[0], **kwargs)
    return mine, theirs


def _lrs(opt):
    return [g["lr"] for g in opt.param_groups]


def _momenta(opt):
    return [g.get("momentum", g.get("betas", (None,))[0]) for g in opt.param_groups]


def _step_both(mine, theirs, mine_opt, torch_opt, steps, label, check_momentum=False):
    """Steps both schedulers (after their optimizers) and compares the lrs (and momenta) every time."""
    for i in range(steps):
        torch_opt.step()
        mine_opt.step()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SequentialLR's step(0) at milestones warns in both libraries
            theirs.step()
            mine.step()
        assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15), (label, i)
        assert _lrs(mine_opt) == pytest.approx(_lrs(torch_opt), rel=1e-12, abs=1e-15), (label, i)
        if check_momentum:
            assert _momenta(mine_opt) == pytest.approx(_momenta(torch_opt), rel=1e-12), (label, i)


CHAINABLE = [
    ("ConstantLR", dict(factor=0.25, total_iters=4)),
    ("ConstantLR", dict()),
    ("LinearLR", dict(start_factor=0.2, end_factor=0.9, total_iters=6)),
    ("LinearLR", dict(start_factor=1.0, end_factor=0.1, total_iters=3)),
    ("PolynomialLR", dict(total_iters=6, power=2.0)),
    ("PolynomialLR", dict(total_iters=4, power=0.5)),
]


@pytest.mark.parametrize("name,kwargs", CHAINABLE)
def test_new_chainable_schedules_match_torch(name, kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = getattr(ct_sched, name)(mine_opt, **kwargs)
    theirs = getattr(torch.optim.lr_scheduler, name)(torch_opt, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    _step_both(mine, theirs, mine_opt, torch_opt, 5, name)
    for g_mine, g_torch in zip(mine_opt.param_groups, torch_opt.param_groups):  # an outside change composes
        g_mine["lr"] = g_torch["lr"] = g_torch["lr"] * 3.0
    _step_both(mine, theirs, mine_opt, torch_opt, 6, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in (2, 7, 0, 3):
            theirs.step(epoch)
            with pytest.warns(UserWarning, match="deprecated"):
                mine.step(epoch)
            assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15), epoch


def test_new_chainable_schedules_by_hand():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.05)
    linear = ct_sched.LinearLR(opt, start_factor=0.5, total_iters=4)
    seen = [opt.param_groups[0]["lr"]]
    for _ in range(5):
        linear.step()
        seen.append(opt.param_groups[0]["lr"])
    assert seen == pytest.approx([0.025, 0.03125, 0.0375, 0.04375, 0.05, 0.05])  # torch's documented example
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.001)
    poly = ct_sched.PolynomialLR(opt, total_iters=4, power=1.0)
    seen = [opt.param_groups[0]["lr"]]
    for _ in range(5):
        poly.step()
        seen.append(opt.param_groups[0]["lr"])
    assert seen == pytest.approx([0.001, 0.00075, 0.0005, 0.00025, 0.0, 0.0], abs=1e-15)


@pytest.mark.parametrize("name,kwargs", CHAINABLE[::2])
def test_new_chainable_schedules_resume_like_torch(name, kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    for g in mine_opt.param_groups + torch_opt.param_groups:
        g["initial_lr"] = g["lr"]
    mine = getattr(ct_sched, name)(mine_opt, last_epoch=2, **kwargs)
    theirs = getattr(torch.optim.lr_scheduler, name)(torch_opt, last_epoch=2, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    _step_both(mine, theirs, mine_opt, torch_opt, 6, name)


def test_factor_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    with pytest.raises(ValueError, match="Constant multiplicative factor expected to be between 0 and 1"):
        ct_sched.ConstantLR(opt, factor=1.5)
    with pytest.raises(ValueError, match="Starting multiplicative factor expected to be between 0 and 1"):
        ct_sched.LinearLR(opt, start_factor=-0.1)
    with pytest.raises(ValueError, match="Ending multiplicative factor expected to be between 0 and 1"):
        ct_sched.LinearLR(opt, end_factor=2.0)


# ---- SequentialLR and ChainedScheduler --------------------------------------------------------------------------

def _build_pair(torch, build):
    mine_opt, torch_opt = _optimizers(torch)
    return build(ct_sched, mine_opt), build(torch.optim.lr_scheduler, torch_opt), mine_opt, torch_opt


COMPOSITES = {
    "sequential": lambda lib, opt: lib.SequentialLR(opt, [lib.ConstantLR(opt, factor=0.1, total_iters=2),
                                                          lib.ExponentialLR(opt, gamma=0.9),
                                                          lib.CosineAnnealingLR(opt, T_max=4)], milestones=[3, 7]),
    "sequential_warmup": lambda lib, opt: lib.SequentialLR(opt, [lib.LinearLR(opt, start_factor=0.1, total_iters=4),
                                                                 lib.StepLR(opt, step_size=2, gamma=0.5)],
                                                           milestones=[4]),
    "chained": lambda lib, opt: lib.ChainedScheduler([lib.ConstantLR(opt, factor=0.1, total_iters=2),
                                                      lib.ExponentialLR(opt, gamma=0.9)]),
    "chained3": lambda lib, opt: lib.ChainedScheduler([lib.LinearLR(opt, start_factor=0.5, total_iters=3),
                                                       lib.MultiStepLR(opt, milestones=[2, 5], gamma=0.3),
                                                       lib.PolynomialLR(opt, total_iters=8, power=1.5)]),
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_composite_schedulers_match_torch(name):
    torch = requires_torch()
    mine, theirs, mine_opt, torch_opt = _build_pair(torch, COMPOSITES[name])
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    assert _lrs(mine_opt) == pytest.approx(_lrs(torch_opt), rel=1e-12)
    _step_both(mine, theirs, mine_opt, torch_opt, 14, name)


def test_chained_by_hand_and_sequential_warns_at_milestones():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    chained = COMPOSITES["chained"](ct_sched, opt)
    seen = [opt.param_groups[0]["lr"]]
    for _ in range(4):
        chained.step()
        seen.append(opt.param_groups[0]["lr"])
    # 0.1 * 0.9 ** epoch, times 1/0.1 from epoch 2 (torch's docstring example is off by one epoch; torch 1.13
    # itself gives these values)
    assert seen == pytest.approx([0.1, 0.09, 0.81, 0.729, 0.6561])
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    sequential = ct_sched.SequentialLR(opt, [ct_sched.ConstantLR(opt, factor=0.1, total_iters=2),
                                             ct_sched.ExponentialLR(opt, gamma=0.9)], milestones=[2])
    seen = [opt.param_groups[0]["lr"]]
    sequential.step()
    seen.append(opt.param_groups[0]["lr"])
    with pytest.warns(UserWarning, match="deprecated"):  # the milestone restarts ExponentialLR with step(0)
        sequential.step()
    seen.append(opt.param_groups[0]["lr"])
    sequential.step()
    seen.append(opt.param_groups[0]["lr"])
    assert seen == pytest.approx([0.1, 0.1, 1.0, 0.9])


@pytest.mark.parametrize("name", ["sequential", "chained3"])
def test_composite_state_dict_round_trip(name):
    torch = requires_torch()
    mine, theirs, mine_opt, torch_opt = _build_pair(torch, COMPOSITES[name])
    _step_both(mine, theirs, mine_opt, torch_opt, 5, name)
    state = pickle.loads(pickle.dumps(mine.state_dict()))
    assert set(state) == set(theirs.state_dict())
    assert [set(s) for s in state["_schedulers"]] == [set(s) for s in theirs.state_dict()["_schedulers"]]
    fresh_opt = ct.optim.SGD([{"params": [nn.Parameter(ct.ones(2))], "lr": lr} for lr in (0.1, 0.02)], lr=0.1)
    restored = COMPOSITES[name](ct_sched, fresh_opt)
    restored.load_state_dict(state)
    assert "_schedulers" in state  # the caller's dict is not modified
    for group, saved in zip(fresh_opt.param_groups, mine_opt.param_groups):
        group["lr"] = saved["lr"]
    _step_both(restored, theirs, fresh_opt, torch_opt, 6, name)


def test_composite_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    other = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    a, b = ct_sched.ExponentialLR(opt, gamma=0.9), ct_sched.ExponentialLR(other, gamma=0.9)
    with pytest.raises(ValueError, match="index 1 to be different than the optimizer passed in"):
        ct_sched.SequentialLR(opt, [a, b], milestones=[2])
    with pytest.raises(ValueError, match="number of schedulers 1 and the number of milestones to be equal to 1"):
        ct_sched.SequentialLR(opt, [a], milestones=[2])
    with pytest.raises(ValueError, match="schedulers at index 0 and 1 to be different"):
        ct_sched.ChainedScheduler([a, b])


# ---- CyclicLR ---------------------------------------------------------------------------------------------------

def _halving(cycle):
    return 0.5 ** (cycle - 1)


class _Scale:
    """A picklable callable scale_fn with state."""

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, x):
        return 1.0 / (1.0 + self.rate * x)


CYCLIC = [
    dict(base_lr=0.01, max_lr=0.1, step_size_up=3),
    dict(base_lr=[0.01, 0.002], max_lr=[0.1, 0.05], step_size_up=2, step_size_down=5, mode="triangular2"),
    dict(base_lr=0.01, max_lr=0.1, step_size_up=4, mode="exp_range", gamma=0.9),
    dict(base_lr=0.01, max_lr=0.1, step_size_up=3, scale_fn=_halving),
    dict(base_lr=0.01, max_lr=0.1, step_size_up=3, scale_fn=_Scale(0.2), scale_mode="iterations"),
    dict(base_lr=0.01, max_lr=0.1, step_size_up=2, cycle_momentum=False),
    dict(base_lr=0.01, max_lr=0.1, step_size_up=2, base_momentum=[0.7, 0.75], max_momentum=0.95),
]


@pytest.mark.parametrize("kwargs", CYCLIC)
def test_cyclic_lr_matches_torch(kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch, momentum=0.9)
    mine, theirs = ct_sched.CyclicLR(mine_opt, **kwargs), torch.optim.lr_scheduler.CyclicLR(torch_opt, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    assert _momenta(mine_opt) == pytest.approx(_momenta(torch_opt), rel=1e-12)
    _step_both(mine, theirs, mine_opt, torch_opt, 23, str(kwargs), check_momentum=True)


def test_cyclic_lr_by_hand_and_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=5.0)
    sched = ct_sched.CyclicLR(opt, base_lr=1.0, max_lr=3.0, step_size_up=2, mode="triangular2",
                              cycle_momentum=False)
    seen = [opt.param_groups[0]["lr"]]
    for _ in range(8):
        sched.step()
        seen.append(opt.param_groups[0]["lr"])
    assert seen == pytest.approx([1.0, 2.0, 3.0, 2.0, 1.0, 1.5, 2.0, 1.5, 1.0])  # the amplitude halves per cycle
    with pytest.raises(ValueError, match="optimizer must support momentum"):
        ct_sched.CyclicLR(ct.optim.Adam([nn.Parameter(ct.ones(1))]), base_lr=0.1, max_lr=1.0)
    with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
        ct_sched.CyclicLR(opt, base_lr=0.1, max_lr=1.0, mode="square", cycle_momentum=False)
    with pytest.raises(ValueError, match="expected 1 values for max_lr, got 2"):
        ct_sched.CyclicLR(opt, base_lr=0.1, max_lr=[1.0, 2.0], cycle_momentum=False)


def test_cyclic_lr_state_dict_pickles_and_restores_scale_fn():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.1, momentum=0.9)
    sched = ct_sched.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, scale_fn=_Scale(0.2),
                              scale_mode="iterations")
    for _ in range(4):
        sched.step()
    state = pickle.loads(pickle.dumps(sched.state_dict()))
    assert state["_scale_fn_custom"] == {"rate": 0.2} and state["last_epoch"] == 4
    scale = _Scale(5.0)
    restored = ct_sched.CyclicLR(ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.1, momentum=0.9), base_lr=0.01,
                                 max_lr=0.1, step_size_up=3, scale_fn=scale, scale_mode="iterations")
    restored.load_state_dict(state)
    assert scale.rate == 0.2
    for _ in range(5):
        sched.step()
        restored.step()
        assert restored.get_last_lr() == pytest.approx(sched.get_last_lr(), rel=1e-12)
    lambda_state = ct_sched.CyclicLR(opt, 0.01, 0.1, scale_fn=lambda x: 1.0).state_dict()
    assert lambda_state["_scale_fn_custom"] is None
    pickle.dumps(lambda_state)


# ---- OneCycleLR -------------------------------------------------------------------------------------------------

ONE_CYCLE = [
    ("SGD", dict(max_lr=1.0, total_steps=20)),
    ("SGD", dict(max_lr=[1.0, 0.5], epochs=3, steps_per_epoch=7, anneal_strategy="linear")),
    ("SGD", dict(max_lr=0.3, total_steps=25, three_phase=True, pct_start=0.25, div_factor=10.0,
                 final_div_factor=100.0)),
    ("SGD", dict(max_lr=0.3, total_steps=16, three_phase=True, anneal_strategy="linear", cycle_momentum=False)),
    ("Adam", dict(max_lr=0.01, total_steps=12, base_momentum=[0.8, 0.7], max_momentum=0.9)),
]


@pytest.mark.parametrize("kind,kwargs", ONE_CYCLE)
def test_one_cycle_lr_matches_torch(kind, kwargs):
    torch = requires_torch()
    extra = {"momentum": 0.9} if kind == "SGD" else {}
    mine_opt, torch_opt = _optimizers(torch, kind=kind, **extra)
    mine = ct_sched.OneCycleLR(mine_opt, **kwargs)
    theirs = torch.optim.lr_scheduler.OneCycleLR(torch_opt, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    total = mine.total_steps
    _step_both(mine, theirs, mine_opt, torch_opt, total - 1, str(kwargs), check_momentum=True)
    for key in ("initial_lr", "max_lr", "min_lr"):
        assert [g[key] for g in mine_opt.param_groups] == pytest.approx([g[key] for g in torch_opt.param_groups])
    torch_opt.step()
    mine_opt.step()
    theirs.step()
    mine.step()  # step total_steps is still allowed (torch checks step_num > total_steps)
    with pytest.raises(ValueError, match="Tried to step %d times. The specified number of total steps is %d"
                       % (total + 2, total)):
        mine.step()


def test_one_cycle_lr_by_hand():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.5, momentum=0.9)
    sched = ct_sched.OneCycleLR(opt, max_lr=1.0, total_steps=11, pct_start=0.5, anneal_strategy="linear",
                                div_factor=4.0, final_div_factor=2.5)
    seen = [opt.param_groups[0]["lr"]]
    momenta = [opt.param_groups[0]["momentum"]]
    for _ in range(10):
        sched.step()
        seen.append(opt.param_groups[0]["lr"])
        momenta.append(opt.param_groups[0]["momentum"])
    # up from 0.25 to 1.0 over steps 0..4.5, down to 0.1 at step 10
    expected = [0.25 + 0.75 * s / 4.5 for s in range(5)] + [1.0 - 0.9 * (s - 4.5) / 5.5 for s in range(5, 11)]
    assert seen == pytest.approx(expected)
    # momentum inversely: from 0.95 down to 0.85 at the peak, back to 0.95
    expected = [0.95 - 0.1 * s / 4.5 for s in range(5)] + [0.85 + 0.1 * (s - 4.5) / 5.5 for s in range(5, 11)]
    assert momenta == pytest.approx(expected)


def test_one_cycle_lr_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.5, momentum=0.9)
    with pytest.raises(ValueError, match=r"You must define either total_steps OR \(epochs AND steps_per_epoch\)"):
        ct_sched.OneCycleLR(opt, max_lr=1.0)
    with pytest.raises(ValueError, match="Expected positive integer total_steps, but got 0"):
        ct_sched.OneCycleLR(opt, max_lr=1.0, total_steps=0)
    with pytest.raises(ValueError, match="Expected positive integer steps_per_epoch, but got None"):
        ct_sched.OneCycleLR(opt, max_lr=1.0, epochs=3)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start, but got 1.5"):
        ct_sched.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=1.5)
    with pytest.raises(ValueError, match="anneal_strategy must by one of 'cos' or 'linear', instead got exp"):
        ct_sched.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="exp")
    no_momentum = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=0.5)
    no_momentum.defaults.pop("momentum")
    with pytest.raises(ValueError, match="optimizer must support momentum"):
        ct_sched.OneCycleLR(no_momentum, max_lr=1.0, total_steps=10)


# ---- CosineAnnealingWarmRestarts --------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(T_0=3), dict(T_0=2, T_mult=2, eta_min=0.001), dict(T_0=4, T_mult=3)])
def test_warm_restarts_match_torch(kwargs):
    torch = requires_torch()
    mine_opt, torch_opt = _optimizers(torch)
    mine = ct_sched.CosineAnnealingWarmRestarts(mine_opt, **kwargs)
    theirs = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(torch_opt, **kwargs)
    assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12)
    _step_both(mine, theirs, mine_opt, torch_opt, 20, str(kwargs))
    for epoch in (0.5, 2.25, 7.0, 13.6, 1, 30.1):  # fractional epochs, no warning
        theirs.step(epoch)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            mine.step(epoch)
        assert mine.get_last_lr() == pytest.approx(theirs.get_last_lr(), rel=1e-12, abs=1e-15), epoch
        assert (mine.T_i, mine.last_epoch) == (theirs.T_i, theirs.last_epoch)
        assert mine.T_cur == pytest.approx(theirs.T_cur)
    state = pickle.loads(pickle.dumps(mine.state_dict()))
    assert set(state) == set(theirs.state_dict())


def test_warm_restarts_by_hand_and_errors():
    opt = ct.optim.SGD([nn.Parameter(ct.ones(1))], lr=1.0)
    sched = ct_sched.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
    seen = [opt.param_groups[0]["lr"]]
    for _ in range(6):
        sched.step()
        seen.append(opt.param_groups[0]["lr"])
    c = (1 + math.cos(math.pi / 4)) / 2
    assert seen == pytest.approx([1.0, 0.5, 1.0, c, 0.5, 1 - c, 1.0])  # periods 2, then 4
    with pytest.raises(ValueError, match="Expected positive integer T_0, but got 0"):
        ct_sched.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="Expected integer T_mult >= 1, but got 1.5"):
        ct_sched.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5)
    with pytest.raises(ValueError, match="Expected non-negative epoch, but got -1"):
        sched.step(-1)


@pytest.mark.parametrize("opt_name, sched_name, opt_kwargs, sched_kwargs", [
    ("SGD", "OneCycleLR", dict(lr=0.1, momentum=0.9), dict(max_lr=0.5, total_steps=8)),
    ("SGD", "CyclicLR", dict(lr=0.1, momentum=0.9), dict(base_lr=0.01, max_lr=0.2, step_size_up=3)),
    ("Adam", "OneCycleLR", dict(lr=0.1), dict(max_lr=0.05, total_steps=8, three_phase=True)),
])
def test_cycled_momentum_and_betas_reach_the_optimizer(opt_name, sched_name, opt_kwargs, sched_kwargs):
    """Schedulers that cycle momentum (SGD) or beta1 (Adam) train exactly like torch's: the changed param group
    values are applied by ctensor's optimizers at the next step."""
    torch = requires_torch()
    import numpy as np

    rng = np.random.default_rng(5)
    w0, grads = rng.standard_normal((3, 2)), [rng.standard_normal((3, 2)) for _ in range(7)]
    params = {}
    for lib, sched_mod in ((ct, ct_sched), (torch, torch.optim.lr_scheduler)):
        w = lib.tensor(w0.copy(), requires_grad=True)
        opt = getattr(lib.optim, opt_name)([w], **opt_kwargs)
        sched = getattr(sched_mod, sched_name)(opt, **sched_kwargs)
        for g in grads:
            w.grad = lib.tensor(g)
            opt.step()
            sched.step()
        params[lib.__name__] = w.detach().numpy()
    np.testing.assert_allclose(params["ctensor"], params["torch"], rtol=1e-12, atol=1e-12)


def test_hyper_parameter_edits_are_checked_at_the_next_step():
    w = ct.zeros(2, requires_grad=True)
    opt = ct.optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = ct.ones(2)
    opt.param_groups[0]["momentum"] = -1.0
    with pytest.raises(ValueError, match="sgd: invalid momentum -1"):
        opt.step()
