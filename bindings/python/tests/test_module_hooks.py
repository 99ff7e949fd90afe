"""Module hooks (forward pre-hooks, forward hooks, full backward hooks and pre-hooks) and get_submodule /
get_parameter / get_buffer, against torch 1.13 run with the same weights and inputs."""
import numpy as np
import pytest
import torch

import ctensor as ct
import ctensor.nn as nn


def pair(seed=0):
    """A ctensor and a torch Linear(3 -> 2) holding the same float64 weights."""
    ct.manual_seed(seed)
    m = nn.Linear(3, 2).double()
    t = torch.nn.Linear(3, 2).double()
    with torch.no_grad():
        t.weight.copy_(torch.from_numpy(m.weight.detach().numpy()))
        t.bias.copy_(torch.from_numpy(m.bias.detach().numpy()))
    return m, t


X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])


def close(a, b):
    a = a.detach().numpy() if hasattr(a, "detach") and not isinstance(a, np.ndarray) else a
    b = b.detach().numpy() if isinstance(b, torch.Tensor) else b
    return np.allclose(a, b, rtol=1e-12, atol=1e-12)


def test_forward_pre_hook_and_forward_hook_replace_input_and_output_like_torch():
    m, t = pair()
    outs = []
    for mod, lib in ((m, ct), (t, torch)):
        mod.register_forward_pre_hook(lambda module, args: (args[0] * 2,))
        h = mod.register_forward_hook(lambda module, args, out: out + 1)
        outs.append(mod(lib.tensor(X)))
        h.remove()
        outs.append(mod(lib.tensor(X)))
    assert close(outs[0], outs[2]) and close(outs[1], outs[3])
    assert not close(outs[0], outs[1])


def test_hook_order_removal_context_and_prepend():
    m, _ = pair()
    seen = []
    h1 = m.register_forward_hook(lambda *a: seen.append(1))
    m.register_forward_hook(lambda *a: seen.append(2))
    m.register_forward_hook(lambda *a: seen.append(0), prepend=True)
    m(ct.tensor(X))
    assert seen == [0, 1, 2]
    h1.remove()
    h1.remove()  # removing twice is harmless, as in torch
    seen.clear()
    m(ct.tensor(X))
    assert seen == [0, 2]
    with m.register_forward_pre_hook(lambda module, args: seen.append("pre")):
        m(ct.tensor(X))
    m(ct.tensor(X))
    assert seen.count("pre") == 1
    with pytest.raises(TypeError, match="callable"):
        m.register_forward_hook(3)


def test_hooks_with_kwargs():
    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    s = Scale()
    s.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": kwargs.get("factor", 1.0) * 3}),
                                with_kwargs=True)
    s.register_forward_hook(lambda mod, args, kwargs, out: out + kwargs["factor"], with_kwargs=True)
    out = s(ct.tensor([1.0, 2.0]), factor=2.0)
    assert out.tolist() == [12.0, 18.0]


def test_full_backward_hook_sees_torchs_grad_input_and_grad_output():
    m, t = pair()
    got = {}
    for mod, lib, key in ((m, ct, "ct"), (t, torch, "torch")):
        mod.register_full_backward_hook(lambda module, gi, go, key=key: got.__setitem__(key, (gi, go)))
        x = lib.tensor(X, requires_grad=True)
        (mod(x) ** 2).sum().backward()
        got[key + "_xgrad"] = x.grad
    (gi, go), (tgi, tgo) = got["ct"], got["torch"]
    assert len(gi) == len(tgi) == 1 and len(go) == len(tgo) == 1
    assert close(gi[0], tgi[0]) and close(go[0], tgo[0])
    assert close(got["ct_xgrad"], got["torch_xgrad"])


def test_full_backward_hook_replaces_grad_input():
    m, t = pair()
    grads = []
    for mod, lib in ((m, ct), (t, torch)):
        mod.register_full_backward_hook(lambda module, gi, go: (gi[0] * 10,))
        x = lib.tensor(X, requires_grad=True)
        mod(x).sum().backward()
        grads.append(x.grad)
        grads.append(mod.weight.grad)  # parameters are not inputs: their gradients stay as they are
    assert close(grads[0], grads[2]) and close(grads[1], grads[3])


