# torch_add_library(NAME SOURCES ... [DEPS ...]): a shared backend library in
# <package>/lib that carries a build id.
#
# The id of a library is a hash of the build configuration and of its public headers
# (and those of the libraries it depends on). It changes exactly when code compiled
# against those headers must be rebuilt, so editing a .cpp never changes it, while a
# header edit followed by `rebuild-lib` of one library makes torch refuse to import the
# stale rest (DESIGN.md contract 5). tools/build_id.py writes the id into a tiny
# generated source, only when it changed, with a depfile listing the headers it hashed.
set(TORCH_BUILD_CONFIG "${CMAKE_BUILD_TYPE},cuda=${TORCH_USE_CUDA},${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION}")
if(SANITIZE)
  string(APPEND TORCH_BUILD_CONFIG ",sanitize=${SANITIZE}")
endif()

# torch_build_id_source(<out-var> <symbol-prefix> <LIB>...): generated source defining
# `extern "C" const char* <prefix>_build_info()` = "LIB=hash;..." for the given libraries.
function(torch_build_id_source out_var prefix)
  set(out "${TORCH_GENERATED_DIR}/build_id/${prefix}.cpp")
  set(dirs "")
  foreach(lib IN LISTS ARGN)
    list(APPEND dirs "${lib}=${CMAKE_SOURCE_DIR}/aten/src/${lib}")
  endforeach()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${TORCH_PYTHON_TOOL} -m tools.build_id --prefix ${prefix}
            --config "${TORCH_BUILD_CONFIG}" --out "${out}" --depfile "${out}.d" ${dirs}
    DEPENDS "${CMAKE_SOURCE_DIR}/tools/build_id.py" "${CMAKE_SOURCE_DIR}/tools/writer.py"
    DEPFILE "${out}.d"
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "Build id of ${prefix}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(torch_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  torch_build_id_source(id_src ${name} ${name} ${ARG_DEPS})
  add_library(${name} SHARED ${ARG_SOURCES} "${id_src}")
  target_include_directories(${name} PUBLIC "${CMAKE_SOURCE_DIR}/aten/src")
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  # -fno-trapping-math / -fno-math-errno: nobody reads FP exception flags or errno from a tensor op,
  # and without them GCC keeps branches and libm calls that stop the CPU loops from vectorizing
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -fno-trapping-math -fno-math-errno>)
  # every symbol resolved at link time: a kernel family that is declared but never instantiated
  # (an `extern template` in a dispatching .cu, see THC/Reduce.cuh) fails the build, not the import
  target_link_options(${name} PRIVATE "LINKER:--no-undefined")
  set_target_properties(${name} PROPERTIES BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN")
  install(TARGETS ${name} LIBRARY DESTINATION torch/lib)
endfunction()
