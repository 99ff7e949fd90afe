"""Mixed precision (issue 15): ctensor.autocast against torch 1.13's torch.cpu.amp.autocast op by op (result
dtypes equal, values within bfloat16 tolerance), the region state (nesting, threads, decorator, cache), gradient
dtypes, and ctensor.amp.GradScaler against torch's documented algorithm (torch 1.13's GradScaler is CUDA-only)."""
import threading

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn.functional as F
from conftest import requires_torch

RNG = np.random.default_rng(0)


def arr(*shape, positive=False):
    a = RNG.standard_normal(shape).astype(np.float32)
    return np.abs(a) + 0.5 if positive else a


# name -> (argument arrays, ctensor call, torch call); the same call shapes as torch's functional API
def _cases():
    x, w, b = arr(4, 6), arr(5, 6), arr(5)
    img, k = arr(1, 2, 6, 6), arr(3, 2, 3, 3)
    sq = arr(4, 4) + 4 * np.eye(4, dtype=np.float32)
    tgt = np.array([0, 1, 2, 3])
    return {
        "matmul": ([x, w.T.copy()], lambda m, a, c: m.matmul(a, c), None),
        "linear": ([x, w, b], lambda m, a, c, d: m.nn.functional.linear(a, c, d), None),
        "conv1d": ([arr(1, 2, 7), arr(3, 2, 3)], lambda m, a, c: m.nn.functional.conv1d(a, c), None),
        "conv2d": ([img, k], lambda m, a, c: m.nn.functional.conv2d(a, c), None),
        "conv_transpose2d": ([img, arr(2, 3, 3, 3)], lambda m, a, c: m.nn.functional.conv_transpose2d(a, c), None),
        "einsum": ([x, w], lambda m, a, c: m.einsum("ij,kj->ik", a, c), None),
        "mse_loss": ([x, arr(4, 6)], lambda m, a, c: m.nn.functional.mse_loss(a, c), None),
        "l1_loss": ([x, arr(4, 6)], lambda m, a, c: m.nn.functional.l1_loss(a, c), None),
        "smooth_l1_loss": ([x, arr(4, 6)], lambda m, a, c: m.nn.functional.smooth_l1_loss(a, c), None),
        "cross_entropy": ([x], lambda m, a: m.nn.functional.cross_entropy(a, m.tensor(tgt)), None),
        "binary_cross_entropy_with_logits": ([x, np.abs(arr(4, 6)) % 1],
                                             lambda m, a, c: m.nn.functional.binary_cross_entropy_with_logits(a, c),
                                             None),
        "prod": ([x], lambda m, a: m.prod(a), None),
        "cdist": ([x, arr(3, 6)], lambda m, a, c: m.cdist(a, c), None),
        "linalg_inv": ([sq], lambda m, a: m.linalg.inv(a), None),
        "softmax": ([x], lambda m, a: m.nn.functional.softmax(a, 1), None),
        "log_softmax": ([x], lambda m, a: m.nn.functional.log_softmax(a, 1), None),
        "exp": ([x], lambda m, a: m.exp(a), None),
        "sum": ([x], lambda m, a: m.sum(a), None),
        "relu": ([x], lambda m, a: m.relu(a), None),
        "layer_norm": ([x], lambda m, a: m.nn.functional.layer_norm(a, (6,)), None),
        # Note [Autocast by argument]: the 3-d pools run in float32, their 1-d and 2-d forms and interpolate pass
        "max_pool1d": ([arr(2, 3, 8)], lambda m, a: m.nn.functional.max_pool1d(a, 2), None),
        "max_pool2d": ([img], lambda m, a: m.nn.functional.max_pool2d(a, 2), None),
        "max_pool3d": ([arr(1, 2, 4, 4, 4)], lambda m, a: m.nn.functional.max_pool3d(a, 2), None),
        "avg_pool1d": ([arr(2, 3, 8)], lambda m, a: m.nn.functional.avg_pool1d(a, 2), None),
        "avg_pool3d": ([arr(1, 2, 4, 4, 4)], lambda m, a: m.nn.functional.avg_pool3d(a, 2), None),
        "adaptive_avg_pool1d": ([arr(2, 3, 8)], lambda m, a: m.nn.functional.adaptive_avg_pool1d(a, 3), None),
        "adaptive_avg_pool3d": ([arr(1, 2, 4, 4, 4)], lambda m, a: m.nn.functional.adaptive_avg_pool3d(a, 2), None),
        "adaptive_max_pool3d": ([arr(1, 2, 4, 4, 4)], lambda m, a: m.nn.functional.adaptive_max_pool3d(a, 2), None),
        "interpolate_trilinear": ([arr(1, 2, 3, 3, 3)],
                                  lambda m, a: m.nn.functional.interpolate(a, scale_factor=2, mode="trilinear"), None),
        "interpolate_bilinear": ([img], lambda m, a: m.nn.functional.interpolate(a, scale_factor=2, mode="bilinear"),
                                 None),
    }


