// The build ids of _C and of each library it loaded (torch/_loader.py compares them),
// and the build configuration (torch.version / `invoke doctor`).
#include "bind.h"
#include "build_config.h"

extern "C" const char* torch_C_build_info();
extern "C" const char* TH_build_info();
extern "C" const char* THNN_build_info();
#if TORCH_BUILD_USE_CUDA
extern "C" const char* THC_build_info();
extern "C" const char* THCUNN_build_info();
#endif

namespace torch {

void bind_build_info(nb::module_& m) {
  m.def("_build_info", [] {
    nb::dict d;
    d["_C"] = torch_C_build_info();
    d["TH"] = TH_build_info();
    d["THNN"] = THNN_build_info();
#if TORCH_BUILD_USE_CUDA
    d["THC"] = THC_build_info();
    d["THCUNN"] = THCUNN_build_info();
#endif
    return d;
  });
  m.def("_build_config", [] {
    nb::dict d;
    d["build_type"] = TORCH_BUILD_TYPE;
    d["use_cuda"] = bool(TORCH_BUILD_USE_CUDA);
    d["cuda_archs"] = TORCH_BUILD_CUDA_ARCHS;
    d["cuda_libs"] = TORCH_BUILD_CUDA_LIBS;
    d["cxx"] = TORCH_BUILD_CXX;
    d["build_dir"] = TORCH_BUILD_DIR;
    d["include_dir"] = TORCH_BUILD_INCLUDE_DIR;
    d["cxx_compiler"] = TORCH_BUILD_CXX_COMPILER;
    d["cuda_compiler"] = TORCH_BUILD_CUDA_COMPILER;
    return d;
  });
}

}  // namespace torch
