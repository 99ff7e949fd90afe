"""F.embedding's options (padding_idx, max_norm, scale_grad_by_freq), F.embedding_bag and nn.Embedding /
nn.EmbeddingBag against torch 1.13: values and gradients of weight and per_sample_weights with the same inputs."""
import numpy as np
import pytest
import torch

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

W = np.sin(np.arange(7 * 4, dtype=np.float64).reshape(7, 4) * 0.7) * 2
IDX = np.array([0, 2, 4, 6, 1, 2, 2, 3, 6])
OFF = np.array([0, 3, 3, 5])


def both(fn, weight=W, extra=None):
    """Runs fn on ctensor and torch with weight (and extra tensors) requiring grad; returns outputs and grads."""
    res = []
    for lib in (ct, torch):
        w = lib.tensor(weight.copy(), requires_grad=True)
        ex = [lib.tensor(e.copy(), requires_grad=True) for e in (extra or [])]
        out = fn(lib, w, *ex)
        (out * lib.tensor(np.cos(np.arange(out.numel()).reshape(tuple(out.shape))))).sum().backward()
        res.append((out.detach().numpy(), w.grad.numpy(), [e.grad.numpy() for e in ex], w.detach().numpy()))
    return res


def check(res, tol=1e-12):
    (o, g, eg, w), (to, tg, teg, tw) = res
    np.testing.assert_allclose(o, to, rtol=tol, atol=tol)
    np.testing.assert_allclose(g, tg, rtol=tol, atol=tol)
    np.testing.assert_allclose(w, tw, rtol=tol, atol=tol)
    for a, b in zip(eg, teg):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("padding_idx", [None, 2, -1])
@pytest.mark.parametrize("freq", [False, True])
def test_embedding_options_like_torch(padding_idx, freq):
    idx = IDX.reshape(3, 3)
    check(both(lambda lib, w: (F if lib is ct else torch.nn.functional).embedding(
        lib.tensor(idx), w, padding_idx=padding_idx, scale_grad_by_freq=freq)))


def test_embedding_max_norm_renormalises_weight_in_place_like_torch():
    for norm_type in (2.0, 1.0, float("inf")):
        check(both(lambda lib, w: (F if lib is ct else torch.nn.functional).embedding(
            lib.tensor(IDX), w, max_norm=1.5, norm_type=norm_type)), tol=1e-7)


def documented_bag(idx, w, offsets, mode, padding_idx, freq):
    """torch's bags built from F.embedding (whose scale_grad_by_freq divides by each row's count, as documented):
    torch 1.13's CPU embedding_bag scales some rows by another row's count, e.g. here rows 3 and 4 by row 2's."""
    e = torch.nn.functional.embedding(idx, w, padding_idx=padding_idx, scale_grad_by_freq=freq)
    starts = list(offsets.tolist()) + [len(idx)]
    bags = []
    for b in range(len(offsets)):
        keep = [i for i in range(starts[b], starts[b + 1]) if padding_idx is None or int(idx[i]) != padding_idx]
        rows = e[keep] if keep else e.new_zeros(0, e.shape[1])
        total = rows.sum(0)
        bags.append(total / len(keep) if mode == "mean" and keep else total)
    return torch.stack(bags)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
@pytest.mark.parametrize("freq", [False, True])
def test_embedding_bag_like_torch(mode, padding_idx, freq):
    if mode == "max" and freq:
        for f in (F, torch.nn.functional):  # both refuse it
            with pytest.raises(ValueError, match="max mode does not support scaling the gradient by the frequency"):
                f.embedding_bag((ct if f is F else torch).tensor(IDX), (ct if f is F else torch).tensor(W),
                                (ct if f is F else torch).tensor(OFF), mode="max", scale_grad_by_freq=True)
        return
    def run(lib, w):
        if lib is torch and freq:
            return documented_bag(torch.tensor(IDX), w, torch.tensor(OFF), mode, padding_idx, freq)
        f = F if lib is ct else torch.nn.functional
        return f.embedding_bag(lib.tensor(IDX), w, lib.tensor(OFF), mode=mode, padding_idx=padding_idx,
                               scale_grad_by_freq=freq)
    check(both(run))
    if not freq and mode != "max":  # the reference construction agrees with torch's embedding_bag where its scaling is not involved
        w = torch.tensor(W)
        np.testing.assert_allclose(documented_bag(torch.tensor(IDX), w, torch.tensor(OFF), mode, padding_idx, False),
                                   torch.nn.functional.embedding_bag(torch.tensor(IDX), w, torch.tensor(OFF), mode=mode,
                                                                     padding_idx=padding_idx), rtol=1e-12)


