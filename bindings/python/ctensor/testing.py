"""ctensor.testing.assert_close: like torch.testing.assert_close (dtype-based default tolerances, shape and
dtype checks, a message with the mismatch count and the greatest differences)."""
import numpy as np

from . import _C

_TOLERANCES = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def _to_numpy(x):
    if isinstance(x, _C.TensorBase):
        return np.asarray(x.detach().cpu()), x.dtype.name, tuple(x.shape), str(x.device)
    arr = np.asarray(x)
    return arr, None, arr.shape, None


def assert_close(actual, expected, *, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True,
                 msg=None):
    """Raises AssertionError unless |actual - expected| <= atol + rtol * |expected| elementwise."""
    a, a_dtype, a_shape, a_dev = _to_numpy(actual)
    e, e_dtype, e_shape, e_dev = _to_numpy(expected)
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted")
    if a_shape != e_shape:
        raise AssertionError(msg or "The values for attribute 'shape' do not match: %s != %s."
                             % (list(a_shape), list(e_shape)))
    if check_dtype and a_dtype and e_dtype and a_dtype != e_dtype:
        raise AssertionError(msg or "The values for attribute 'dtype' do not match: ctensor.%s != ctensor.%s."
                             % (a_dtype, e_dtype))
    if check_device and a_dev and e_dev and a_dev != e_dev:
        raise AssertionError(msg or "The values for attribute 'device' do not match: %s != %s." % (a_dev, e_dev))
    if rtol is None:
        rtol, atol = _TOLERANCES.get(a_dtype or str(a.dtype), (0.0, 0.0))
    if a.dtype == np.bool_ or e.dtype == np.bool_:
        a, e = a.astype(np.int64), e.astype(np.int64)
    ok = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if ok.all():
        return
    if msg is not None:
        raise AssertionError(msg)
    bad = ~ok
    diff = np.abs(a.astype(np.float64) - e.astype(np.float64))
    rel = diff / np.maximum(np.abs(e.astype(np.float64)), np.finfo(np.float64).tiny)
    flat = int(np.argmax(np.where(bad, diff, -1)))
    kind = "Tensor-likes" if a.ndim else "Scalars"
    raise AssertionError(
        "%s are not close!\n\nMismatched elements: %d / %d (%.1f%%)\nGreatest absolute difference: %s at index %s "
        "(up to %s allowed)\nGreatest relative difference: %s (up to %s allowed)"
        % (kind, bad.sum(), bad.size, 100.0 * bad.sum() / bad.size, diff.flat[flat],
           tuple(int(i) for i in np.unravel_index(flat, a.shape)) if a.ndim else "()", atol,
           np.nanmax(np.where(bad, rel, 0)), rtol))
