"""torch.utils.data: datasets, samplers and the DataLoader (PyTorch's API)."""