def test_embedding_bag_2d_include_last_offset_and_per_sample_weights_like_torch():
    idx2 = IDX[:8].reshape(2, 4)
    for mode in ("sum", "mean", "max"):
        check(both(lambda lib, w: (F if lib is ct else torch.nn.functional).embedding_bag(lib.tensor(idx2), w, mode=mode)))
    off5 = np.array([0, 3, 3, 5, 9])
    check(both(lambda lib, w: (F if lib is ct else torch.nn.functional).embedding_bag(
        lib.tensor(IDX), w, lib.tensor(off5), mode="mean", include_last_offset=True)))
    psw = np.linspace(0.5, 1.5, len(IDX))
    check(both(lambda lib, w, p: (F if lib is ct else torch.nn.functional).embedding_bag(
        lib.tensor(IDX), w, lib.tensor(OFF), mode="sum", per_sample_weights=p), extra=[psw]))


def test_modules_and_from_pretrained():
    ct.manual_seed(0)
    e = nn.Embedding(5, 3, padding_idx=1)
    assert np.all(e.weight.detach().numpy()[1] == 0)
    assert "padding_idx=1" in repr(e)
    bag = nn.EmbeddingBag.from_pretrained(ct.tensor(W), mode="max", padding_idx=0)
    assert not bag.weight.requires_grad
    tbag = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(W), mode="max", padding_idx=0)
    np.testing.assert_allclose(bag(ct.tensor(IDX), ct.tensor(OFF)).numpy(),
                               tbag(torch.tensor(IDX), torch.tensor(OFF)).numpy(), rtol=0, atol=0)
    emb = nn.Embedding.from_pretrained(ct.tensor(W), freeze=False, max_norm=1.0)
    assert emb.weight.requires_grad
    out = emb(ct.tensor(IDX))
    assert np.all(np.linalg.norm(out.detach().numpy(), axis=1) <= 1.0 + 1e-6)
    # a state_dict from torch loads
    t = torch.nn.EmbeddingBag(7, 4, mode="sum")
    m = nn.EmbeddingBag(7, 4, mode="sum")
    m.load_state_dict({k: ct.tensor(v.numpy()) for k, v in t.state_dict().items()})
    np.testing.assert_allclose(m(ct.tensor(IDX), ct.tensor(OFF)).detach().numpy(),
                               t(torch.tensor(IDX), torch.tensor(OFF)).detach().numpy(), rtol=1e-6, atol=1e-6)


def test_bad_input_raises_like_torch():
    w = ct.tensor(W)
    with pytest.raises(ValueError, match="offsets has to be None"):
        F.embedding_bag(ct.tensor(IDX[:8].reshape(2, 4)), w, ct.tensor(OFF))
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(ct.tensor(IDX), w)
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
        F.embedding_bag(ct.tensor(IDX), w, ct.tensor(OFF), mode="max", per_sample_weights=ct.ones(9, dtype=ct.float64))
    with pytest.raises(ValueError, match="mode has to be one of"):
        F.embedding_bag(ct.tensor(IDX), w, ct.tensor(OFF), mode="median")
    with pytest.raises(ValueError, match="offsets\\[0\\] must be 0, got 1"):
        F.embedding_bag(ct.tensor(IDX), w, ct.tensor(np.array([1, 3])))
    with pytest.raises(IndexError, match="index 9 is out of range for 7"):
        F.embedding_bag(ct.tensor(np.array([9])), w, ct.tensor(np.array([0])))
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(ct.tensor(IDX), w, padding_idx=7)


@pytest.mark.skipif(not ct.cuda.is_available(), reason="no CUDA backend (run_tests.sh runs this again on the "
                    "emulated CUDA backend)")
def test_embedding_bag_cuda_matches_cpu():
    for dev_w in (ct.tensor(W).to("cuda"),):
        w = dev_w.clone().requires_grad_(True)
        out = F.embedding_bag(ct.tensor(IDX).to("cuda"), w, ct.tensor(OFF).to("cuda"), mode="mean", padding_idx=2)
        assert out.device == ct.device("cuda:0")
        out.sum().backward()
        wc = ct.tensor(W, requires_grad=True)
        ref = F.embedding_bag(ct.tensor(IDX), wc, ct.tensor(OFF), mode="mean", padding_idx=2)
        ref.sum().backward()
        np.testing.assert_allclose(out.to("cpu").detach().numpy(), ref.detach().numpy(), rtol=1e-12)
        np.testing.assert_allclose(w.grad.to("cpu").numpy(), wc.grad.numpy(), rtol=1e-12)
        e = F.embedding(ct.tensor(IDX).to("cuda"), w, padding_idx=0, scale_grad_by_freq=True)
        assert e.device == ct.device("cuda:0")
