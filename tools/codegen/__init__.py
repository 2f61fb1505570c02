"""The code generator: aten/native_functions.yaml -> torch._C binding shards and _C.pyi, and
aten/derivatives.yaml -> torch/autograd/_generated.py (`python -m tools.codegen`, one process).

model.py parses and validates the YAML, bindings.py writes the nanobind C++ shards, stubs.py the
type stub, autograd.py the backward nodes; memo.py keeps each entry's results between runs (a
one-op edit parses and renders one entry); tools/writer.py writes only files whose content changed.
"""
