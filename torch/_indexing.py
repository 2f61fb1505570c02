"""The name torch/csrc/Indexing.cpp imports for advanced indexing (getitem, setitem); the code is in
torch/_refs/indexing.py."""

from torch._refs.indexing import getitem, setitem

__all__ = ["getitem", "setitem"]
