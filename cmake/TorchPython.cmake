# The Python the build is for (tasks.py passes Python_EXECUTABLE) and its nanobind.
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c "import nanobind, os; print(os.path.dirname(nanobind.__file__)); print(nanobind.__version__)"
  OUTPUT_VARIABLE _nb
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _nb_rc
  ERROR_QUIET)
if(NOT _nb_rc EQUAL 0)
  message(FATAL_ERROR "nanobind is not installed for ${Python_EXECUTABLE}: "
                      "run `${Python_EXECUTABLE} -m pip install nanobind`")
endif()
string(REPLACE "\n" ";" _nb "${_nb}")
list(GET _nb 0 _nb_pkg)
list(GET _nb 1 _nb_version)
# always this interpreter's nanobind (also when the build dir was configured with another one), used from its
# copy in build/deps/ (cmake/TorchDeps.cmake: the same paths in every build, so ccache hits across them)
torch_stable_dir(_nb_root "${_nb_pkg}" "nanobind-${_nb_version}")
set(nanobind_DIR "${_nb_root}/cmake" CACHE PATH "nanobind's CMake package (from Python_EXECUTABLE)" FORCE)
find_package(nanobind CONFIG REQUIRED)

# How build steps run the repo's Python tools (codegen, build ids): independent of the
# caller's cwd and of PYTHONSAFEPATH, and caching their bytecode even where
# PYTHONDONTWRITEBYTECODE is set (recompiling them costs ~60 ms per run; __pycache__ is ignored).
# The source dir is prepended to PYTHONPATH, not put in its place: pip's isolated build environment
# reaches its build requirements (PyYAML, for the codegen) through PYTHONPATH.
set(TORCH_PYTHON_TOOL "${CMAKE_COMMAND}" -E env --modify "PYTHONPATH=path_list_prepend:${CMAKE_SOURCE_DIR}"
    --unset=PYTHONDONTWRITEBYTECODE "${Python_EXECUTABLE}")
