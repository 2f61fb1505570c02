"""torch.optim: optimizers and learning-rate schedulers (PyTorch's API)."""
