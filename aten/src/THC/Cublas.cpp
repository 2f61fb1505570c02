#include "Cublas.h"

#ifdef THC_HAVE_CUBLAS
#include <TH/Exception.h>
#include <TH/Functions.h>

#include <map>
#include <mutex>
#include <utility>

#include "Exception.h"
#include "Stream.h"
#include "VendorHandle.h"

namespace thc {

LazyLibrary& cublas() {
  static LazyLibrary lib(THC_SONAME("libcublas.so.", CUBLAS_VER_MAJOR), "nvidia-cublas");
  return lib;
}

void cublas_check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  static auto* name = cublas().function<decltype(cublasGetStatusName)>("cublasGetStatusName");
  static auto* what = cublas().function<decltype(cublasGetStatusString)>("cublasGetStatusString");
  throw th::Error(
      th::detail::str("CUDA error: ", name(status), " when calling `", call, "` (", what(status), ")"));
}

namespace {

cublasHandle_t cublas_handle() {
  return thread_device_handle<cublasHandle_t>([] {
    static auto* create = cublas().function<decltype(cublasCreate_v2)>("cublasCreate_v2");
    cublasHandle_t h = nullptr;
    cublas_check(create(&h), "cublasCreate");
    return h;
  });
}

/// cuBLAS's workspace for `stream` on the current device, taken from the caching allocator on that stream
/// and kept: each stream has its own, so that gemms on two streams never share one.
void* cublas_workspace(cudaStream_t stream, size_t& bytes) {
  int device = 0;
  THC_CHECK(cudaGetDevice(&device));
  static std::mutex mutex;
  static auto* spaces = new std::map<std::pair<int, cudaStream_t>, th::Tensor>();  // never freed
  std::lock_guard<std::mutex> lock(mutex);
  th::Tensor& t = (*spaces)[{device, stream}];
  if (!t.defined()) {  // the first call on this stream: size it for the device
    int major = 0;
    THC_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    const int64_t size = major >= 9 ? (int64_t(32) << 20) : (int64_t(8) << 20);
    t = th::empty_tensor({size}, th::ScalarType::Byte, th::Device(th::DeviceType::CUDA, device));
  }
  bytes = size_t(t.numel());
  return t.data_ptr();
}

}  // namespace

cublasHandle_t cublas_handle_on_stream() {
  cublasHandle_t handle = cublas_handle();
  const cudaStream_t stream = current_stream();
  static auto* set_stream = cublas().function<decltype(cublasSetStream_v2)>("cublasSetStream_v2");
  static auto* set_workspace = cublas().function<decltype(cublasSetWorkspace_v2)>("cublasSetWorkspace_v2");
  cublas_check(set_stream(handle, stream), "cublasSetStream");  // resets the workspace: set it after
  size_t bytes = 0;
  void* space = cublas_workspace(stream, bytes);
  cublas_check(set_workspace(handle, space, bytes), "cublasSetWorkspace");
  return handle;
}

}  // namespace thc
#endif
