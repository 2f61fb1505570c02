"""Version and build configuration of this torch."""

__version__ = "0.1.0"


def build_config() -> dict:
    """How torch._C was built: build type, CUDA on/off and archs, the CUDA libraries THC was compiled against
    (cuda_libs: a list, e.g. ['cublas', 'cufft']), compiler, build directory."""
    from torch import _C

    config = dict(_C._build_config())
    config["cuda_libs"] = [name for name in config["cuda_libs"].split(";") if name]
    return config


def __getattr__(name: str):
    if name == "cuda":  # like torch.version.cuda: None for a CPU-only build
        return "13" if build_config()["use_cuda"] else None
    raise AttributeError(name)
