"""torch.utils.model_zoo (PyTorch's): `load_url` is torch.hub.load_state_dict_from_url; torchvision imports
tqdm from here."""

from torch.hub import load_state_dict_from_url as load_url
from torch.hub import tqdm

__all__ = ["load_url", "tqdm"]
