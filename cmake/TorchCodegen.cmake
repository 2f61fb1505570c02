# aten/native_functions.yaml -> tools/codegen -> nanobind binding shards + _C.pyi.
# The generator rewrites a file only when its content changes, and Ninja re-stats the
# outputs, so an unchanged YAML rebuilds nothing and a one-op edit recompiles one shard.
# 32 shards of ~15 bindings: a one-op edit recompiles ~2 s of C++ (8 shards took ~6 s each; the
# shared headers cost ~1 s a shard, so more shards would slow a cold build for little gain).
set(TORCH_CODEGEN_SHARDS 32)
set(TORCH_BINDINGS_DIR "${TORCH_GENERATED_DIR}/bindings")
set(TORCH_CODEGEN_OUTPUTS "${TORCH_BINDINGS_DIR}/register_all.cpp" "${TORCH_PACKAGE_DIR}/_C.pyi")
math(EXPR _last "${TORCH_CODEGEN_SHARDS} - 1")
foreach(i RANGE ${_last})
  list(APPEND TORCH_CODEGEN_OUTPUTS "${TORCH_BINDINGS_DIR}/shard_${i}.cpp")
endforeach()
set(TORCH_CODEGEN_INPUTS
    "${CMAKE_SOURCE_DIR}/aten/native_functions.yaml"
    "${CMAKE_SOURCE_DIR}/tools/codegen/__init__.py"
    "${CMAKE_SOURCE_DIR}/tools/codegen/__main__.py"
    "${CMAKE_SOURCE_DIR}/tools/codegen/model.py"
    "${CMAKE_SOURCE_DIR}/tools/codegen/bindings.py"
    "${CMAKE_SOURCE_DIR}/tools/codegen/stubs.py"
    "${CMAKE_SOURCE_DIR}/tools/writer.py")
add_custom_command(
  OUTPUT ${TORCH_CODEGEN_OUTPUTS}
  COMMAND ${TORCH_PYTHON_TOOL} -m tools.codegen --yaml aten/native_functions.yaml
          --out "${TORCH_BINDINGS_DIR}" --pyi "${TORCH_PACKAGE_DIR}/_C.pyi" --shards ${TORCH_CODEGEN_SHARDS}
  DEPENDS ${TORCH_CODEGEN_INPUTS}
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  COMMENT "Generating torch._C bindings from native_functions.yaml")
add_custom_target(gen_bindings DEPENDS ${TORCH_CODEGEN_OUTPUTS})

# aten/derivatives.yaml -> torch/autograd/_generated.py (backward nodes). Python only: editing a
# formula rebuilds no C++.
set(TORCH_AUTOGRAD_GENERATED "${TORCH_PACKAGE_DIR}/autograd/_generated.py")
add_custom_command(
  OUTPUT "${TORCH_AUTOGRAD_GENERATED}"
  COMMAND ${TORCH_PYTHON_TOOL} -m tools.codegen.autograd --derivatives aten/derivatives.yaml
          --yaml aten/native_functions.yaml --formulas torch/autograd/_formulas.py --out "${TORCH_AUTOGRAD_GENERATED}"
  DEPENDS "${CMAKE_SOURCE_DIR}/aten/derivatives.yaml" "${CMAKE_SOURCE_DIR}/aten/native_functions.yaml"
          "${CMAKE_SOURCE_DIR}/tools/codegen/autograd.py" "${CMAKE_SOURCE_DIR}/tools/codegen/model.py"
          "${CMAKE_SOURCE_DIR}/torch/autograd/_formulas.py" "${CMAKE_SOURCE_DIR}/tools/writer.py"
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  COMMENT "Generating torch/autograd/_generated.py from derivatives.yaml")
add_custom_target(gen_autograd ALL DEPENDS "${TORCH_AUTOGRAD_GENERATED}")
install(FILES "${TORCH_AUTOGRAD_GENERATED}" DESTINATION torch/autograd)
