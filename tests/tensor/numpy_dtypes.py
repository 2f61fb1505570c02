"""The NumPy twin of each torch dtype the tensor tests use (shared by the test modules)."""

import numpy as np

import torch

NP = {
    torch.float32: np.float32,
    torch.float64: np.float64,
    torch.int64: np.int64,
    torch.int32: np.int32,
    torch.int16: np.int16,
    torch.int8: np.int8,
    torch.uint8: np.uint8,
    torch.bool: np.bool_,
}
