"""parallel_apply (PyTorch's torch.nn.parallel.parallel_apply): calls each module on its inputs in a thread of
its own (with its device current and the caller's grad mode), and re-raises a thread's exception in the caller
with the thread's traceback."""

from __future__ import annotations

import threading
import traceback

__all__ = ["parallel_apply"]


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None) -> list:
    """[modules[i](*inputs[i], **kwargs_tup[i])] computed in parallel threads (one thread for one module)."""
    import torch

    if len(modules) != len(inputs):
        raise AssertionError(f"The number of modules {len(modules)} is not equal to the number of inputs {len(inputs)}")
    kwargs_tup = tuple(kwargs_tup) if kwargs_tup is not None else ({},) * len(modules)
    devices = list(devices) if devices is not None else [None] * len(modules)
    grad_enabled = torch.is_grad_enabled()
    results: dict[int, object] = {}

    def worker(i, module, input, kwargs, device):
        try:
            with torch.set_grad_enabled(grad_enabled):
                if device is not None and torch.cuda.is_available():
                    index = device.index if isinstance(device, torch.device) else int(device)
                    with torch.cuda.device(index):
                        out = module(*_as_tuple(input), **kwargs)
                else:
                    out = module(*_as_tuple(input), **kwargs)
            results[i] = out
        except Exception as e:  # noqa: BLE001  (re-raised in the caller below)
            results[i] = _ExceptionWrapper(e, f"in replica {i} on device {device}")

    if len(modules) == 1:
        worker(0, modules[0], inputs[0], kwargs_tup[0], devices[0])
    else:
        threads = [
            threading.Thread(target=worker, args=(i, m, x, k, d))
            for i, (m, x, k, d) in enumerate(zip(modules, inputs, kwargs_tup, devices))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    outputs = []
    for i in range(len(inputs)):
        out = results[i]
        if isinstance(out, _ExceptionWrapper):
            out.reraise()
        outputs.append(out)
    return outputs


def _as_tuple(x):
    return x if isinstance(x, (list, tuple)) else (x,)


class _ExceptionWrapper:
    """An exception caught in a thread, re-raised in the caller with the thread's traceback in its message."""

    def __init__(self, exc: BaseException, where: str) -> None:
        self.exc_type = type(exc)
        self.exc = exc
        self.msg = f"Caught {type(exc).__name__} {where}.\nOriginal {''.join(traceback.format_exception(exc))}"

    def reraise(self):
        try:
            error = self.exc_type(self.msg)
        except Exception:  # noqa: BLE001  (an exception type whose constructor takes other arguments)
            raise RuntimeError(self.msg) from self.exc
        raise error from self.exc
