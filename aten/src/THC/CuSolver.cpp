#include "CuSolver.h"

#include "LazyLibrary.h"

#ifdef THC_HAVE_CUSOLVER
#include <TH/Exception.h>

#include "Exception.h"
#include "Stream.h"
#include "VendorHandle.h"

namespace thc {

LazyLibrary& cusolver() {
  static LazyLibrary lib(THC_SONAME("libcusolver.so.", CUSOLVER_VER_MAJOR), "nvidia-cusolver");
  return lib;
}

namespace {

/// cuSOLVER has no cusolverGetStatusName: its enum's names, for messages.
const char* status_name(cusolverStatus_t status) {
  switch (status) {
#define THC_CUSOLVER_STATUS(name) \
  case name: return #name;
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_NOT_INITIALIZED)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_ALLOC_FAILED)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_INVALID_VALUE)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_ARCH_MISMATCH)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_EXECUTION_FAILED)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_INTERNAL_ERROR)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_NOT_SUPPORTED)
    THC_CUSOLVER_STATUS(CUSOLVER_STATUS_INVALID_WORKSPACE)
#undef THC_CUSOLVER_STATUS
    default: return "CUSOLVER_STATUS_UNKNOWN";
  }
}

cusolverDnHandle_t cusolver_handle() {
  return thread_device_handle<cusolverDnHandle_t>([] {
    static auto* create = cusolver().function<decltype(cusolverDnCreate)>("cusolverDnCreate");
    cusolverDnHandle_t h = nullptr;
    cusolver_check(create(&h), "cusolverDnCreate");
    return h;
  });
}

}  // namespace

void cusolver_check(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  throw th::Error(th::detail::str("cuSOLVER error: ", status_name(status), " (", int(status),
                                  ") when calling `", call, "`"));
}

cusolverDnHandle_t cusolver_handle_on_stream() {
  cusolverDnHandle_t handle = cusolver_handle();
  static auto* set_stream = cusolver().function<decltype(cusolverDnSetStream)>("cusolverDnSetStream");
  cusolver_check(set_stream(handle, current_stream()), "cusolverDnSetStream");
  return handle;
}

}  // namespace thc
#endif

bool thc::cusolver_available() {
#ifdef THC_HAVE_CUSOLVER
  return cusolver().available();
#else
  return false;
#endif
}
