"""ctensor.testing.assert_close, Parameter/init helpers, ABI check at import, and clean interpreter shutdown
with live capsules, NumPy-backed tensors and custom-function graphs still referenced."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ctensor as ct


def test_assert_close_passes_and_fails_with_details():
    ct.testing.assert_close(ct.tensor([1.0, 2.0]), ct.tensor([1.0, 2.0 + 1e-7]))
    ct.testing.assert_close(ct.tensor([1, 2]), ct.tensor([1, 2]))
    ct.testing.assert_close(ct.tensor([1.0]), np.array([1.0], dtype=np.float32))
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 3"):
        ct.testing.assert_close(ct.tensor([1.0, 2.0, 3.0]), ct.tensor([1.0, 2.5, 3.0]))
    with pytest.raises(AssertionError, match="shape"):
        ct.testing.assert_close(ct.ones(2), ct.ones(3))
    with pytest.raises(AssertionError, match="dtype"):
        ct.testing.assert_close(ct.ones(2), ct.ones(2, dtype=ct.float64))
    ct.testing.assert_close(ct.ones(2), ct.ones(2, dtype=ct.float64), check_dtype=False)
    ct.testing.assert_close(ct.tensor([1.0]), ct.tensor([1.1]), rtol=0.2, atol=0.0)
    with pytest.raises(AssertionError, match="custom"):
        ct.testing.assert_close(ct.tensor([1.0]), ct.tensor([2.0]), msg="custom")


def test_parameter_and_init():
    data = ct.ones(2, 3)
    p = ct.nn.Parameter(data)
    assert isinstance(p, ct.Tensor) and p.requires_grad and p.is_leaf and p._shares_storage(data)
    assert repr(p).startswith("Parameter containing:")
    assert not ct.nn.Parameter(ct.ones(1), requires_grad=False).requires_grad
    assert type(p * 2) is ct.Tensor
    w = ct.nn.Parameter(ct.empty(64, 32))
    ct.nn.init.xavier_uniform_(w)
    bound = (6.0 / 96) ** 0.5
    assert w.abs().max().item() <= bound and w.std().item() > bound / 3
    ct.nn.init.zeros_(w)
    assert w.sum().item() == 0.0 and w.grad_fn is None
    ct.nn.init.constant_(w, 0.5)
    assert w.mean().item() == 0.5


def _run_python(code):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    lines = r.stderr.strip().splitlines()
    if r.returncode and lines and lines[-1].startswith("NotImplementedError"):  # an op family not merged yet
        raise NotImplementedError(lines[-1].partition(": ")[2])
    return r


def test_shutdown_with_live_objects_is_clean():
    r = _run_python("""
        import numpy as np, ctensor as ct
        keep = []
        a = np.ones(5)
        keep.append(ct.from_numpy(a))
        t = ct.ones(3, requires_grad=True)
        keep.append(t.__dlpack__())
        keep.append(t.__dlpack__(max_version=(1, 0)))
        class Sq(ct.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x
            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 2 * x * g
        keep.append(Sq.apply(t).sum())
        keep.append(keep)  # a cycle: freed only by the final collection
        print("ok")
    """)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_extension_reports_abi_and_status_names():
    r = _run_python("""
        import ctensor._C as C
        assert C.ABI_VERSION == C.abi_version()
        print(C.status_name(13))
    """)
    assert r.returncode == 0 and r.stdout.strip() == "CT_ERR_VERSION", r.stderr
