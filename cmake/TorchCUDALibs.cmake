# cuBLAS/cuBLASLt, cuFFT and cuSOLVER for THC, from NVIDIA's wheels in the build's Python (tools/cuda_libs.py finds
# them; the toolkit on these machines ships neither). Each library found becomes the imported target
# TorchCUDA::<name>: its headers (copied alone into build/deps/) and the definition THC_HAVE_<NAME>. THC
# does not link them: it opens each on first use (THC/LazyLibrary.h: no cost at `import torch`, and THC's
# own kernels if the wheel is gone), through libTHC's runpath (never LD_LIBRARY_PATH): the wheel's lib
# folder in the build tree, $ORIGIN/../../nvidia/cu<major>/lib (torch/lib -> site-packages) once
# installed. A library that is missing leaves THC on its own kernels, and `invoke doctor` names the
# wheel that installs it (then `invoke configure` picks it up).
set(TORCH_CUDA_LIBS "")
set(TORCH_CUDA_LIB_NAMES "")  # for torch.version.build_config()["cuda_libs"]
if(NOT TORCH_USE_CUDA)
  return()
endif()
execute_process(
  COMMAND "${Python_EXECUTABLE}" -m tools.cuda_libs --cuda-major ${CUDAToolkit_VERSION_MAJOR}
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  OUTPUT_VARIABLE _found
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "tools/cuda_libs.py failed (${_rc}) for ${Python_EXECUTABLE}")
endif()
string(REPLACE "\n" ";" _found "${_found}")
set(TORCH_CUDA_LIBS_RPATH "")
foreach(_line IN LISTS _found)
  string(REPLACE "|" ";" _f "${_line}")
  list(GET _f 0 _name)
  list(GET _f 1 _wheel)
  list(GET _f 2 _version)
  list(GET _f 3 _root)
  list(GET _f 4 _headers)
  string(REPLACE "," ";" _headers "${_headers}")
  torch_stable_dir(_include "${_root}/include" "${_wheel}-${_version}-include" FILES ${_headers})
  string(TOUPPER "${_name}" _upper)
  add_library(TorchCUDA::${_name} INTERFACE IMPORTED)
  set_target_properties(TorchCUDA::${_name} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_include}"
    INTERFACE_COMPILE_DEFINITIONS "THC_HAVE_${_upper}")
  list(APPEND TORCH_CUDA_LIBS TorchCUDA::${_name})
  list(APPEND TORCH_CUDA_LIB_NAMES ${_name})
  list(APPEND TORCH_CUDA_LIBS_RPATH "${_root}/lib")
  message(STATUS "CUDA libraries: ${_name} from ${_wheel} ${_version} (${_root}/lib)")
endforeach()
list(REMOVE_DUPLICATES TORCH_CUDA_LIBS_RPATH)
# cusolverDn.h includes cublas_v2.h (the cuSOLVER wheel depends on cuBLAS's, so both are there)
if(TARGET TorchCUDA::cusolver)
  if(TARGET TorchCUDA::cublas)
    set_property(TARGET TorchCUDA::cusolver APPEND PROPERTY INTERFACE_LINK_LIBRARIES TorchCUDA::cublas)
  else()
    message(FATAL_ERROR "nvidia-cusolver is installed without nvidia-cublas (its dependency): reinstall it")
  endif()
endif()
foreach(_name cublas cufft cusolver)
  if(NOT TARGET TorchCUDA::${_name})
    message(STATUS "CUDA libraries: no ${_name} (pip install the `cuda` dependency group): THC's own kernels")
  endif()
endforeach()
