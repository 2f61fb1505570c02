"""TH's OpenBLAS runs its AVX-512 kernels where the CPU has them (torch/_openblas.py), unless the user chose."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

if "TORCH_REFERENCE" in os.environ:
    pytest.skip("our OpenBLAS kernel choice (torch/_openblas.py): not upstream's", allow_module_level=True)

from torch import _openblas  # noqa: E402

AVX512 = _openblas.AVX512_FLAGS <= _openblas.cpu_flags()
PROBE = (
    "import os, json, torch; from torch import _openblas; "
    "print(json.dumps([_openblas.corename(), os.environ.get('OPENBLAS_CORETYPE')]))"
)


def _probe(**env_changes):
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    env.update(env_changes)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_prefer_avx512_only_where_the_cpu_has_it_and_the_user_did_not_choose():
    env: dict[str, str] = {}
    assert not _openblas.prefer_avx512(env, flags=frozenset({"avx2", "fma"}))
    assert env == {}
    assert _openblas.prefer_avx512(env, flags=_openblas.AVX512_FLAGS | {"avx2"})
    assert env == {"OPENBLAS_CORETYPE": "SkylakeX"}
    user = {"OPENBLAS_CORETYPE": "Haswell"}
    assert not _openblas.prefer_avx512(user, flags=_openblas.AVX512_FLAGS)
    assert user == {"OPENBLAS_CORETYPE": "Haswell"}


def test_loading_kernels_restores_the_environment():
    env: dict[str, str] = {}
    with _openblas.loading_kernels(env):
        assert env.get("OPENBLAS_CORETYPE") == ("SkylakeX" if AVX512 else None)
    assert env == {}


@pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512")
def test_import_picks_avx512_kernels_and_leaves_no_trace():
    assert _probe() == ["SkylakeX", None]


def test_a_users_choice_is_obeyed():
    assert _probe(OPENBLAS_CORETYPE="Haswell") == ["Haswell", "Haswell"]
