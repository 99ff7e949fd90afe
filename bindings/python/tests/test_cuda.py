"""CUDA from Python: device queries, moves (.to / .cuda / .cpu, modules), a training step that matches the
CPU's, DLPack of CUDA tensors and mixed-device errors. Without a device every test is skipped with the
library's reason; run_tests.sh runs this file again against the emulated backend so CI executes it."""
import numpy as np
import pytest

import ctensor as ct
import ctensor.nn.functional as F

pytestmark = pytest.mark.skipif(not ct.cuda.is_available(),
                                reason="no CUDA device: %s" % ct.cuda.unavailable_reason())


def test_device_queries_and_memory_stats():
    assert ct.cuda.device_count() >= 1
    assert ct.cuda.unavailable_reason() == ""
    ct.cuda.synchronize()
    ct.cuda.synchronize("cuda:0")
    before = ct.cuda.memory_allocated()
    x = ct.zeros(1024, dtype=ct.float32, device="cuda")
    assert ct.cuda.memory_allocated(0) >= before + 4096
    assert ct.cuda.memory_reserved(ct.device("cuda:0")) >= ct.cuda.memory_allocated()
    assert ct.cuda.max_memory_allocated() >= ct.cuda.memory_allocated()
    del x
    assert ct.cuda.memory_allocated() == before
    ct.cuda.empty_cache()
    with pytest.raises(Exception, match="cuda:99"):
        ct.cuda.synchronize(99)
    with pytest.raises(ValueError, match="cuda device"):
        ct.cuda.memory_allocated("cpu")


def test_moves_between_devices_keep_values_dtype_and_grad():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ct.tensor(a)
    for y in (x.cuda(), x.to("cuda"), x.to(ct.device("cuda", 0)), ct.tensor(a, device="cuda")):
        assert y.is_cuda and y.device == ct.device("cuda:0")
        assert y.dtype == ct.float32 and y.shape == (3, 4)
        back = y.cpu()
        assert not back.is_cuda
        np.testing.assert_array_equal(back.numpy(), a)
    t = x.cuda().t()  # a non-contiguous CUDA view moves back with its values
    np.testing.assert_array_equal(t.cpu().numpy(), a.T)
    np.testing.assert_array_equal(x.cuda().to(ct.float64).cpu().numpy(), a.astype(np.float64))
    assert x.cuda().sum().item() == a.sum()
    assert x.cuda().tolist() == a.tolist()
    assert "device='cuda:0'" in repr(x.cuda())
    with pytest.raises(TypeError, match="Tensor.cpu"):
        x.cuda().numpy()
    # moves are differentiable: the gradient comes back to the CPU leaf
    w = ct.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (w.cuda() * w.cuda()).sum().backward()
    assert not w.grad.is_cuda
    np.testing.assert_allclose(w.grad.numpy(), [2.0, -4.0, 6.0])


def _mlp(device):
    ct.manual_seed(0)
    model = ct.nn.Sequential(ct.nn.Linear(5, 8), ct.nn.ReLU(), ct.nn.Linear(8, 3))
    return model.to(device)


@pytest.mark.parametrize("opt", ["sgd", "adam"])
def test_training_step_matches_cpu(opt):
    rng = np.random.default_rng(0)
    xs, ys = rng.standard_normal((16, 5)).astype(np.float32), rng.integers(0, 3, 16)
    losses, weights = {}, {}
    for device in ("cpu", "cuda"):
        model = _mlp(device)
        assert all(p.is_cuda == (device == "cuda") for p in model.parameters())
        if opt == "sgd":
            optim = ct.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        else:
            optim = ct.optim.Adam(model.parameters(), lr=0.01)
        x, y = ct.tensor(xs, device=device), ct.tensor(ys, device=device)
        losses[device] = []
        for _ in range(3):
            optim.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optim.step()
            losses[device].append(loss.item())
        weights[device] = [p.detach().cpu().numpy() for p in model.parameters()]
        assert all(p.grad.is_cuda == (device == "cuda") for p in model.parameters())
    np.testing.assert_allclose(losses["cuda"], losses["cpu"], rtol=1e-5, atol=1e-6)
    assert losses["cuda"][-1] < losses["cuda"][0]
    for wc, wg in zip(weights["cpu"], weights["cuda"]):
        np.testing.assert_allclose(wg, wc, rtol=1e-5, atol=1e-6)


