# Third-party files that compile commands name (nanobind's headers and sources, OpenBLAS's headers), copied
# once per version into build/deps/ of the checkout, and used from there. Their paths are then the same for
# every build dir, nox session and `pip wheel` (whose isolated environment is a new temporary folder each
# time): with base_dir at the checkout, ccache sees the same relative paths and hits across all of them,
# where the packages' own paths made each new environment a cold cache.
set(TORCH_DEPS_DIR "${CMAKE_SOURCE_DIR}/build/deps")

# torch_stable_dir(<out-var> <source dir> <name-with-version>): the copy of <source dir> under
# build/deps/<name-with-version>, made if missing (atomically: a concurrent or killed configure leaves
# nothing half-copied behind).
function(torch_stable_dir out src name)
  set(dest "${TORCH_DEPS_DIR}/${name}")
  if(NOT EXISTS "${dest}/.complete")
    string(RANDOM LENGTH 8 _tag)
    set(tmp "${dest}.tmp-${_tag}")
    file(COPY "${src}/" DESTINATION "${tmp}" PATTERN "__pycache__" EXCLUDE)
    file(WRITE "${tmp}/.complete" "copied from ${src}\n")
    file(REMOVE_RECURSE "${dest}")
    file(RENAME "${tmp}" "${dest}" RESULT _renamed)
    if(NOT _renamed EQUAL 0)  # another configure got there first: its copy is the same
      file(REMOVE_RECURSE "${tmp}")
    endif()
  endif()
  set(${out} "${dest}" PARENT_SCOPE)
endfunction()
