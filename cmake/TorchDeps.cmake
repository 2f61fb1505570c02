# Third-party files that compile commands name (nanobind's headers and sources, OpenBLAS's headers), copied
# once per version into build/deps/ of the checkout, and used from there. Their paths are then the same for
# every build dir, nox session and `pip wheel` (whose isolated environment is a new temporary folder each
# time): with base_dir at the checkout, ccache sees the same relative paths and hits across all of them,
# where the packages' own paths made each new environment a cold cache.
set(TORCH_DEPS_DIR "${CMAKE_SOURCE_DIR}/build/deps")

# torch_stable_dir(<out-var> <source dir> <name-with-version> [FILES <relative path>...]): the copy of
# <source dir> (or of the named files in it only) under build/deps/<name-with-version>, made if missing
# (atomically: a concurrent or killed configure leaves nothing half-copied behind).
function(torch_stable_dir out src name)
  cmake_parse_arguments(ARG "" "" "FILES" ${ARGN})
  set(dest "${TORCH_DEPS_DIR}/${name}")
  if(NOT EXISTS "${dest}/.complete")
    string(RANDOM LENGTH 8 _tag)
    set(tmp "${dest}.tmp-${_tag}")
    if(ARG_FILES)
      foreach(f IN LISTS ARG_FILES)
        get_filename_component(_sub "${f}" DIRECTORY)
        file(COPY "${src}/${f}" DESTINATION "${tmp}/${_sub}")
      endforeach()
    else()
      file(COPY "${src}/" DESTINATION "${tmp}" PATTERN "__pycache__" EXCLUDE)
    endif()
    file(WRITE "${tmp}/.complete" "copied from ${src}\n")
    file(REMOVE_RECURSE "${dest}")
    file(RENAME "${tmp}" "${dest}" RESULT _renamed)
    if(NOT _renamed EQUAL 0)  # another configure got there first: its copy is the same
      file(REMOVE_RECURSE "${tmp}")
    endif()
  endif()
  set(${out} "${dest}" PARENT_SCOPE)
endfunction()

# torch_fetched_dir(<out-var> <url> <sha256> <name-with-version>): the archive at <url> (checked against
# <sha256>) unpacked under build/deps/<name-with-version>, downloaded and unpacked once (atomically, as
# torch_stable_dir); <out-var> is empty when it cannot be downloaded (no network), and the reason is shown.
function(torch_fetched_dir out url sha256 name)
  set(dest "${TORCH_DEPS_DIR}/${name}")
  if(NOT EXISTS "${dest}/.complete")
    set(archive "${TORCH_DEPS_DIR}/${name}.tar.gz")
    file(DOWNLOAD "${url}" "${archive}" EXPECTED_HASH SHA256=${sha256} STATUS _status TLS_VERIFY ON)
    list(GET _status 0 _code)
    if(NOT _code EQUAL 0)
      list(GET _status 1 _why)
      message(WARNING "${name}: could not download ${url} (${_why})")
      file(REMOVE "${archive}")
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    string(RANDOM LENGTH 8 _tag)
    set(tmp "${dest}.tmp-${_tag}")
    file(ARCHIVE_EXTRACT INPUT "${archive}" DESTINATION "${tmp}")
    file(GLOB _top LIST_DIRECTORIES true "${tmp}/*")  # the archive's one top-level folder
    file(WRITE "${_top}/.complete" "unpacked from ${url}\n")
    file(REMOVE_RECURSE "${dest}")
    file(RENAME "${_top}" "${dest}" RESULT _renamed)
    file(REMOVE_RECURSE "${tmp}")
  endif()
  set(${out} "${dest}" PARENT_SCOPE)
endfunction()
