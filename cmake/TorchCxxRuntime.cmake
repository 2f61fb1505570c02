# One C++ runtime per process: TH, THNN, THC, THCUNN and _C must all use the shared libstdc++
# that Python itself loads. A g++ that finds only libstdc++.a (a GCC relocated under /opt whose
# -B directory has no libstdc++.so, as on the GPU image we test on) links a private copy into
# each library; two copies of its locale and exception state then crash the first error
# message formatted through an ostream (a segfault in ostream::_M_insert). Detect that and link
# the shared runtime by its full path instead.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                  OUTPUT_VARIABLE _torch_stdcxx_so OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_torch_stdcxx_so}" OR NOT EXISTS "${_torch_stdcxx_so}")
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-multiarch
                    OUTPUT_VARIABLE _torch_multiarch OUTPUT_STRIP_TRAILING_WHITESPACE)
    find_file(TORCH_SHARED_LIBSTDCXX libstdc++.so.6
              PATHS /usr/lib/${_torch_multiarch} /usr/lib64 /usr/lib /lib/${_torch_multiarch} NO_DEFAULT_PATH)
    if(NOT TORCH_SHARED_LIBSTDCXX)
      message(FATAL_ERROR "${CMAKE_CXX_COMPILER} would link libstdc++ statically into every library (it "
                          "finds no libstdc++.so), and two copies of the C++ runtime in one process crash. "
                          "Install the shared libstdc++ (e.g. `apt install libstdc++-13-dev`) or point CXX "
                          "at a complete g++.")
    endif()
    message(STATUS "C++ runtime: ${CMAKE_CXX_COMPILER} has no libstdc++.so; linking ${TORCH_SHARED_LIBSTDCXX}")
    link_libraries(${TORCH_SHARED_LIBSTDCXX})
  endif()
endif()
