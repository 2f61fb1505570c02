# Knobs with PyTorch's names, and where outputs go.
set(USE_CUDA "auto" CACHE STRING "Build THC/THCUNN: auto (if nvcc is found), 1, or 0")
option(DEBUG "Debug build (-O0 -g)" OFF)
option(REL_WITH_DEB_INFO "Optimized build with debug info" OFF)
if(SKBUILD)  # a wheel build stages the package in its build dir; install() rules fill the wheel
  set(_pkg "${CMAKE_BINARY_DIR}/torch")
else()
  set(_pkg "${CMAKE_SOURCE_DIR}/torch")
endif()
set(TORCH_PACKAGE_DIR "${_pkg}" CACHE PATH
    "Package directory that receives _C and lib/ (the source tree in develop mode)")

if(DEBUG)
  set(CMAKE_BUILD_TYPE Debug CACHE STRING "" FORCE)
elseif(REL_WITH_DEB_INFO)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "" FORCE)
else()
  set(CMAKE_BUILD_TYPE Release CACHE STRING "" FORCE)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# Libraries in <package>/lib, _C in <package>; all found through $ORIGIN rpaths, and
# _C is not relinked when only a library it links changed (contract 4).
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY "${TORCH_PACKAGE_DIR}/lib")
set(CMAKE_BUILD_RPATH_USE_ORIGIN ON)
set(CMAKE_LINK_DEPENDS_NO_SHARED ON)

set(TORCH_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")
