"""float16 / bfloat16 tensors on CUDA (issue 15): moves, casts, elementwise ops, reductions, nn ops, matmul and a
training step on half CUDA tensors against the same on CPU half tensors, DLPack of half CUDA tensors, and autocast
on "cuda". Skipped without a device; run_tests.sh runs this file again against the emulated backend so CI executes
it (the emulated backend runs the real kernels on the host)."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn.functional as F

pytestmark = pytest.mark.skipif(not ct.cuda.is_available(),
                                reason="no CUDA device: %s" % ct.cuda.unavailable_reason())

HALVES = [ct.float16, ct.bfloat16]
TOL = {ct.float16: 1e-2, ct.bfloat16: 8e-2}  # a last-bit difference at values up to ~10


def _f32(t):
    return t.detach().cpu().float().numpy()


def _pair(shape, dtype, seed, lo=-2.0, hi=2.0):
    """The same half tensor on the CPU and on cuda:0."""
    rng = np.random.default_rng(seed)
    cpu = ct.tensor(rng.uniform(lo, hi, size=shape).astype(np.float32)).to(dtype)
    return cpu, cpu.to("cuda")


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_half_moves_and_casts(dtype):
    cpu, dev = _pair((3, 4), dtype, 0)
    assert dev.is_cuda and dev.dtype is dtype
    np.testing.assert_array_equal(_f32(dev), _f32(cpu))
    assert dev.t().contiguous().cpu().dtype is dtype
    for other in (ct.float32, ct.float64, ct.int32, ct.int64, ct.int8, ct.uint8, ct.bool_):
        np.testing.assert_array_equal(dev.to(other).cpu().numpy(), cpu.to(other).numpy())
        src = ct.tensor(np.arange(-3, 9).reshape(3, 4)).to(other) if other is not ct.uint8 else \
            ct.tensor(np.arange(12, dtype=np.uint8).reshape(3, 4))
        np.testing.assert_array_equal(_f32(src.cuda().to(dtype)), _f32(src.to(dtype)))
    z = ct.zeros(2, 3, dtype=dtype, device="cuda")
    assert z.is_cuda and z.dtype is dtype and z.cpu().float().sum().item() == 0
    r = ct.randn(4, dtype=dtype, device="cuda")
    assert r.is_cuda and r.dtype is dtype
    with pytest.raises(Exception, match="complex64 tensors are not supported on cuda"):
        ct.zeros(2, dtype=ct.complex64, device="cuda")


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_half_ops_match_cpu(dtype):
    a_c, a_d = _pair((6, 5), dtype, 1)
    b_c, b_d = _pair((5,), dtype, 2, 0.5, 2.0)
    ops = [
        lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a / b, lambda a, b: ct.maximum(a, b),
        lambda a, b: (a < b).to(a.dtype), lambda a, b: a.exp(), lambda a, b: a.tanh(), lambda a, b: F.gelu(a),
        lambda a, b: F.relu(a), lambda a, b: a.sum(1), lambda a, b: a.mean(), lambda a, b: a.max(0)[0],
        lambda a, b: a.argmax(1).to(a.dtype), lambda a, b: F.softmax(a, 1), lambda a, b: F.log_softmax(a, 0),
        lambda a, b: F.layer_norm(a, (5,)), lambda a, b: ct.where(a > 0, a, b), lambda a, b: a @ a.t(),
        lambda a, b: ct.matmul(a.t(), a), lambda a, b: a.norm(),
    ]
    for i, op in enumerate(ops):
        want, got = op(a_c, b_c), op(a_d, b_d)
        assert got.is_cuda and got.dtype is want.dtype, i
        np.testing.assert_allclose(_f32(got), _f32(want), rtol=TOL[dtype], atol=TOL[dtype], err_msg=str(i))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_half_training_step_matches_cpu(dtype):
    results = []
    for device in ("cpu", "cuda"):
        ct.manual_seed(0)
        model = ct.nn.Sequential(ct.nn.Linear(6, 8), ct.nn.ReLU(), ct.nn.Linear(8, 3)).to(dtype).to(device)
        opt = ct.optim.Adam(model.parameters(), lr=0.05)
        rng = np.random.default_rng(3)
        x = ct.tensor(rng.uniform(-1, 1, size=(4, 6)).astype(np.float32)).to(dtype).to(device)
        y = ct.tensor(rng.integers(0, 3, size=4)).to(device)
        for _ in range(3):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
        assert all(p.dtype is dtype and p.is_cuda == (device == "cuda") for p in model.parameters())
        results.append([_f32(p) for p in model.parameters()])
    for want, got in zip(*results):
        np.testing.assert_allclose(got, want, rtol=TOL[dtype] * 4, atol=TOL[dtype] * 4)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_half_dlpack_round_trip(dtype):
    _, dev = _pair((3, 4), dtype, 4)
    assert dev.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
    back = ct.from_dlpack(dev.__dlpack__())
    assert back.is_cuda and back.dtype is dtype
    np.testing.assert_array_equal(_f32(back), _f32(dev))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_cuda_autocast_runs_matmul_in_half(dtype):
    a = ct.randn(4, 8, device="cuda")
    w = ct.randn(3, 8, device="cuda")
    with ct.autocast("cuda", dtype=dtype):
        y = F.linear(a, w)
        s = F.softmax(y, 1)
    assert y.is_cuda and y.dtype is dtype
    assert s.dtype is ct.float32
    np.testing.assert_array_equal(_f32(y), _f32(F.linear(a.to(dtype), w.to(dtype))))
    with ct.cuda.amp.autocast():
        assert (a @ w.t()).dtype is ct.float16
