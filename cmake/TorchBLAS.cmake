# OpenBLAS for TH's matrix products, from the scipy-openblas32 wheel of the build's Python
# (a PyPI package, so any venv can have it: DESIGN.md §9). Defines OpenBLAS::OpenBLAS and
# TORCH_OPENBLAS_LIB_DIR (the build rpath; installed wheels find it beside torch).
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import scipy_openblas32 as s; print(s.get_include_dir()); print(s.get_lib_dir()); print(s.get_library()); print(s.__version__)"
  OUTPUT_VARIABLE _blas
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _blas_rc
  ERROR_QUIET)
if(NOT _blas_rc EQUAL 0)
  message(FATAL_ERROR "OpenBLAS not found: scipy-openblas32 is not installed for ${Python_EXECUTABLE}. "
                      "Run `${Python_EXECUTABLE} -m pip install scipy-openblas32` (it is in the `build` "
                      "dependency group of pyproject.toml).")
endif()
string(REPLACE "\n" ";" _blas "${_blas}")
list(GET _blas 0 _blas_include)
list(GET _blas 1 TORCH_OPENBLAS_LIB_DIR)
list(GET _blas 2 _blas_name)
list(GET _blas 3 _blas_version)
# the headers from their copy in build/deps/ (cmake/TorchDeps.cmake: the same paths in every build, for ccache)
torch_stable_dir(_blas_include "${_blas_include}" "scipy_openblas32-${_blas_version}-include")
add_library(OpenBLAS::OpenBLAS SHARED IMPORTED)
set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
  IMPORTED_LOCATION "${TORCH_OPENBLAS_LIB_DIR}/lib${_blas_name}.so"
  INTERFACE_INCLUDE_DIRECTORIES "${_blas_include}")
message(STATUS "OpenBLAS: ${TORCH_OPENBLAS_LIB_DIR}/lib${_blas_name}.so")
