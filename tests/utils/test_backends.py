"""torch.backends' switches and availability queries (upstream's API): what training scripts set
(`cudnn.benchmark = True`, `cudnn.deterministic = True`) reads back, `flags()` restores, frozen flags refuse a
bare assignment, and torch.__config__ describes the build. Runs against upstream PyTorch too (TORCH_REFERENCE),
where the libraries this torch lacks (oneDNN, MKL, OpenMP) may be present."""

from __future__ import annotations

import os

import pytest

import torch

REFERENCE = "TORCH_REFERENCE" in os.environ


@pytest.fixture
def cudnn_state():
    c = torch.backends.cudnn
    saved = (c.enabled, c.benchmark, c.deterministic, c.allow_tf32)
    yield c
    c.enabled, c.benchmark, c.deterministic, c.allow_tf32 = saved


def test_cudnn_defaults_and_assignment(cudnn_state):
    c = cudnn_state
    assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (True, False, False, True)
    c.benchmark = True
    c.deterministic = True
    assert c.benchmark is True and c.deterministic is True
    assert c.is_available() is False and c.version() is None  # no cuDNN in either CPU build
    assert not c.is_acceptable(torch.ones(2))


def test_cudnn_flags_restore_after_the_block_and_on_error(cudnn_state):
    c = cudnn_state
    c.benchmark = True
    with c.flags(enabled=False, deterministic=True):
        assert (c.enabled, c.benchmark, c.deterministic) == (False, False, True)
    assert (c.enabled, c.benchmark, c.deterministic) == (True, True, False)
    with pytest.raises(KeyError):
        with c.flags(enabled=False):
            raise KeyError("inside the block")
    assert c.enabled is True


def test_import_forms_give_the_same_module():
    import torch.backends.cudnn as cudnn
    from torch.backends import cudnn as cudnn2

    assert cudnn is cudnn2 is torch.backends.cudnn


def test_availability_queries_are_booleans():
    for mod in (
        torch.backends.mkldnn,
        torch.backends.mkl,
        torch.backends.openmp,
        torch.backends.mps,
        torch.backends.nnpack,
        torch.backends.opt_einsum,
    ):
        assert isinstance(mod.is_available(), bool), mod
    assert torch.backends.mps.is_built() in (True, False)
    if not REFERENCE:
        assert not torch.backends.mkldnn.is_available() and not torch.backends.mkl.is_available()
    with torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON):
        pass
    with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
        pass


def test_mkldnn_and_nnpack_flags_restore():
    k = torch.backends.mkldnn
    before = k.enabled
    with k.flags(enabled=False):
        assert k.enabled is False
    assert k.enabled is before
    with torch.backends.nnpack.flags(enabled=False):
        pass


def test_opt_einsum_without_the_package():
    oe = torch.backends.opt_einsum
    if oe.is_available():
        pytest.skip("opt_einsum is installed")
    assert oe.enabled is False and oe.strategy is None and oe.get_opt_einsum() is None
    with pytest.raises(ValueError, match="opt_einsum is not available"):
        oe.set_flags(True)
    with pytest.raises(ValueError, match="opt_einsum is not available"):
        oe.set_flags(None, "greedy")
    with oe.flags():
        assert oe.enabled is False


def test_mha_fastpath_switch():
    m = torch.backends.mha
    assert m.get_fastpath_enabled() is True
    m.set_fastpath_enabled(False)
    try:
        assert m.get_fastpath_enabled() is False
    finally:
        m.set_fastpath_enabled(True)


def test_disable_global_flags_freezes_bare_assignment(cudnn_state):
    """What PyTorch's own test suite does: a switch then changes only inside flags()."""
    import torch.backends as b

    c = cudnn_state
    assert not b.flags_frozen()
    b.disable_global_flags()
    try:
        assert b.flags_frozen()
        with pytest.raises(RuntimeError, match="not allowed to set torch.backends.cudnn flags"):
            c.benchmark = True
        with c.flags(enabled=True, benchmark=True):
            assert c.benchmark is True
        assert c.benchmark is False
    finally:
        if REFERENCE:  # upstream keeps the switch as a global of the module behind torch.backends
            b.m.__dict__["__allow_nonbracketed_mutation_flag"] = True
        else:
            from torch.backends import _flags

            _flags._allow_nonbracketed_mutation[0] = True
    assert not b.flags_frozen()


def test_config_show_and_parallel_info():
    show = torch.__config__.show()
    assert show.startswith("PyTorch built with:")
    info = torch.__config__.parallel_info()
    assert f"at::get_num_threads() : {torch.get_num_threads()}" in info
