"""The composites behind torch.nn.functional, one file per family (torch/nn/functional.py re-exports them).

Each function keeps PyTorch's signature and input checks; its body composes existing torch ops so autograd
and CUDA come for free, until a THNN/THCUNN kernel replaces it.
"""