def test_module_moves_and_state_dict_round_trip():
    model = _mlp("cpu")
    cpu_state = {k: v.clone() for k, v in model.state_dict().items()}
    model.cuda()
    assert all(v.is_cuda for v in model.state_dict().values())
    model.cpu()
    for k, v in model.state_dict().items():
        assert not v.is_cuda
        np.testing.assert_array_equal(v.numpy(), cpu_state[k].numpy())


def test_dlpack_of_cuda_tensors():
    x = ct.arange(6, dtype=ct.float32, device="cuda").reshape(2, 3)
    assert x.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
    y = ct.from_dlpack(x)  # zero-copy import of the CUDA memory
    assert y.is_cuda and y.shape == (2, 3)
    y.add_(1)
    np.testing.assert_array_equal(x.cpu().numpy(), np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    z = ct.from_dlpack(x.__dlpack__())  # from a bare capsule too
    assert z.is_cuda
    np.testing.assert_array_equal(z.cpu().numpy(), x.cpu().numpy())


def test_mixed_devices_are_refused():
    a, b = ct.ones(3), ct.ones(3, device="cuda")
    with pytest.raises(RuntimeError, match="cuda:0"):
        a + b
    with pytest.raises(RuntimeError, match="cuda:0"):
        ct.matmul(ct.ones(2, 3), ct.ones(3, 2, device="cuda"))
    lin = ct.nn.Linear(3, 2).cuda()
    with pytest.raises(RuntimeError, match="cpu"):
        lin(ct.ones(4, 3))
    # a 0-d CPU tensor (a number) combines with a CUDA tensor, as in PyTorch
    r = b * ct.tensor(2.0)
    assert r.is_cuda and r.cpu().tolist() == [2.0, 2.0, 2.0]


def test_ops_on_cuda_match_cpu():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5))
    x, xc = ct.tensor(a), ct.tensor(a, device="cuda")
    checks = [
        lambda t: ct.sort(t, dim=1)[0], lambda t: t.flip(0), lambda t: ct.tril(t), lambda t: ct.cumprod(t, 1),
        lambda t: ct.softmax(t, 1), lambda t: t.max(dim=0)[0], lambda t: (t @ t.t()).relu(),
        lambda t: ct.cat([t, t.exp()], 1), lambda t: t[1:, ::2],
    ]
    for f in checks:
        got = f(xc)
        assert got.is_cuda
        np.testing.assert_allclose(got.cpu().numpy(), f(x).numpy(), rtol=1e-12, atol=1e-12)


ACTIVATIONS = [F.elu, F.selu, lambda t: F.celu(t, 2.0), lambda t: F.leaky_relu(t, 0.1), F.relu6, F.hardsigmoid,
               F.hardswish, F.softshrink, F.hardshrink, lambda t: F.threshold(t, 0.1, 3.0), F.mish, F.logsigmoid,
               F.softsign, F.tanhshrink, lambda t: F.softmin(t, 1), lambda t: F.glu(t, 1), F.rrelu,
               lambda t: F.prelu(t.reshape(3, 4, 1), ct.tensor([0.1, 0.2, 0.3, 0.4], dtype=t.dtype, device=t.device))]


@pytest.mark.parametrize("k", range(len(ACTIVATIONS)))
def test_activations_on_cuda_match_cpu(k):
    x = ct.randn(3, 4, dtype=ct.float64)
    a, b = x.clone().requires_grad_(True), x.to("cuda").requires_grad_(True)
    ya, yb = ACTIVATIONS[k](a), ACTIVATIONS[k](b)
    assert yb.is_cuda
    ya.sum().backward()
    yb.sum().backward()
    np.testing.assert_allclose(yb.detach().cpu().numpy(), ya.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.grad.cpu().numpy(), a.grad.numpy(), rtol=1e-12)


def test_rrelu_draws_the_same_slopes_on_cuda_as_on_the_cpu():
    ct.manual_seed(3)
    on_cpu = F.rrelu(-ct.ones(5, dtype=ct.float64), training=True)
    ct.manual_seed(3)
    assert F.rrelu(-ct.ones(5, dtype=ct.float64, device="cuda"), training=True).cpu().tolist() == on_cpu.tolist()


