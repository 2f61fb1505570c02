"""torch._dynamo.exc: the exception types that code around torch.compile catches."""

from __future__ import annotations

__all__ = ["TorchDynamoException", "InvalidBackend", "Unsupported", "BackendCompilerFailed"]


class TorchDynamoException(RuntimeError):
    """The base of torch.compile's errors."""


class InvalidBackend(TorchDynamoException):
    """torch.compile was given a backend name that no backend has."""

    def __init__(self, name) -> None:
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for available backends.")


class Unsupported(TorchDynamoException):
    """What torch.compile cannot do (here: a custom backend, which needs an FX graph)."""


class BackendCompilerFailed(TorchDynamoException):
    """A backend raised while compiling."""
