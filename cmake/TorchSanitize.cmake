# SANITIZE=address,undefined | thread (tools/builder.py checks the value; `nox -s tests-sanitize` runs the
# suites under ASan+UBSan): every C/C++ target of this build (TH, THNN, _C, nanobind) is compiled and linked
# with the sanitizers, like DEBUG a configuration reconfigured in place. CPU only: nvcc cannot instrument
# device code, so tools/builder.py turns CUDA off under SANITIZE. GCC's libgomp is not instrumented: TSan
# does not see an OpenMP region's fork and join and reported every parallel_for as racing with the code
# around it (hundreds of false reports), so a TSan build has no OpenMP (aten/src/TH/CMakeLists.txt).
# A Python process must load the sanitizer's runtime before anything else (LD_PRELOAD): what to preload
# is cached as TORCH_SANITIZER_PRELOAD, and the build step that loads _C (its install check) preloads it.
set(SANITIZE "" CACHE STRING "Sanitizers for every C/C++ target: a comma-separated subset of address, undefined, thread")
set(TORCH_PYTHON_TOOL_SANITIZED ${TORCH_PYTHON_TOOL})
set(TORCH_SANITIZER_PRELOAD "" CACHE INTERNAL "what a Python process must LD_PRELOAD")
if(NOT SANITIZE)
  return()
endif()
string(REPLACE "," ";" _sanitizers "${SANITIZE}")
foreach(_s IN LISTS _sanitizers)
  if(NOT _s MATCHES "^(address|undefined|thread)$")
    message(FATAL_ERROR "SANITIZE=${SANITIZE}: unknown sanitizer '${_s}' (a subset of address, undefined, thread)")
  endif()
endforeach()
if(TORCH_USE_CUDA)
  message(FATAL_ERROR "SANITIZE=${SANITIZE} builds for the CPU only: configure with USE_CUDA=0")
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "SANITIZE is set up for GCC (its runtime libasan/libubsan/libtsan), not ${CMAKE_CXX_COMPILER_ID}")
endif()
# -g1: function and file:line in the reports at a fraction of -g's compile time; frame pointers: full stacks
add_compile_options(-fsanitize=${SANITIZE} -fno-omit-frame-pointer -g1)
# -O1 instead of Release's -O3 (what ASan recommends): instrumented, the biggest kernel file compiles in
# 101 s at -O1 and 224 s at -O3 (TH/cpu/PointwiseKernels.cpp, since split into Unary/BinaryKernels.cpp; ASan+UBSan, 2-core VM)
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  add_compile_options(-O1)
endif()
add_link_options(-fsanitize=${SANITIZE})
if("address" IN_LIST _sanitizers)
  set(_runtime libasan.so)
elseif("thread" IN_LIST _sanitizers)
  set(_runtime libtsan.so)
else()
  set(_runtime libubsan.so)
endif()
# The runtime, then libstdc++: CPython is C, so without it preloaded too the runtime finds no __cxa_throw
# to forward its interceptor to, and the first C++ exception aborts ("real___cxa_throw != 0").
set(_preload "")
foreach(_lib ${_runtime} libstdc++.so)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_lib}
                  OUTPUT_VARIABLE _path OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_path}" OR NOT EXISTS "${_path}")
    message(FATAL_ERROR "SANITIZE=${SANITIZE}: ${CMAKE_CXX_COMPILER} has no ${_lib} (e.g. `apt install "
                        "libasan8 libubsan1 libtsan2`)")
  endif()
  get_filename_component(_path "${_path}" REALPATH)
  list(APPEND _preload "${_path}")
endforeach()
string(REPLACE ";" ":" _preload "${_preload}")
set(TORCH_SANITIZER_PRELOAD "${_preload}" CACHE INTERNAL "what a Python process must LD_PRELOAD")
# the install check imports _C: the runtime first, and no leak report of the interpreter at its exit
list(INSERT TORCH_PYTHON_TOOL_SANITIZED 3 "LD_PRELOAD=${_preload}" "ASAN_OPTIONS=detect_leaks=0")
message(STATUS "Sanitizers: ${SANITIZE} (LD_PRELOAD=${_preload})")