def test_full_backward_hook_with_inputs_that_need_no_grad():
    class Mix(nn.Module):
        def forward(self, a, b, scale):
            return a * b * scale

    class TMix(torch.nn.Module):
        def forward(self, a, b, scale):
            return a * b * scale

    got = {}
    for mod, lib, key in ((Mix(), ct, "ct"), (TMix(), torch, "torch")):
        mod.register_full_backward_hook(lambda module, gi, go, key=key: got.__setitem__(key, gi))
        a = lib.tensor(X, requires_grad=True)
        b = lib.tensor(X * 2)  # needs no gradient: None in grad_input
        (mod(a, b, 3.0) ** 2).sum().backward()
    gi, tgi = got["ct"], got["torch"]  # one entry per argument: b (no grad needed) zeros, the float None
    assert len(gi) == len(tgi) == 3 and gi[2] is None and tgi[2] is None
    assert close(gi[0], tgi[0]) and close(gi[1], tgi[1])

    # no input needs a gradient: the hook still runs, grad_input all None (as torch)
    m, t = pair()
    for mod, lib, key in ((m, ct, "ct2"), (t, torch, "torch2")):
        mod.register_full_backward_hook(lambda module, gi, go, key=key: got.__setitem__(key, (gi, go)))
        mod(lib.tensor(X)).sum().backward()
    assert got["ct2"][0] == (None,) and got["torch2"][0] == (None,)
    assert close(got["ct2"][1][0], got["torch2"][1][0])


def test_full_backward_pre_hook_replaces_grad_output():
    m, _ = pair()
    ref, _ = pair()
    seen = []
    m.register_full_backward_pre_hook(lambda module, go: (go[0] * 3,))
    m.register_full_backward_hook(lambda module, gi, go: seen.append(go[0]))
    x = ct.tensor(X, requires_grad=True)
    xr = ct.tensor(X, requires_grad=True)
    m(x).sum().backward()
    (ref(xr) * 3).sum().backward()
    assert close(x.grad, xr.grad.numpy()) and close(m.weight.grad, ref.weight.grad.numpy())
    assert np.allclose(seen[0].numpy(), 3.0)  # the hooks see the replaced grad_output


def test_backward_hooks_on_a_submodule_of_a_sequential():
    ct.manual_seed(3)
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).double()
    tnet = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)).double()
    with torch.no_grad():
        for tp, p in zip(tnet.parameters(), net.parameters()):
            tp.copy_(torch.from_numpy(p.detach().numpy()))
    got = {}
    for model, lib, key in ((net, ct, "ct"), (tnet, torch, "torch")):
        model[1].register_full_backward_hook(lambda module, gi, go, key=key: got.__setitem__(key, (gi[0], go[0])))
        model(lib.tensor(X)).sum().backward()
    assert close(got["ct"][0], got["torch"][0]) and close(got["ct"][1], got["torch"][1])
    assert close(net[0].weight.grad, tnet[0].weight.grad)


def test_get_submodule_parameter_buffer_like_torch():
    def build(lib_nn):
        return lib_nn.Sequential(lib_nn.Linear(2, 3), lib_nn.BatchNorm1d(3))

    net, tnet = build(nn), build(torch.nn)
    assert net.get_submodule("") is net
    assert net.get_submodule("1") is net[1]
    assert net.get_parameter("0.weight") is net[0].weight
    assert net.get_buffer("1.running_mean") is net[1].running_mean
    for target, getter in (("2", "get_submodule"), ("0.nope", "get_parameter"), ("1.weight", "get_buffer"),
                           ("1.running_mean", "get_parameter"), ("0.weight.x", "get_submodule")):
        with pytest.raises(AttributeError) as ours:
            getattr(net, getter)(target)
        with pytest.raises(AttributeError) as theirs:
            getattr(tnet, getter)(target)
        assert str(ours.value) == str(theirs.value), (target, getter)


def test_hooks_leak_no_handles():
    import gc

    def step():
        m, _ = pair()
        m.register_full_backward_hook(lambda module, gi, go: (gi[0] * 2,))
        m.register_full_backward_pre_hook(lambda module, go: None)
        m.register_forward_hook(lambda module, args, out: out * 1)
        x = ct.tensor(X, requires_grad=True)
        m(x).sum().backward()

    step()
    gc.collect()
    before = ct._C.live_handles()
    for _ in range(5):
        step()
    gc.collect()
    assert ct._C.live_handles() == before
