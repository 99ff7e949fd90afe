"""The CPU memory limit from Python: MemoryError naming the op, inputs, graph and .grad intact, recovery."""
import pytest

import ctensor as ct


@pytest.fixture
def no_limit_after():
    yield
    ct.set_cpu_memory_limit(None)


def test_limit_raises_memory_error_and_recovers(no_limit_after):
    a = ct.ones(64, 64)
    stats = ct.cpu_memory_stats()
    assert stats["limit"] is None and stats["allocated"] >= 64 * 64 * 4
    ct.set_cpu_memory_limit(stats["allocated"])  # nothing more may be allocated
    assert ct.cpu_memory_stats()["limit"] == stats["allocated"]
    with pytest.raises(MemoryError, match=r"^add: .*memory limit"):
        a + a
    ct.set_cpu_memory_limit(None)
    assert (a + a).tolist()[63][63] == 2.0


def test_failed_backward_can_run_again(no_limit_after):
    x = ct.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    loss = (x.tanh() * x).exp().sum()
    ct.set_cpu_memory_limit(ct.cpu_memory_stats()["allocated"])
    with pytest.raises(MemoryError):
        loss.backward()
    assert x.grad is None
    ct.set_cpu_memory_limit(None)
    loss.backward()  # the graph was kept: no "backward through the graph a second time"
    expected = ct.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (expected.tanh() * expected).exp().sum().backward()
    assert x.grad.tolist() == expected.grad.tolist()


def test_bad_limit_is_refused():
    with pytest.raises(ValueError, match="set_cpu_memory_limit"):
        ct.set_cpu_memory_limit(-5)
