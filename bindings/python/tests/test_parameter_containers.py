"""nn.ParameterList and nn.ParameterDict against torch 1.13: registration (parameters(), named_parameters(),
state_dict keys and order), indexing (negative, slices, keys), append/extend/+=, update/pop/setdefault/|, tensors
wrapped as Parameters, non-tensor values kept but not registered, load_state_dict and an optimizer step."""
import collections

import numpy as np
import pytest

import ctensor as ct
import ctensor.nn as nn

from conftest import requires_torch


def names(module):
    return [n for n, _ in module.named_parameters()]


def make_net(lib):
    """The same module in ctensor or torch: a ParameterList and a ParameterDict as attributes."""
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.plist = lib.nn.ParameterList([lib.nn.Parameter(lib.ones(2)), lib.zeros(3)])
            self.pdict = lib.nn.ParameterDict({"b": lib.ones(1), "a": lib.nn.Parameter(lib.zeros(2))})

    return Net()


def test_parameter_list_registration_and_indexing_like_torch():
    torch = requires_torch()

    mine = nn.ParameterList([nn.Parameter(ct.ones(2)), ct.zeros(3)])
    theirs = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)), torch.zeros(3)])
    mine.append(ct.full((4,), 2.0))
    theirs.append(torch.full((4,), 2.0))
    mine.extend([ct.ones(1)])
    theirs.extend([torch.ones(1)])
    mine += [ct.ones(5)]
    theirs += [torch.ones(5)]
    assert names(mine) == [n for n, _ in theirs.named_parameters()] == ["0", "1", "2", "3", "4"]
    assert len(mine) == len(theirs) == 5
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in mine)
    assert mine[-1].shape == (5,) and mine[2].tolist() == [2.0] * 4
    sub = mine[1:3]
    assert isinstance(sub, nn.ParameterList) and [tuple(p.shape) for p in sub] == [(3,), (4,)]
    assert sub[0] is mine[1]
    mine[0] = ct.full((2,), 7.0)
    assert isinstance(mine[0], nn.Parameter) and mine.state_dict()["0"].tolist() == [7.0, 7.0]
    assert list(mine.state_dict()) == list(theirs.state_dict())
    with pytest.raises(IndexError, match="out of range"):
        mine[5]
    with pytest.raises(TypeError, match="iterable"):
        mine.extend(ct.ones(2))
    with pytest.raises(RuntimeError, match="should not be called"):
        mine()


def test_parameter_list_keeps_non_tensors_unregistered():
    torch = requires_torch()
    mine = nn.ParameterList([ct.ones(1), None, 3])
    theirs = torch.nn.ParameterList([torch.ones(1), None, 3])
    assert mine[1] is None and mine[2] == 3
    assert names(mine) == [n for n, _ in theirs.named_parameters()] == ["0"]
    assert "Object of type: int" in repr(mine)
    mine.append(ct.ones(3))
    theirs.append(torch.ones(3))
    mine[1] = ct.ones(2)  # None -> Parameter: registered last, as torch does
    theirs[1] = torch.ones(2)
    assert names(mine) == [n for n, _ in theirs.named_parameters()] == ["0", "3", "1"]
    mine[0] = ct.zeros(1)  # Parameter -> Parameter keeps its place
    theirs[0] = torch.zeros(1)
    assert names(mine) == [n for n, _ in theirs.named_parameters()] == ["0", "3", "1"]
    assert list(mine.state_dict()) == list(theirs.state_dict())


def test_parameter_dict_like_torch():
    torch = requires_torch()
    mine = nn.ParameterDict({"b": ct.ones(1), "a": nn.Parameter(ct.zeros(2))})
    theirs = torch.nn.ParameterDict({"b": torch.ones(1), "a": torch.nn.Parameter(torch.zeros(2))})
    assert list(mine.keys()) == list(theirs.keys())  # a plain dict's keys are sorted on update, as in torch 1.13
    mine.update(collections.OrderedDict([("z", ct.ones(3)), ("c", ct.ones(4))]))
    theirs.update(collections.OrderedDict([("z", torch.ones(3)), ("c", torch.ones(4))]))
    mine.update([("y", ct.ones(1))])
    theirs.update([("y", torch.ones(1))])
    assert list(mine) == list(theirs) and names(mine) == [n for n, _ in theirs.named_parameters()]
    assert "c" in mine and len(mine) == 5 and isinstance(mine["z"], nn.Parameter)
    assert mine.a is mine["a"]
    popped = mine.pop("z")
    theirs.pop("z")
    assert popped.shape == (3,) and "z" not in mine and list(mine) == list(theirs)
    assert mine.setdefault("n", None) is None and "n" in mine and names(mine) == ["a", "b", "c", "y"]
    assert mine.get("missing", 5) == 5
    key, _ = mine.popitem()
    assert key == "n"
    merged = mine | {"q": ct.ones(1)}
    assert list(merged) == list(mine) + ["q"] and "q" not in mine
    copy = mine.copy()
    assert list(copy) == list(mine) and copy["a"] is mine["a"]
    del mine["a"]
    assert "a" not in mine and names(mine) == ["b", "c", "y"]
    assert list(nn.ParameterDict.fromkeys(["k", "j"])) == ["k", "j"]
    with pytest.raises(KeyError):
        mine["missing"]
    with pytest.raises(ValueError, match="length"):
        mine.update([("x", ct.ones(1), 3)])
    with pytest.raises(TypeError):
        mine[3] = ct.ones(1)
    mine.clear()
    assert len(mine) == 0 and names(mine) == []


def test_containers_inside_a_module_state_dict_and_optimizer():
    torch = requires_torch()
    mine, theirs = make_net(ct), make_net(torch)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert names(mine) == [n for n, _ in theirs.named_parameters()]
    state = {k: ct.full(tuple(v.shape), 3.0) for k, v in mine.state_dict().items()}
    mine.load_state_dict(state)
    assert mine.pdict["a"].tolist() == [3.0, 3.0] and mine.plist[1].tolist() == [3.0] * 3
    opt = ct.optim.SGD(mine.parameters(), lr=0.5)
    loss = sum((p * p).sum() for p in mine.parameters())
    loss.backward()
    opt.step()
    np.testing.assert_allclose(mine.plist[0].detach().numpy(), [0.0, 0.0])  # 3 - 0.5 * 2 * 3
    moved = mine.double()
    assert moved.pdict["b"].dtype == ct.float64 and isinstance(moved.plist[0], nn.Parameter)
