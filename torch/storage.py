"""torch.storage: the untyped storage class that checkpoints name (upstream's `torch.storage.UntypedStorage`,
under which torch.save writes the dtypes with no typed storage class: uint16/32/64, float8). Only its name and
dtype (the bytes, uint8) are used; storages are not objects here."""

from torch.serialization import STORAGE_CLASSES

UntypedStorage = STORAGE_CLASSES["UntypedStorage"]

__all__ = ["UntypedStorage"]