CASES = _cases()


def _run(mod, fn, arrays, dtypes, autocast):
    ts = [mod.tensor(a).to(d) for a, d in zip(arrays, dtypes)]
    if autocast:
        ctx = mod.cpu.amp.autocast(dtype=mod.bfloat16)
        with ctx:
            return fn(mod, *ts)
    return fn(mod, *ts)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("inputs", ["float32", "bfloat16"])
def test_op_matches_torch_autocast(name, inputs):
    torch = requires_torch()
    arrays, fn, _ = CASES[name]
    ours = _run(ct, fn, arrays, [getattr(ct, inputs)] * len(arrays), True)
    ref = _run(torch, fn, arrays, [getattr(torch, inputs)] * len(arrays), True)
    assert ours.dtype.name == str(ref.dtype).replace("torch.", ""), name
    got = ours.float().numpy()
    want = ref.float().numpy()
    np.testing.assert_allclose(got, want, rtol=3e-2, atol=3e-2 * max(1.0, float(np.abs(want).max())))


@pytest.mark.parametrize("kind", ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"])
@pytest.mark.parametrize("cell", [False, True])
@pytest.mark.parametrize("inputs", ["float32", "bfloat16"])
def test_recurrent_nets_match_torch_autocast(kind, cell, inputs):
    """Note [Autocast by argument]: RNN (tanh, relu) runs in bfloat16; LSTM and GRU pass float32 through, but a
    bfloat16 input makes them run in bfloat16 (float32 weights and all)."""
    torch = requires_torch()
    name = kind.split("_")[0] + ("Cell" if cell else "")
    kwargs = {"nonlinearity": kind.split("_")[1].lower()} if "_" in kind else {}
    torch.manual_seed(0)
    ref_module = getattr(torch.nn, name)(3, 4, **kwargs)
    module = getattr(ct.nn, name)(3, 4, **kwargs)
    module.load_state_dict({k: ct.tensor(v.detach().numpy()) for k, v in ref_module.state_dict().items()})
    x = arr(2, 3) if cell else arr(5, 2, 3)
    outs = []
    for mod, m in ((ct, module), (torch, ref_module)):
        with mod.cpu.amp.autocast(dtype=mod.bfloat16):
            y = m(mod.tensor(x).to(getattr(mod, inputs)))
        outs.append(y[0] if isinstance(y, tuple) else y)
    ours, ref = outs
    assert ours.dtype.name == str(ref.dtype).replace("torch.", ""), (name, kwargs, inputs)
    np.testing.assert_allclose(ours.float().detach().numpy(), ref.float().detach().numpy(), rtol=3e-2, atol=3e-2)


def test_promote_list_matches_torch():
    torch = requires_torch()
    a, b = arr(3), arr(3)
    for mod in (ct, torch):
        with mod.cpu.amp.autocast():
            c = mod.cat([mod.tensor(a).bfloat16(), mod.tensor(b)])
            s = mod.stack([mod.tensor(a).bfloat16(), mod.tensor(b)])
            i = mod.index_copy(mod.tensor(a).bfloat16(), 0, mod.tensor([0]), mod.tensor(b[:1]))
        assert str(c.dtype).endswith("float32") and str(s.dtype).endswith("float32")
        assert str(i.dtype).endswith("float32")


def test_policy_table_is_readable():
    assert ct._C.autocast_policy("linear", 1) == 1
    assert ct._C.autocast_policy("mse_loss", 1) == 2
    assert ct._C.autocast_policy("cat", 1) == 3
    assert ct._C.autocast_policy("relu", 1) == 0
    assert ct._C.autocast_policy("linalg_inv", 1) == ct._C.autocast_policy("linalg.inv", 1) == 2
    assert ct._C.autocast_policy("softmax", 2) == 2  # torch's CUDA list


def test_outside_region_unaffected():
    x, w = ct.tensor(arr(2, 3)), ct.tensor(arr(4, 3))
    assert F.linear(x, w).dtype is ct.float32
    with ct.autocast("cpu"):
        assert F.linear(x, w).dtype is ct.bfloat16
    assert F.linear(x, w).dtype is ct.float32
    with ct.autocast("cpu", enabled=False):
        assert F.linear(x, w).dtype is ct.float32
    with ct.autocast("cpu", dtype=ct.float16):
        assert F.linear(x, w).dtype is ct.float16


def test_state_nesting_decorator_and_threads():
    assert not ct.is_autocast_cpu_enabled()
    assert ct.get_autocast_cpu_dtype() is ct.bfloat16
    with ct.autocast("cpu", dtype=ct.float16):
        assert ct.is_autocast_cpu_enabled() and ct.get_autocast_cpu_dtype() is ct.float16
        with ct.autocast("cpu", enabled=False):
            assert not ct.is_autocast_cpu_enabled()
        assert ct.is_autocast_cpu_enabled() and ct.get_autocast_cpu_dtype() is ct.float16
        seen = []
        th = threading.Thread(target=lambda: seen.append(ct.is_autocast_cpu_enabled()))
        th.start()
        th.join()
        assert seen == [False]
    assert not ct.is_autocast_cpu_enabled() and ct.get_autocast_cpu_dtype() is ct.bfloat16

    @ct.autocast("cpu")
    def f(a, b):
        return a @ b

    assert f(ct.ones(2, 2), ct.ones(2, 2)).dtype is ct.bfloat16
    assert not ct.is_autocast_cpu_enabled()
    with pytest.raises(RuntimeError, match="device_type"):
        ct.autocast("tpu")
    with pytest.warns(UserWarning, match="not supported"):
        with ct.autocast("cpu", dtype=ct.float64):
            assert not ct.is_autocast_cpu_enabled()


def test_cache_cleared_when_outermost_region_exits():
    lin = ct.nn.Linear(3, 4)
    x = ct.randn(2, 3)
    with ct.autocast("cpu"):
        lin(x)
        with ct.autocast("cpu"):
            lin(x)
        assert ct._C.autocast_cache_size() == 2  # weight and bias (leaves requiring grad), once each
    assert ct._C.autocast_cache_size() == 0
    with ct.autocast("cpu", cache_enabled=False):
        lin(x)
        assert ct._C.autocast_cache_size() == 0


def test_parameters_get_float32_gradients():
    torch = requires_torch()
    xa, wa, ba = arr(5, 3), arr(4, 3), arr(4)
    grads = []
    for mod in (ct, torch):
        w = mod.tensor(wa, requires_grad=True)
        b = mod.tensor(ba, requires_grad=True)
        with mod.cpu.amp.autocast():
            out = mod.nn.functional.linear(mod.tensor(xa), w, b)
            loss = mod.nn.functional.cross_entropy(out, mod.tensor([0, 1, 2, 3, 0]))
        loss.backward()
        assert str(w.grad.dtype).endswith("float32") and str(b.grad.dtype).endswith("float32")
        grads.append((w.grad.numpy(), b.grad.numpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], atol=2e-2)
    np.testing.assert_allclose(grads[0][1], grads[1][1], atol=2e-2)


# ---- GradScaler ----

def _model_and_opt():
    ct.manual_seed(0)
    model = ct.nn.Linear(3, 2)
    return model, ct.optim.SGD(model.parameters(), lr=0.1)


def test_grad_scaler_defaults_match_torch():
    torch = requires_torch()
    import inspect
    ours = inspect.signature(ct.amp.GradScaler.__init__).parameters
    theirs = inspect.signature(torch.cuda.amp.GradScaler.__init__).parameters
    assert {k: v.default for k, v in ours.items()} == {k: v.default for k, v in theirs.items()}
    assert ct.cuda.amp.GradScaler is ct.amp.GradScaler


def test_grad_scaler_step_and_growth():
    model, opt = _model_and_opt()
    scaler = ct.amp.GradScaler(init_scale=8.0, growth_interval=2)
    x = ct.randn(4, 3)
    w0 = model.weight.detach().clone()
    loss = model(x).sum()
    scaled = scaler.scale(loss)
    assert abs(scaled.item() - 8.0 * loss.item()) < 1e-4 * abs(8.0 * loss.item()) + 1e-5
    scaled.backward()
    g_scaled = model.weight.grad.clone()
    scaler.step(opt)  # unscales first: the applied gradient is the true one
    np.testing.assert_allclose(model.weight.grad.numpy(), g_scaled.numpy() / 8.0, rtol=1e-6)
    np.testing.assert_allclose(model.weight.detach().numpy(), (w0 - 0.1 * g_scaled / 8.0).numpy(), rtol=1e-5)
    scaler.update()
    assert scaler.get_scale() == 8.0 and scaler._get_growth_tracker() == 1
    opt.zero_grad()
    scaler.scale(model(x).sum()).backward()
    scaler.step(opt)
    scaler.update()
    assert scaler.get_scale() == 16.0 and scaler._get_growth_tracker() == 0  # grown after growth_interval steps


def test_grad_scaler_skips_step_and_backs_off_on_inf():
    model, opt = _model_and_opt()
    scaler = ct.amp.GradScaler(init_scale=1024.0)
    scaler.scale(model(ct.randn(4, 3)).sum()).backward()
    with ct.no_grad():
        model.weight.grad[0, 0] = float("inf")  # an injected overflow
    w0 = model.weight.detach().clone()
    b0 = model.bias.detach().clone()
    assert scaler.step(opt) is None
    np.testing.assert_array_equal(model.weight.detach().numpy(), w0.numpy())  # step skipped
    np.testing.assert_array_equal(model.bias.detach().numpy(), b0.numpy())
    scaler.update()
    assert scaler.get_scale() == 512.0 and scaler._get_growth_tracker() == 0  # backed off


def test_grad_scaler_unscale_errors_and_state_dict():
    model, opt = _model_and_opt()
    scaler = ct.amp.GradScaler(init_scale=4.0)
    with pytest.raises(RuntimeError, match="_scale is None"):
        scaler.unscale_(opt)
    scaler.scale(model(ct.randn(2, 3)).sum()).backward()
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    scaler.update(2.0)
    assert scaler.get_scale() == 2.0
    sd = scaler.state_dict()
    assert sd == {"scale": 2.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2000,
                  "_growth_tracker": 0}
    other = ct.amp.GradScaler()
    other.load_state_dict(sd)
    assert other.get_scale() == 2.0
    disabled = ct.amp.GradScaler(enabled=False)
    assert not disabled.is_enabled() and disabled.get_scale() == 1.0 and disabled.state_dict() == {}
    loss = model(ct.randn(2, 3)).sum()
    assert disabled.scale(loss) is loss
    with pytest.raises(ValueError):
        ct.amp.GradScaler(growth_factor=0.5)


def test_unscale_op_errors_are_typed():
    g = ct.tensor([1.0, 2.0])
    with pytest.raises(TypeError):
        ct._C.amp_non_finite_check_and_unscale_([ct.tensor([1, 2])], ct.zeros(1), ct.ones(1))
    with pytest.raises(ValueError):
        ct._C.amp_non_finite_check_and_unscale_([g], ct.zeros(2), ct.ones(1))
    with pytest.raises(ValueError):
        ct._C.amp_update_scale_(ct.ones(1), ct.zeros(1, dtype=ct.int32), ct.zeros(1), 2.0, 0.5, 0)


def test_several_backward_passes_in_one_region():
    lin = ct.nn.Linear(3, 2)
    x = ct.randn(4, 3)
    grads = []
    with ct.autocast("cpu"):
        for _ in range(3):  # the cached weight casts serve every iteration
            lin.weight.grad = None
            lin(x).float().sum().backward()
            grads.append(lin.weight.grad.numpy().copy())
    assert lin.weight.grad.dtype is ct.float32
    np.testing.assert_array_equal(grads[0], grads[2])
