# aten/native_functions.yaml -> tools/codegen -> nanobind binding shards + _C.pyi.
# The generator rewrites a file only when its content changes, and Ninja re-stats the
# outputs, so an unchanged YAML rebuilds nothing and a one-op edit recompiles one shard.
# 32 shards of ~15 bindings: a one-op edit recompiles ~2 s of C++ (8 shards took ~6 s each; the
# shared headers cost ~1 s a shard, so more shards would slow a cold build for little gain).
set(TORCH_CODEGEN_SHARDS 32)
set(TORCH_BINDINGS_DIR "${TORCH_GENERATED_DIR}/bindings")
# The generator keeps its parsed and rendered entries here between runs (tools/codegen/memo.py):
# a one-op edit parses and renders that op alone. A cache, not an output: deleting it is harmless.
set(TORCH_CODEGEN_MEMO_DIR "${TORCH_GENERATED_DIR}/codegen-memo")
set(TORCH_CODEGEN_OUTPUTS "${TORCH_BINDINGS_DIR}/register_all.cpp" "${TORCH_PACKAGE_DIR}/_C.pyi")
math(EXPR _last "${TORCH_CODEGEN_SHARDS} - 1")
foreach(i RANGE ${_last})
  list(APPEND TORCH_CODEGEN_OUTPUTS "${TORCH_BINDINGS_DIR}/shard_${i}.cpp")
endforeach()
# aten/derivatives.yaml -> torch/autograd/_generated.py (backward nodes), by the same process: it has
# the ops parsed already. Python only: editing a formula rebuilds no C++ (restat: no shard changes).
set(TORCH_AUTOGRAD_GENERATED "${TORCH_PACKAGE_DIR}/autograd/_generated.py")
set(TORCH_CODEGEN_INPUTS
    "${CMAKE_SOURCE_DIR}/aten/native_functions.yaml"
    "${CMAKE_SOURCE_DIR}/aten/derivatives.yaml"
    "${CMAKE_SOURCE_DIR}/torch/autograd/_formulas.py"
    "${CMAKE_SOURCE_DIR}/tools/writer.py")
foreach(src __init__ __main__ autograd bindings memo model stubs)  # not a CONFIGURE_DEPENDS glob: that
  list(APPEND TORCH_CODEGEN_INPUTS "${CMAKE_SOURCE_DIR}/tools/codegen/${src}.py")  # re-globs every build
endforeach()
add_custom_command(
  OUTPUT ${TORCH_CODEGEN_OUTPUTS} "${TORCH_AUTOGRAD_GENERATED}"
  COMMAND ${TORCH_PYTHON_TOOL} -m tools.codegen --yaml aten/native_functions.yaml
          --out "${TORCH_BINDINGS_DIR}" --pyi "${TORCH_PACKAGE_DIR}/_C.pyi" --shards ${TORCH_CODEGEN_SHARDS}
          --derivatives aten/derivatives.yaml --formulas torch/autograd/_formulas.py
          --autograd-out "${TORCH_AUTOGRAD_GENERATED}" --memo "${TORCH_CODEGEN_MEMO_DIR}/codegen.marshal"
  DEPENDS ${TORCH_CODEGEN_INPUTS}
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  COMMENT "Generating torch._C bindings and autograd nodes from native_functions.yaml, derivatives.yaml")
add_custom_target(gen_bindings DEPENDS ${TORCH_CODEGEN_OUTPUTS})
add_custom_target(gen_autograd ALL DEPENDS "${TORCH_AUTOGRAD_GENERATED}")
install(FILES "${TORCH_AUTOGRAD_GENERATED}" DESTINATION torch/autograd)
