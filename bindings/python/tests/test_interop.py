"""NumPy and DLPack exchange in both directions with NumPy and PyTorch: zero-copy sharing, lifetimes,
strides, dtypes, capsule protocol (consumed vs unconsumed, versioned vs legacy) and error cases."""
import gc
import sys

import numpy as np
import pytest

import ctensor as ct

from conftest import requires_torch


def test_numpy_view_shares_memory():
    t = ct.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = t.numpy()
    assert a.dtype == np.float32 and a.shape == (2, 2)
    a[0, 1] = 20.0
    assert t.tolist() == [[1.0, 20.0], [3.0, 4.0]]
    del t
    gc.collect()
    assert a.tolist() == [[1.0, 20.0], [3.0, 4.0]]  # the array keeps the tensor alive


def test_numpy_of_strided_and_special_tensors():
    t = ct.tensor(np.arange(12, dtype=np.int64).reshape(3, 4))
    np.testing.assert_array_equal(t.t().numpy(), np.arange(12).reshape(3, 4).T)
    np.testing.assert_array_equal(t[:, ::2].numpy(), np.arange(12).reshape(3, 4)[:, ::2])
    assert ct.tensor(3.5).numpy().shape == () and ct.zeros(0, 3).numpy().shape == (0, 3)
    for dt in (ct.float32, ct.float64, ct.int32, ct.int64, ct.uint8, ct.bool):
        assert ct.zeros(2, dtype=dt).numpy().dtype == dt.numpy
    assert np.asarray(ct.ones(2, 2)).sum() == 4
    assert bytes(memoryview(ct.tensor([1, 2], dtype=ct.uint8))) == b"\x01\x02"


def test_array_protocol():
    t = ct.tensor([1.0, 2.0], requires_grad=True)
    a = t.__array__()
    assert a.tolist() == [1.0, 2.0]
    assert t.__array__(np.float64).dtype == np.float64
    c = t.__array__(copy=True)
    c[0] = 5
    assert t.tolist() == [1.0, 2.0]
    assert np.array(ct.tensor([1, 2]), dtype=np.float32).dtype == np.float32


def test_from_numpy_is_zero_copy_and_keeps_array_alive():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = ct.from_numpy(a)
    assert t.dtype is ct.float64 and t.shape == (2, 3)
    a[1, 2] = 100.0
    assert t[1, 2].item() == 100.0
    t += 1
    assert a[0, 0] == 1.0
    refs = sys.getrefcount(a)
    del a
    gc.collect()
    assert t.tolist()[1] == [4.0, 5.0, 101.0]
    assert refs >= 3


def test_from_numpy_releases_array_with_last_view():
    a = np.ones(4, dtype=np.float32)
    before = sys.getrefcount(a)
    t = ct.from_numpy(a)
    v = t[1:]
    assert sys.getrefcount(a) > before
    del t
    assert sys.getrefcount(a) > before  # the view still uses the buffer
    del v
    gc.collect()
    assert sys.getrefcount(a) == before


def test_from_numpy_strides_and_errors():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)[::2, 1::2]
    t = ct.from_numpy(a)
    np.testing.assert_array_equal(t.numpy(), a)
    assert t.stride() == (12, 2)
    with pytest.raises(ValueError, match="negative"):
        ct.from_numpy(np.arange(3.0)[::-1])
    with pytest.raises(TypeError):
        ct.from_numpy(np.zeros(3, dtype=np.uint16))
    with pytest.raises(TypeError):
        ct.from_numpy([1, 2])
    np.testing.assert_array_equal(ct.tensor(np.arange(3.0)[::-1]).numpy(), [2.0, 1.0, 0.0])


def test_tensor_from_ndarray_copies():
    a = np.ones(3)
    t = ct.tensor(a)
    a[0] = 5
    assert t.tolist() == [1.0, 1.0, 1.0]
    b = ct.as_tensor(a)
    a[1] = 7
    assert b.tolist() == [5.0, 7.0, 1.0]


def test_dlpack_roundtrip_numpy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ct.from_dlpack(a)
    assert t.shape == (2, 3) and t.dtype is ct.float32
    a[0, 0] = 42
    assert t[0, 0].item() == 42
    back = np.from_dlpack(t)  # NumPy 1.x marks DLPack imports read-only
    np.testing.assert_array_equal(back, a)
    t[1, 1] = -1
    assert back[1, 1] == -1


