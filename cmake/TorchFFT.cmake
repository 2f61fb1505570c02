# ducc0's FFT (the successor of pocketfft, which NumPy and SciPy use) for torch.fft on the CPU: its sources
# from the ducc0 sdist on PyPI, fetched once into build/deps/ (cmake/TorchDeps.cmake), compiled into the
# object library ducc0_fft that TH links. Without it (no network on a first configure) TH builds without
# the FFT, and the torch.fft functions raise an error that says so (TORCH_HAVE_DUCC0).
set(TORCH_DUCC0_VERSION 0.42.0)
torch_fetched_dir(_ducc0
  "https://files.pythonhosted.org/packages/d0/28/e2b293b1744a63dd61465fdefe1b15d1d9bdbf6ff72fca4cb2f629084a14/ducc0-${TORCH_DUCC0_VERSION}.tar.gz"
  4e11c59b53a43355b053aebb2a62ee16eebeed026575f7d216cf09d437ce52ef
  "ducc0-${TORCH_DUCC0_VERSION}")
if(_ducc0)
  set(TORCH_DUCC0_INCLUDE "${_ducc0}/src")
  set(TORCH_DUCC0_SOURCES
    "${TORCH_DUCC0_INCLUDE}/ducc0/fft/fft_inst1.cc" "${TORCH_DUCC0_INCLUDE}/ducc0/fft/fft_inst2.cc"
    "${TORCH_DUCC0_INCLUDE}/ducc0/infra/threading.cc" "${TORCH_DUCC0_INCLUDE}/ducc0/infra/mav.cc"
    "${TORCH_DUCC0_INCLUDE}/ducc0/infra/string_utils.cc")
  add_library(ducc0_fft OBJECT ${TORCH_DUCC0_SOURCES})
  target_include_directories(ducc0_fft SYSTEM PUBLIC "${TORCH_DUCC0_INCLUDE}")
  target_compile_options(ducc0_fft PRIVATE -O3 -w)
  target_compile_definitions(ducc0_fft PUBLIC TORCH_HAVE_DUCC0)
  set_target_properties(ducc0_fft PROPERTIES POSITION_INDEPENDENT_CODE ON)
  message(STATUS "FFT: ducc0 ${TORCH_DUCC0_VERSION} (${_ducc0})")
else()
  message(WARNING "FFT: ducc0 is not available; torch.fft will raise on the CPU")
endif()
