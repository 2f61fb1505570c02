# The Python the build is for (tasks.py passes Python_EXECUTABLE) and its nanobind.
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
execute_process(
  COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
  OUTPUT_VARIABLE _nb_dir
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _nb_rc)
if(NOT _nb_rc EQUAL 0)
  message(FATAL_ERROR "nanobind is not installed for ${Python_EXECUTABLE}: "
                      "run `${Python_EXECUTABLE} -m pip install nanobind`")
endif()
# always this interpreter's nanobind, also when the build dir was configured with another one
set(nanobind_DIR "${_nb_dir}" CACHE PATH "nanobind's CMake package (from Python_EXECUTABLE)" FORCE)
find_package(nanobind CONFIG REQUIRED)

# How build steps run the repo's Python tools (codegen, build ids): independent of the
# caller's cwd and of PYTHONSAFEPATH, and caching their bytecode even where
# PYTHONDONTWRITEBYTECODE is set (recompiling them costs ~60 ms per run; __pycache__ is ignored).
# The source dir is prepended to PYTHONPATH, not put in its place: pip's isolated build environment
# reaches its build requirements (PyYAML, for the codegen) through PYTHONPATH.
set(TORCH_PYTHON_TOOL "${CMAKE_COMMAND}" -E env --modify "PYTHONPATH=path_list_prepend:${CMAKE_SOURCE_DIR}"
    --unset=PYTHONDONTWRITEBYTECODE "${Python_EXECUTABLE}")