def _on(t, ref):
    return t.to(ref.device).to(ref.dtype)


# each takes x [3, 4] (differentiated) and builds its other inputs from fixed values on x's device
LOSSES = [
    lambda x: F.l1_loss(x, _on(ct.linspace(-1, 1, 4), x)),
    lambda x: F.smooth_l1_loss(x, _on(ct.linspace(-1, 1, 4), x), beta=0.5),
    lambda x: F.huber_loss(x, _on(ct.linspace(-1, 1, 4), x), reduction="sum", delta=0.5),
    lambda x: F.kl_div(x, _on(ct.full((3, 4), 0.25), x), reduction="batchmean"),
    lambda x: F.soft_margin_loss(x, _on(ct.tensor([1.0, -1.0, 1.0, -1.0]), x)),
    lambda x: F.poisson_nll_loss(x, _on(ct.tensor([0.0, 1.0, 2.5, 4.0]), x), full=True),
    lambda x: F.gaussian_nll_loss(x, _on(ct.zeros(3, 4), x), x * x + 0.1, reduction="none"),
    lambda x: F.hinge_embedding_loss(x, _on(ct.tensor([1.0, -1.0, -1.0, 1.0]), x)),
    lambda x: F.margin_ranking_loss(x, x.flip((1,)), _on(ct.tensor([[1.0, -1.0, -1.0, 1.0]]), x), 0.2),
    lambda x: F.multilabel_soft_margin_loss(x, _on(ct.tensor([1.0, 0.0, 0.0, 1.0]), x), reduction="none"),
    lambda x: F.multi_margin_loss(x, ct.tensor([3, 0, 1], device=x.device), p=2,
                                  weight=_on(ct.tensor([1.0, 2.0, 0.5, 1.5]), x)),
    lambda x: F.cosine_embedding_loss(x, x.flip((1,)), _on(ct.tensor([1.0, -1.0, 1.0]), x), -0.5),
    lambda x: F.triplet_margin_loss(x, x.flip((1,)), x * 0.5, swap=True),
]


@pytest.mark.parametrize("k", range(len(LOSSES)))
def test_losses_on_cuda_match_cpu(k):
    x = ct.randn(3, 4, dtype=ct.float64)
    a, b = x.clone().requires_grad_(True), x.to("cuda").requires_grad_(True)
    ya, yb = LOSSES[k](a), LOSSES[k](b)
    assert yb.is_cuda
    ya.sum().backward()
    yb.sum().backward()
    np.testing.assert_allclose(yb.detach().cpu().numpy(), ya.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.grad.cpu().numpy(), a.grad.numpy(), rtol=1e-12)
LINALG = {"inv": lambda L, a: L.inv(a), "det": lambda L, a: L.det(a), "slogdet": lambda L, a: L.slogdet(a),
          "solve": lambda L, a: L.solve(a, a), "cholesky": lambda L, a: L.cholesky(a), "qr": lambda L, a: L.qr(a),
          "eigh": lambda L, a: L.eigh(a), "eigvalsh": lambda L, a: L.eigvalsh(a), "svd": lambda L, a: L.svd(a),
          "svdvals": lambda L, a: L.svdvals(a),
          "solve_triangular": lambda L, a: L.solve_triangular(a, a, upper=True), "lstsq": lambda L, a: L.lstsq(a, a),
          "pinv": lambda L, a: L.pinv(a), "matrix_rank": lambda L, a: L.matrix_rank(a),
          "matrix_norm": lambda L, a: L.matrix_norm(a), "vector_norm": lambda L, a: L.vector_norm(a),
          "matrix_power": lambda L, a: L.matrix_power(a, 2), "cross": lambda L, a: L.cross(a, a)}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_runs_on_cuda(name):
    """torch.linalg runs on cuSOLVER (test_cuda_linalg.py compares values and gradients with torch)."""
    a = ct.eye(3, dtype=ct.float64, device="cuda") * 2
    got, want = LINALG[name](ct.linalg, a), LINALG[name](ct.linalg, a.cpu())
    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert g.is_cuda
        np.testing.assert_allclose(g.cpu().numpy(), w.numpy())
