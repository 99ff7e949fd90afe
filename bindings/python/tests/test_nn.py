"""ctensor.nn and ctensor.optim: module registration/traversal/state dicts, layers against PyTorch with the
same weights, optimizer steps against torch.optim, save/load of state dicts and a short training run."""
import collections

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn
import ctensor.nn.functional as F

from conftest import requires_torch


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 3, bias=False)
        self.register_buffer("steps", ct.zeros(1))
        self.scale = 2.0

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


def test_module_registration_and_traversal():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad and p.is_leaf for p in net.parameters())
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "fc2"]
    assert len(list(net.modules())) == 4 and [n for n, _ in net.named_buffers()] == ["steps"]
    assert net.fc1.weight.shape == (8, 4) and net.fc2.bias is None
    # PyTorch's order: a module's own parameters and buffers, then its children's
    assert list(net.state_dict()) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight"]
    assert "Linear(in_features=4, out_features=8, bias=True)" in repr(net)
    net.eval()
    assert not net.training and not net.fc1.training
    net.train()
    assert net.fc2.training
    with pytest.raises(TypeError):
        net.fc1 = None
        net.fc2.weight = ct.ones(3, 8)
    with pytest.raises(AttributeError):
        net.missing


def test_forward_backward_and_zero_grad():
    net = Net()
    out = net(ct.randn(5, 4))
    assert out.shape == (5, 3)
    out.sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_state_dict_roundtrip_and_errors(tmp_path):
    a, b = Net(), Net()
    x = ct.randn(2, 4)
    assert not ct.allclose(a(x), b(x))
    path = tmp_path / "net.ct"
    ct.save(a.state_dict(), path)
    sd = ct.load(path, weights_only=True)
    assert isinstance(sd, collections.OrderedDict)
    result = b.load_state_dict(sd)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert ct.allclose(a(x), b(x))
    sd["fc1.weight"] = ct.zeros(1, 1)
    with pytest.raises(RuntimeError, match="size mismatch"):
        b.load_state_dict(sd)
    del sd["fc1.weight"]
    with pytest.raises(RuntimeError, match="missing"):
        b.load_state_dict(sd)
    assert b.load_state_dict(sd, strict=False).missing_keys == ["fc1.weight"]


def test_containers():
    seq = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[1], nn.Tanh) and len(seq[:2]) == 2
    assert seq(ct.ones(4, 2)).shape == (4, 1)
    assert len(list(seq.parameters())) == 4
    ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
    assert len(list(ml.parameters())) == 6 and len(ml) == 3
    md = nn.ModuleDict({"a": nn.ReLU()})
    assert "a" in list(md) and isinstance(md["a"], nn.ReLU)
    assert nn.Flatten()(ct.ones(2, 3, 4)).shape == (2, 12)


def _copy_linear(ct_lin, torch_lin):
    torch = requires_torch()
    with torch.no_grad():
        torch_lin.weight.copy_(torch.tensor(ct_lin.weight.detach().numpy()))
        if ct_lin.bias is not None:
            torch_lin.bias.copy_(torch.tensor(ct_lin.bias.detach().numpy()))


def test_layers_match_torch(rng):
    torch = requires_torch()
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    conv = nn.Conv2d(3, 4, 3, stride=1, padding=1)
    tconv = torch.nn.Conv2d(3, 4, 3, stride=1, padding=1)
    _copy_linear(conv, tconv)
    pool, tpool = nn.MaxPool2d(2), torch.nn.MaxPool2d(2)
    y = pool(conv(ct.tensor(x)))
    ty = tpool(tconv(torch.tensor(x)))
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-5)
    emb = nn.Embedding(10, 3)
    idx = ct.tensor([[1, 2], [9, 0]])
    np.testing.assert_array_equal(emb(idx).detach().numpy(), emb.weight.detach().numpy()[idx.numpy()])
    ln = nn.LayerNorm(5)
    z = rng.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(ln(ct.tensor(z)).detach().numpy(),
                               torch.nn.LayerNorm(5)(torch.tensor(z)).detach().numpy(), rtol=1e-4, atol=1e-5)


def test_dropout_train_and_eval():
    d = nn.Dropout(0.5)
    x = ct.ones(10000)
    y = d(x).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.4 < (y == 0).mean() < 0.6
    d.eval()
    assert ct.equal(d(x), x)


