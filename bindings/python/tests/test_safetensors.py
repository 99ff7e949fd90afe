"""ctensor.save_file / load_file against the safetensors package (numpy and torch front ends) and torch 1.13:
files move both ways with equal values, dtypes and metadata; state dicts round-trip; bad files raise OSError."""
import numpy as np
import pytest
import torch

import ctensor as ct

safetensors = pytest.importorskip("safetensors")
import safetensors.numpy  # noqa: E402
import safetensors.torch  # noqa: E402

ARRAYS = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
    "f64": np.array([1e300, -1e-300, np.inf, -0.0]),
    "i32": np.array([[-(2**31), 2**31 - 1]], dtype=np.int32),
    "i64": np.array([-(2**63), 2**63 - 1, 9007199254740993], dtype=np.int64),
    "u8": np.array([0, 255, 7], dtype=np.uint8),
    "bool": np.array([[True, False], [False, True]]),
    "scalar": np.array(2.5, dtype=np.float32),
    "empty": np.zeros((0, 3), dtype=np.float32),
}


def test_ctensor_files_load_in_safetensors(tmp_path):
    path = tmp_path / "ct.safetensors"
    tensors = {k: ct.from_numpy(v.copy()) for k, v in ARRAYS.items()}
    tensors["strided"] = ct.from_numpy(ARRAYS["f32"].copy()).t()  # stored row-major
    ct.save_file(tensors, path, metadata={"format": "pt", "who": "ctensor ✓"})
    got = safetensors.numpy.load_file(str(path))
    assert set(got) == set(tensors)
    for k, v in ARRAYS.items():
        assert got[k].dtype == v.dtype and got[k].shape == v.shape, k
        np.testing.assert_array_equal(got[k], v, err_msg=k)
    np.testing.assert_array_equal(got["strided"], ARRAYS["f32"].T)
    with safetensors.safe_open(str(path), framework="np") as f:
        assert f.metadata() == {"format": "pt", "who": "ctensor ✓"}


@pytest.mark.parametrize("mmap", [True, False])
def test_safetensors_files_load_in_ctensor(tmp_path, mmap):
    path = tmp_path / "np.safetensors"
    safetensors.numpy.save_file({k: v for k, v in ARRAYS.items()}, str(path), metadata={"k": "v"})
    got = ct.load_file(path, mmap=mmap)
    assert set(got) == set(ARRAYS)
    for k, v in ARRAYS.items():
        a = got[k].numpy()
        assert a.dtype == v.dtype and a.shape == v.shape, k
        np.testing.assert_array_equal(a, v, err_msg=k)
    assert ct.load_metadata(path) == {"k": "v"}
    w = got["f32"]
    w.mul_(2)  # writable; with mmap the write stays in the private mapping
    np.testing.assert_array_equal(ct.load_file(path)["f32"].numpy(), ARRAYS["f32"])


def test_torch_state_dict_runs_the_same_in_ctensor(tmp_path):
    torch.manual_seed(0)
    tmodel = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.Tanh(), torch.nn.Linear(7, 3)).double()
    path = tmp_path / "torch.safetensors"
    safetensors.torch.save_file(tmodel.state_dict(), str(path))
    model = ct.nn.Sequential(ct.nn.Linear(5, 7), ct.nn.Tanh(), ct.nn.Linear(7, 3)).double()
    model.load_state_dict(ct.load_file(path))
    x = np.random.default_rng(1).standard_normal((4, 5))
    expected = tmodel(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(model(ct.from_numpy(x)).detach().numpy(), expected, rtol=0, atol=1e-12)


def test_ctensor_state_dict_round_trip_and_into_torch(tmp_path):
    ct.manual_seed(3)
    model = ct.nn.Sequential(ct.nn.Linear(4, 6), ct.nn.ReLU(), ct.nn.Linear(6, 2))
    path = tmp_path / "model.safetensors"
    ct.save_file(model.state_dict(), path)
    again = ct.nn.Sequential(ct.nn.Linear(4, 6), ct.nn.ReLU(), ct.nn.Linear(6, 2))
    again.load_state_dict(ct.load_file(path))
    x = ct.randn(3, 4)
    np.testing.assert_array_equal(again(x).detach().numpy(), model(x).detach().numpy())
    tmodel = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 2))
    tmodel.load_state_dict(safetensors.torch.load_file(str(path)))
    np.testing.assert_allclose(tmodel(torch.from_numpy(x.numpy())).detach().numpy(), model(x).detach().numpy(),
                               rtol=1e-6, atol=1e-6)


def test_bad_files_and_arguments_raise(tmp_path):
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}      ")
    with pytest.raises(OSError, match="not valid JSON"):
        ct.load_file(bad)
    bad.write_bytes(b"\xff" * 8)
    with pytest.raises(OSError, match="header claims"):
        ct.load_file(bad)
    with pytest.raises(OSError, match="cannot open"):
        ct.load_file(tmp_path / "missing.safetensors")
    with pytest.raises(TypeError, match="dict of name"):
        ct.save_file([ct.ones(1)], tmp_path / "x.safetensors")
    with pytest.raises(ValueError, match="reserved"):
        ct.save_file({"__metadata__": ct.ones(1)}, tmp_path / "x.safetensors")
    with pytest.raises(TypeError, match="metadata"):
        ct.save_file({"a": ct.ones(1)}, tmp_path / "x.safetensors", metadata={"k": 1})
    half = tmp_path / "half.safetensors"
    safetensors.numpy.save_file({"h": np.ones(2, dtype=np.uint16)}, str(half))
    with pytest.raises(TypeError, match="U16"):
        ct.load_file(half)


@pytest.mark.parametrize("mmap", [True, False])
def test_complex64_is_c64_both_ways(tmp_path, mmap):
    """safetensors' C64 (torch.complex64, interleaved float32 pairs) in both directions; the format has no complex128
    code, so saving one refuses naming the dtype."""
    z = np.array([[1 + 2j, -0.5 + 0.25j], [3e38 - 1j, np.inf + np.nan * 1j]], dtype=np.complex64)
    ours = tmp_path / "ct.safetensors"
    ct.save_file({"z": ct.from_numpy(z.copy()), "strided": ct.from_numpy(z.copy()).t()}, ours)
    got = safetensors.torch.load_file(str(ours))
    assert got["z"].dtype == torch.complex64
    np.testing.assert_array_equal(got["z"].numpy(), z)
    np.testing.assert_array_equal(got["strided"].numpy(), z.T)
    theirs = tmp_path / "torch.safetensors"
    safetensors.torch.save_file({"z": torch.from_numpy(z.copy())}, str(theirs))
    back = ct.load_file(theirs, mmap=mmap)["z"]
    assert back.dtype is ct.complex64
    np.testing.assert_array_equal(back.numpy(), z)
    with pytest.raises(TypeError, match="complex128"):
        ct.save_file({"z": ct.from_numpy(z.astype(np.complex128))}, tmp_path / "c128.safetensors")
