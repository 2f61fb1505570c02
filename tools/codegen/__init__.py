"""The code generator: aten/native_functions.yaml -> torch._C binding shards and _C.pyi.

model.py parses and validates the YAML, bindings.py writes the nanobind C++ shards,
stubs.py the type stub, writer.py writes only files whose content changed.
"""
