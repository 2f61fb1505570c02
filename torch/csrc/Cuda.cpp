// torch.cuda's view of the CUDA backend, through TH's hooks (no link-time dependency).
#include <TH/CUDAHooks.h>

#include "bind.h"

namespace torch {

void bind_cuda(nb::module_& m) {
  m.def("_cuda_is_compiled", [] { return th::cuda_hooks().compiled(); });
  m.def("_cuda_device_count", [] { return th::cuda_hooks().device_count(); });
  m.def("_cuda_synchronize", [](int device) { th::cuda_hooks().synchronize(device); }, "device"_a);
  m.def("_cuda_empty_cache", [] { th::cuda_hooks().empty_cache(); });
  m.def(
      "_cuda_memory_stats",
      [](int device) {
        const th::CUDAMemoryStats s = th::cuda_hooks().memory_stats(device);
        nb::dict d;
        d["allocated"] = s.allocated;
        d["allocated_peak"] = s.allocated_peak;
        d["reserved"] = s.reserved;
        d["reserved_peak"] = s.reserved_peak;
        d["allocations"] = s.allocations;
        d["frees"] = s.frees;
        d["alloc_retries"] = s.alloc_retries;
        d["ooms"] = s.ooms;
        return d;
      },
      "device"_a, "The caching allocator's figures for `device` (bytes and counts).");
  m.def(
      "_cuda_reset_peak_memory_stats", [](int device) { th::cuda_hooks().reset_peak_memory_stats(device); },
      "device"_a);
  m.def("_cuda_current_device", [] { return th::cuda_hooks().current_device(); });
  m.def(
      "_cuda_device_properties",
      [](int device) {
        const th::CUDADeviceProperties p = th::cuda_hooks().device_properties(device);
        return nb::make_tuple(p.name, p.major, p.minor, p.total_memory, p.multi_processor_count,
                              p.l2_cache_size);
      },
      "device"_a);
  m.def(
      "_cufft_plan_cache_size", [](int device) { return th::cuda_hooks().fft_plan_cache(device).first; },
      "device"_a);
  m.def(
      "_cufft_plan_cache_max_size", [](int device) { return th::cuda_hooks().fft_plan_cache(device).second; },
      "device"_a);
  m.def(
      "_cufft_set_plan_cache_max_size",
      [](int device, int64_t max_size) { th::cuda_hooks().set_fft_plan_cache_max_size(device, max_size); },
      "device"_a, "max_size"_a);
  m.def(
      "_cuda_library_available",
      [](const std::string& name) { return th::cuda_hooks().library_available(name); }, "name"_a,
      "Whether this build has the CUDA library `name` (cublas, cufft) and it loads.");
  m.def(
      "_cufft_clear_plan_cache", [](int device) { th::cuda_hooks().clear_fft_plan_cache(device); },
      "device"_a);
}

}  // namespace torch