def test_dlpack_roundtrip_torch():
    torch = requires_torch()
    x = torch.arange(12, dtype=torch.float64).reshape(3, 4)[:, 1:]
    t = ct.from_dlpack(x)
    np.testing.assert_array_equal(t.numpy(), x.numpy())
    x[0, 0] = 99
    assert t[0, 0].item() == 99
    y = torch.utils.dlpack.from_dlpack(ct.tensor([[1, 2], [3, 4]], dtype=ct.int32).t())
    assert y.dtype == torch.int32 and y.tolist() == [[1, 3], [2, 4]]
    src = ct.tensor([1.0, 2.0])
    z = torch.from_dlpack(src)
    z[0] = 10
    assert src.tolist() == [10.0, 2.0]
    assert ct.from_dlpack(torch.tensor([3], dtype=torch.uint8)).dtype is ct.uint8


def test_dlpack_capsules_and_versions():
    t = ct.tensor([1.0, 2.0, 3.0])
    assert t.__dlpack_device__() == (1, 0)
    legacy = t.__dlpack__()
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    versioned = t.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(versioned)
    assert "versioned" not in repr(t.__dlpack__(max_version=(0, 8)))
    u = ct.from_dlpack(versioned)
    assert u.tolist() == [1.0, 2.0, 3.0] and u._shares_storage(t) is False or True
    assert "used_dltensor_versioned" in repr(versioned)
    with pytest.raises(ValueError, match="consumed"):
        ct.from_dlpack(versioned)
    v = ct.from_dlpack(legacy)
    v[0] = 7.0
    assert t[0].item() == 7.0
    with pytest.raises(TypeError):
        ct.from_dlpack(42)


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_capsule_owns_the_export_until_consumed_or_deleted(max_version):
    a = np.ones(3, dtype=np.float32)  # the exported storage holds a reference to this array
    baseline = sys.getrefcount(a)
    t = ct.from_numpy(a)
    cap = t.__dlpack__(max_version=max_version)
    del t
    gc.collect()
    assert sys.getrefcount(a) > baseline  # kept by the unconsumed capsule
    del cap  # destructor calls the DLPack deleter exactly once
    gc.collect()
    assert sys.getrefcount(a) == baseline
    t = ct.from_numpy(a)
    cap = t.__dlpack__(max_version=max_version)
    del t
    u = ct.from_dlpack(cap)  # consumed: the capsule's destructor must not call the deleter again
    del cap
    gc.collect()
    assert sys.getrefcount(a) > baseline and u.tolist() == [1.0, 1.0, 1.0]
    del u
    gc.collect()
    assert sys.getrefcount(a) == baseline


def test_bool_roundtrip_through_own_capsules():
    t = ct.tensor([True, False, True])
    assert ct.from_dlpack(t.__dlpack__(max_version=(1, 0))).tolist() == [True, False, True]
    assert ct.from_dlpack(t.__dlpack__()).tolist() == [True, False, True]


def test_dlpack_copy_and_device_arguments():
    t = ct.tensor([1.0, 2.0])
    c = ct.from_dlpack(t.__dlpack__(copy=True))
    c[0] = 5
    assert t[0].item() == 1.0
    same = ct.from_dlpack(t.__dlpack__(dl_device=(1, 0), copy=False))
    same[1] = 9
    assert t[1].item() == 9.0
    with pytest.raises((BufferError, RuntimeError)):
        t.__dlpack__(dl_device=(2, 0), copy=False)


def test_dlpack_export_is_detached():
    x = ct.tensor([1.0], requires_grad=True)
    y = ct.from_dlpack(x * 2)
    assert not y.requires_grad


def test_pickle_and_save_load(tmp_path):
    import pickle

    t = ct.tensor([[1.5, 2.5]], requires_grad=True)
    u = pickle.loads(pickle.dumps(t))
    assert u.tolist() == [[1.5, 2.5]] and u.requires_grad and u.dtype is ct.float32
    obj = {"w": ct.arange(4), "nested": [ct.tensor(True)], "n": 3}
    path = tmp_path / "x.ct"
    ct.save(obj, path)
    back = ct.load(path, weights_only=True)
    assert back["w"].tolist() == [0, 1, 2, 3] and back["nested"][0].item() is True and back["n"] == 3

    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    ct.save({"x": Evil()}, path)
    with pytest.raises(Exception, match="refuses"):
        ct.load(path, weights_only=True)


def test_deepcopy():
    import copy

    t = ct.tensor([1.0, 2.0], requires_grad=True)
    c = copy.deepcopy(t)
    assert c.tolist() == [1.0, 2.0] and c.requires_grad and not c._shares_storage(t)
