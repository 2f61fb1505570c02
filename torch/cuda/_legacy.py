"""torch.cuda.FloatTensor, torch.cuda.LongTensor ... (PyTorch's legacy CUDA tensor types): calling one makes a
tensor of its dtype on the current GPU (the legacy constructor's forms), `isinstance(t, torch.cuda.FloatTensor)`
asks whether t is a float32 tensor on a GPU, and `t.type(torch.cuda.FloatTensor)` converts to it."""

from __future__ import annotations

from torch._dtypes import BY_LEGACY_TYPE

__all__ = sorted(row.legacy_type for row in BY_LEGACY_TYPE.values() if not row.dtype.is_complex)


class _LegacyCudaTensorType(type):
    """The type of torch.cuda.<Name>Tensor."""

    def __instancecheck__(cls, obj) -> bool:
        from torch._C import Tensor

        return isinstance(obj, Tensor) and obj.dtype == cls.dtype and obj.device.type == "cuda"

    def __call__(cls, *args, device=None):
        import torch
        from torch._refs.creation import _legacy_tensor

        if not torch.cuda.is_available():
            raise TypeError(f"type torch.cuda.{cls.__name__} not available: no CUDA GPU is present")
        return _legacy_tensor(*args, dtype=cls.dtype, device=device if device is not None else "cuda")


TYPES = {
    row.legacy_type: _LegacyCudaTensorType(
        row.legacy_type,
        (),
        {
            "dtype": row.dtype,
            "is_cuda": True,
            "__module__": "torch.cuda",
            "__doc__": f"PyTorch's legacy CUDA {row.legacy_type} type.",
        },
    )
    for row in BY_LEGACY_TYPE.values()
    if not row.dtype.is_complex
}
