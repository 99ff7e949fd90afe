"""Creation, dtype inference, metadata, conversions and printing of ctensor tensors."""
import numpy as np
import pytest

import ctensor as ct


def test_tensor_dtype_inference_like_torch():
    assert ct.tensor(1.5).dtype is ct.float32
    assert ct.tensor([1, 2]).dtype is ct.int64
    assert ct.tensor([True, False]).dtype is ct.bool
    assert ct.tensor([[1, 2.5]]).dtype is ct.float32
    assert ct.tensor(np.arange(3, dtype=np.float64)).dtype is ct.float64
    assert ct.tensor(np.arange(3, dtype=np.int32)).dtype is ct.int32
    assert ct.tensor(np.float64(2.0)).dtype is ct.float64
    assert ct.tensor([1, 2], dtype=ct.float64).dtype is ct.float64
    assert ct.tensor([1, 2], dtype="uint8").dtype is ct.uint8


def test_tensor_values_and_shape():
    t = ct.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.shape == (2, 3) and isinstance(t.shape, ct.Size) and repr(t.shape) == "ctensor.Size([2, 3])"
    assert t.size() == (2, 3) and t.size(1) == 3 and t.size(-2) == 2
    assert t.ndim == 2 and t.dim() == 2 and t.numel() == 6 and len(t) == 2
    assert t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert t.stride() == (3, 1) and t.is_contiguous()
    assert ct.tensor(3).ndim == 0 and ct.tensor(3).item() == 3 and isinstance(ct.tensor(3).item(), int)
    assert ct.tensor(True).item() is True
    assert ct.tensor([]).shape == (0,)
    with pytest.raises(IndexError):
        t.size(2)
    with pytest.raises(TypeError):
        len(ct.tensor(1.0))


def test_unsupported_inputs():
    with pytest.raises(TypeError):
        ct.tensor(np.zeros(3, dtype=np.uint16))
    with pytest.raises(TypeError):
        ct.tensor(["a", 1])
    with pytest.raises(ValueError):
        ct.tensor([[1, 2], [3]])


def test_creation_functions():
    assert ct.zeros(2, 3).tolist() == [[0.0] * 3] * 2
    assert ct.zeros((2, 3)).shape == (2, 3) and ct.ones([4]).tolist() == [1.0] * 4
    assert ct.empty(3, dtype=ct.int32).dtype is ct.int32
    assert ct.full((2,), 7).dtype is ct.int64 and ct.full((2,), 7.5).tolist() == [7.5, 7.5]
    assert ct.full((1,), True).dtype is ct.bool
    assert ct.arange(5).tolist() == [0, 1, 2, 3, 4] and ct.arange(5).dtype is ct.int64
    assert ct.arange(1, 2, 0.25).tolist() == [1.0, 1.25, 1.5, 1.75]
    assert ct.arange(5, 0, -2).tolist() == [5, 3, 1]
    np.testing.assert_allclose(ct.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5, dtype=np.float32))
    assert ct.eye(2, 3).tolist() == [[1, 0, 0], [0, 1, 0]]
    x = ct.ones(2, 2, dtype=ct.float64)
    assert ct.zeros_like(x).dtype is ct.float64 and ct.ones_like(x, dtype=ct.int32).dtype is ct.int32
    assert ct.full_like(x, 3).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert ct.empty_like(x).shape == (2, 2)
    assert ct.zeros(2, requires_grad=True).requires_grad
    with pytest.raises(ValueError):
        ct.zeros(-1)


def test_random_reproducible_and_in_range():
    ct.manual_seed(7)
    a = ct.rand(1000)
    ct.manual_seed(7)
    b = ct.rand(1000)
    assert ct.equal(a, b)
    v = a.numpy()
    assert v.min() >= 0 and v.max() < 1 and 0.4 < v.mean() < 0.6
    n = ct.randn(20000, dtype=ct.float64).numpy()
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    r = ct.randint(3, 9, (1000,)).numpy()
    assert r.min() == 3 and r.max() == 8 and ct.randint(5, (2, 2)).dtype is ct.int64
    g1, g2 = ct.Generator(11), ct.Generator(11)
    assert ct.equal(ct.rand(5, generator=g1), ct.rand(5, generator=g2))
    assert sorted(ct.randperm(10).tolist()) == list(range(10))


def test_conversions():
    t = ct.tensor([1.7, -2.2])
    assert t.to(ct.int32).tolist() == [1, -2] and t.int().dtype is ct.int32
    assert t.double().dtype is ct.float64 and t.long().dtype is ct.int64 and t.bool().tolist() == [True, True]
    assert t.to("cpu") is t and t.cpu() is t and t.to(ct.float32) is t
    assert t.to(ct.zeros(1, dtype=ct.float64)).dtype is ct.float64
    assert t.to(dtype=ct.float64, copy=True).dtype is ct.float64
    assert float(ct.tensor(2.5)) == 2.5 and int(ct.tensor(7)) == 7
    assert [10, 20, 30][ct.tensor(1)] == 20
    with pytest.raises(RuntimeError):
        bool(ct.tensor([1, 2]))
    assert bool(ct.tensor([0.0])) is False


def test_devices():
    t = ct.tensor([1.0])
    assert t.device == ct.device("cpu") and t.device == "cpu" and str(t.device) == "cpu" and t.is_cpu
    assert repr(ct.device("cuda:1")) == "device(type='cuda', index=1)"
    if not ct.cuda.is_available():
        with pytest.raises(RuntimeError):
            t.cuda()
        with pytest.raises(RuntimeError):
            ct.zeros(2, device="cuda")
    with pytest.raises(RuntimeError):
        ct.device("tpu")


def test_repr():
    r = repr(ct.tensor([[1.0, 2.0]], requires_grad=True))
    assert r.startswith("tensor(") and "requires_grad=True" in r
    assert "1." in r and "2." in r
    assert "dtype=torch" not in repr(ct.tensor([1, 2], dtype=ct.int32))
    assert repr(ct.float32) == "ctensor.float32" and ct.float is ct.float32 and ct.long is ct.int64


def test_version_and_abi():
    assert ct._C.abi_version() == ct._C.ABI_VERSION == 1
    assert ct.__version__.count(".") == 2


def test_tensor_constructor_aliases():
    a = ct.tensor([1.0, 2.0])
    b = ct.Tensor(a)
    assert b._shares_storage(a) and type(b) is ct.Tensor
    assert ct.Tensor([1, 2]).dtype is ct.float32
    assert ct.Tensor(2, 3).shape == (2, 3)
