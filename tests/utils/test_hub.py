"""torch.hub and torch.utils.model_zoo: the cache directory, hubconf repos (local, and GitHub ones already in
the cache), downloads from file:// URLs with their hash checks, checkpoints from URLs. Nothing reaches the
network: GitHub's side is a urlopen that raises URLError. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import builtins
import hashlib
import os
import sys
import zipfile
from urllib.error import URLError

import pytest

import torch
import torch.hub as hub
import torch.utils.model_zoo as model_zoo

HUBCONF = '''
dependencies = ["torch", "json"]

import torch


def _helper():
    return 0


def echo(*args, **kwargs):
    return args, kwargs


def tiny(n=2, scale=1):
    """A tiny entrypoint: a tensor of n times scale."""
    return torch.full((n,), float(scale))
'''


@pytest.fixture(autouse=True)
def hub_home(tmp_path, monkeypatch):
    """A fresh, empty hub cache under tmp_path for every test (set_dir's global is restored afterwards)."""
    for var in ("TORCH_HUB", "TORCH_MODEL_ZOO", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(hub, "_hub_dir", None)
    return tmp_path / "home" / "hub"


@pytest.fixture
def no_network(monkeypatch):
    def urlopen(*args, **kwargs):
        raise URLError("no network in tests")

    monkeypatch.setattr(hub, "urlopen", urlopen)


def write_repo(path, hubconf=HUBCONF):
    path.mkdir(parents=True)
    (path / "hubconf.py").write_text(hubconf)
    return path


def saved_state(tmp_path, name="weights.pth"):
    state = {"weight": torch.arange(6.0).reshape(2, 3), "bias": torch.zeros(3)}
    path = tmp_path / name
    torch.save(state, path)
    return state, path


def assert_state_equal(got, want):
    assert sorted(got) == sorted(want)
    for k in want:
        assert torch.equal(got[k], want[k]) and got[k].device.type == "cpu"


def test_public_names_and_constants():
    assert sorted(hub.__all__) == sorted(
        ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir"]
    )
    constants = dict(ENV_TORCH_HOME="TORCH_HOME", ENV_XDG_CACHE_HOME="XDG_CACHE_HOME", ENV_GITHUB_TOKEN="GITHUB_TOKEN")
    constants.update(DEFAULT_CACHE_DIR="~/.cache", VAR_DEPENDENCY="dependencies")
    assert {name: getattr(hub, name) for name in constants} == constants
    assert hub.MODULE_HUBCONF == "hubconf.py"
    assert hub.READ_DATA_CHUNK == 128 * 1024
    assert hub.HASH_REGEX.search("resnet18-bfd8deac.pth").group(1) == "bfd8deac"
    assert model_zoo.load_url is hub.load_state_dict_from_url and model_zoo.tqdm is hub.tqdm


def test_get_dir_env_vars_and_set_dir(tmp_path, monkeypatch, hub_home):
    assert hub.get_dir() == str(hub_home)
    monkeypatch.delenv("TORCH_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hub.get_dir() == os.path.join(str(tmp_path / "xdg"), "torch", "hub")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert hub.get_dir() == os.path.join(str(tmp_path / "user"), ".cache", "torch", "hub")
    hub.set_dir(tmp_path / "mine")
    assert hub.get_dir() == str(tmp_path / "mine")
    hub.set_dir("~/other")
    assert hub.get_dir() == os.path.join(str(tmp_path / "user"), "other")
    monkeypatch.setenv("TORCH_HUB", "/somewhere")
    with pytest.warns(UserWarning, match="TORCH_HUB is deprecated"):
        hub.get_dir()


def test_load_local_with_args_and_kwargs(tmp_path):
    repo = write_repo(tmp_path / "repo")
    out = hub.load(str(repo), "tiny", 3, source="local", scale=2)
    assert torch.equal(out, torch.full((3,), 2.0))
    assert torch.equal(hub.load(str(repo), "tiny", source="LOCAL"), torch.ones(2))
    assert hub.load(str(repo), "echo", 1, "a", source="local", key=None) == ((1, "a"), {"key": None})
    assert str(repo) not in sys.path  # taken off again


def test_load_local_errors(tmp_path):
    repo = write_repo(tmp_path / "repo")
    with pytest.raises(RuntimeError, match="Cannot find callable nope in hubconf"):
        hub.load(str(repo), "nope", source="local")
    with pytest.raises(RuntimeError, match="Cannot find callable dependencies in hubconf"):
        hub.load(str(repo), "dependencies", source="local")
    with pytest.raises(ValueError, match="model should be a string of function name"):
        hub.load(str(repo), 3, source="local")
    with pytest.raises(ValueError, match='Unknown source: "pypi". Allowed values: "github" | "local".'):
        hub.load(str(repo), "tiny", source="pypi")
    missing = write_repo(tmp_path / "missing", HUBCONF.replace('"json"]', '"json", "no_such_mod_a", "no_such_mod_b"]'))
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_mod_a, no_such_mod_b"):
        hub.load(str(missing), "tiny", source="local")


def test_github_repo_from_cache_list_help_load(hub_home, no_network, capsys):
    write_repo(hub_home / "someone_repo_main")  # a cached download: trusted (legacy rule), never re-fetched
    assert hub.list("someone/repo:main") == ["echo", "tiny"]
    assert "Using cache found in" in capsys.readouterr().err
    assert hub.list("someone/repo:main", verbose=False) == ["echo", "tiny"]
    assert capsys.readouterr().err == ""
    assert hub.help("someone/repo:main", "tiny") == "A tiny entrypoint: a tensor of n times scale."
    assert torch.equal(hub.load("someone/repo:main", "tiny", 1, scale=5), torch.full((1,), 5.0))
    # no ref and no network: the cached main (or master) branch is used
    assert torch.equal(hub.load("someone/repo", "tiny"), torch.ones(2))
    with pytest.raises(RuntimeError, match="Cannot find callable missing in hubconf"):
        hub.help("someone/repo:main", "missing")


def test_github_without_network_raises(hub_home, no_network):
    with pytest.raises(RuntimeError, match="no internet connection and the repo could not be found in the cache"):
        hub.load("someone/absent", "tiny", trust_repo=True)
    with pytest.raises(URLError):  # validation (GitHub's API) cannot be reached
        hub.list("someone/absent:main", trust_repo=True)
    with pytest.raises(URLError):  # the zipball download itself
        hub.load("someone/absent:v1", "tiny", trust_repo=True, skip_validation=True)
    assert sorted(os.listdir(hub_home)) == ["trusted_list"]  # no partial download left
    assert (hub_home / "trusted_list").read_text() == "someone_absent\n"


def test_trust_repo_prompt(hub_home, no_network, monkeypatch):
    answers = iter(["n", "what", "y"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    with pytest.raises(Exception, match="Untrusted repository."):
        hub.load("stranger/repo:main", "tiny", trust_repo="check")
    with pytest.raises(ValueError, match="Unrecognized response what."):
        hub.load("stranger/repo:main", "tiny", trust_repo=False)
    with pytest.raises(URLError):
        hub.load("stranger/repo:main", "tiny", trust_repo="check")  # trusted now; then the download fails
    assert (hub_home / "trusted_list").read_text() == "stranger_repo\n"
    with pytest.raises(URLError):  # trusted owners are never asked
        hub.load("pytorch/vision:main", "tiny")


def test_download_url_to_file_and_hash_prefix(tmp_path, capsys):
    src = tmp_path / "blob.bin"
    data = os.urandom(300_000)  # more than one READ_DATA_CHUNK
    src.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    out = tmp_path / "out"
    out.mkdir()
    hub.download_url_to_file(src.as_uri(), str(out / "a.bin"), progress=False)
    assert (out / "a.bin").read_bytes() == data and capsys.readouterr().err == ""
    hub.download_url_to_file(src.as_uri(), str(out / "b.bin"), hash_prefix=digest[:10])
    assert (out / "b.bin").read_bytes() == data and capsys.readouterr().err != ""  # the progress bar
    wrong = "0" * 8 if not digest.startswith("0" * 8) else "f" * 8
    with pytest.raises(RuntimeError, match=f'invalid hash value \\(expected "{wrong}", got "{digest}"\\)'):
        hub.download_url_to_file(src.as_uri(), str(out / "c.bin"), hash_prefix=wrong, progress=False)
    assert sorted(os.listdir(out)) == ["a.bin", "b.bin"]
    with pytest.raises(URLError):
        hub.download_url_to_file((tmp_path / "absent").as_uri(), str(out / "d.bin"), progress=False)
    assert sorted(os.listdir(out)) == ["a.bin", "b.bin"]


def test_load_state_dict_from_url_caches(tmp_path, hub_home, capsys):
    state, src = saved_state(tmp_path)
    got = hub.load_state_dict_from_url(src.as_uri(), progress=False)
    assert_state_equal(got, state)
    cached = hub_home / "checkpoints" / "weights.pth"
    assert cached.is_file() and "Downloading:" in capsys.readouterr().out
    src.unlink()  # the second call reads the cache
    assert_state_equal(hub.load_state_dict_from_url(src.as_uri(), map_location="cpu", weights_only=True), state)
    assert "Downloading:" not in capsys.readouterr().out
    assert_state_equal(hub.load_state_dict_from_url(src.as_uri(), map_location={"cpu": "cpu"}), state)


def test_load_state_dict_from_url_check_hash_file_name_model_dir(tmp_path):
    state, src = saved_state(tmp_path)
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    good = src.rename(tmp_path / f"weights-{digest[:12]}.pth")
    model_dir = tmp_path / "models"
    got = hub.load_state_dict_from_url(good.as_uri(), model_dir=str(model_dir), check_hash=True, progress=False)
    assert_state_equal(got, state)
    assert (model_dir / good.name).is_file()
    bad = tmp_path / "weights-0123abcd.pth"
    bad.write_bytes(good.read_bytes())
    if not digest.startswith("0123abcd"):
        with pytest.raises(RuntimeError, match="invalid hash value"):
            hub.load_state_dict_from_url(bad.as_uri(), model_dir=str(model_dir), check_hash=True, progress=False)
        assert not (model_dir / bad.name).exists()
    # without check_hash the name is not checked; file_name= names the cached file
    got = hub.load_state_dict_from_url(bad.as_uri(), model_dir=str(model_dir), file_name="renamed.pt", progress=False)
    assert_state_equal(got, state)
    assert (model_dir / "renamed.pt").is_file()


def test_legacy_zip_and_model_zoo(tmp_path, hub_home, monkeypatch):
    state, src = saved_state(tmp_path, "inner.pth")
    archive = tmp_path / "legacy.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(src, "inner.pth")
    with pytest.warns(FutureWarning, match="Falling back to the old format < 1.6"):
        got = model_zoo.load_url(archive.as_uri(), progress=False)
    assert_state_equal(got, state)
    assert (hub_home / "checkpoints" / "inner.pth").is_file()  # extracted beside the archive
    monkeypatch.setenv("TORCH_MODEL_ZOO", "/old")
    with pytest.warns(UserWarning, match="TORCH_MODEL_ZOO is deprecated"):
        got = model_zoo.load_url(src.as_uri(), model_dir=str(tmp_path / "zoo"), progress=False)
    assert_state_equal(got, state)