def test_losses_modules():
    logits = ct.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    target = ct.tensor([0, 2])
    ce = nn.CrossEntropyLoss()(logits, target).item()
    manual = -np.mean([np.log(np.exp(2.0) / np.exp([2.0, 0.5, -1.0]).sum()),
                       np.log(np.exp(3.0) / np.exp([0.1, 0.2, 3.0]).sum())])
    assert abs(ce - manual) < 1e-5
    assert nn.MSELoss(reduction="sum")(ct.ones(3), ct.zeros(3)).item() == 3.0
    with pytest.raises(ValueError):
        nn.MSELoss(reduction="avg")


@pytest.mark.parametrize("kind", ["sgd", "sgd_momentum", "adam", "adamw"])
def test_optimizers_match_torch(kind, rng):
    torch = requires_torch()
    w0 = rng.standard_normal((3, 2))
    x = rng.standard_normal((5, 3))
    w = nn.Parameter(ct.tensor(w0))
    tw = torch.nn.Parameter(torch.tensor(w0))
    make = {
        "sgd": (lambda p: ct.optim.SGD([p], lr=0.1), lambda p: torch.optim.SGD([p], lr=0.1)),
        "sgd_momentum": (lambda p: ct.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
                         lambda p: torch.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
        "adam": (lambda p: ct.optim.Adam([p], lr=0.01, weight_decay=0.1),
                 lambda p: torch.optim.Adam([p], lr=0.01, weight_decay=0.1)),
        "adamw": (lambda p: ct.optim.AdamW([p], lr=0.01), lambda p: torch.optim.AdamW([p], lr=0.01)),
    }[kind]
    opt, topt = make[0](w), make[1](tw)
    for step in range(5):
        opt.zero_grad()
        topt.zero_grad()
        ((ct.tensor(x) @ w) ** 2).sum().backward()
        ((torch.tensor(x) @ tw) ** 2).sum().backward()
        opt.step()
        topt.step()
        if step == 2:
            opt.param_groups[0]["lr"] *= 0.5
            topt.param_groups[0]["lr"] *= 0.5
    np.testing.assert_allclose(w.detach().numpy(), tw.detach().numpy(), rtol=1e-6, atol=1e-9)


def test_optimizer_param_groups_and_errors():
    a, b = nn.Parameter(ct.ones(2)), nn.Parameter(ct.ones(2))
    opt = ct.optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    (a.sum() + b.sum()).backward()
    opt.step()
    assert np.allclose(a.detach().numpy(), 0.9) and np.allclose(b.detach().numpy(), 0.0)
    opt.zero_grad()
    assert a.grad is None
    with pytest.raises(ValueError):
        ct.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError):
        ct.optim.Adam([a], betas=(1.5, 0.9))
    sched = ct.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    sched.step()
    assert opt.param_groups[0]["lr"] == 0.05


def test_short_training_run_learns():
    ct.manual_seed(0)
    x = ct.randn(256, 2)
    y = ((x[:, 0] * x[:, 1]) > 0).long()
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = ct.optim.Adam(model.parameters(), lr=0.02)
    loss_fn = nn.CrossEntropyLoss()
    first = None
    for _ in range(150):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    acc = (model(x).argmax(1) == y).float().mean().item()
    assert loss.item() < first * 0.5 and acc > 0.9


def test_functional_helpers():
    oh = F.one_hot(ct.tensor([0, 2]), 3)
    assert oh.tolist() == [[1, 0, 0], [0, 0, 1]] and oh.dtype is ct.int64
    n = F.normalize(ct.tensor([[3.0, 4.0]]), dim=1)
    assert np.allclose(n.numpy(), [[0.6, 0.8]])


def test_deepcopy_and_pickle_of_modules():
    import copy
    import pickle

    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    c = copy.deepcopy(m)
    assert isinstance(c[0].weight, nn.Parameter) and c[0].weight.requires_grad
    assert ct.equal(c[0].weight, m[0].weight) and not c[0].weight._shares_storage(m[0].weight)
    p = pickle.loads(pickle.dumps(m))
    x = ct.ones(4, 2)
    assert ct.allclose(p(x), m(x))
