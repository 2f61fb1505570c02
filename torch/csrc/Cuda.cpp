// torch.cuda's view of the CUDA backend, through TH's hooks (no link-time dependency).
#include <TH/CUDAHooks.h>
#include <TH/Tensor.h>

#include "bind.h"

namespace torch {

void bind_cuda_streams(nb::module_& m);

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
      "Whether this build has the CUDA library `name` (cublas, cufft, cusolver) and it loads.");
  m.def(
      "_cufft_clear_plan_cache", [](int device) { th::cuda_hooks().clear_fft_plan_cache(device); },
      "device"_a);
  m.def("_cuda_set_device", [](int device) { th::cuda_hooks().set_device(device); }, "device"_a);
  bind_cuda_streams(m);
}

/// torch.cuda.Stream/Event and pinned memory (torch/cuda/streams.py holds the classes): streams and
/// events cross as integers (their CUDA handles), 0 being the default stream.
void bind_cuda_streams(nb::module_& m) {
  m.def(
      "_cuda_current_stream", [](int device) { return th::cuda_hooks().current_stream(device); }, "device"_a);
  m.def(
      "_cuda_set_stream",
      [](int device, int64_t stream) { th::cuda_hooks().set_current_stream(device, stream); }, "device"_a,
      "stream"_a);
  m.def(
      "_cuda_new_stream",
      [](int device, int priority) { return th::cuda_hooks().new_stream(device, priority); }, "device"_a,
      "priority"_a);
  m.def(
      "_cuda_stream_query", [](int device, int64_t s) { return th::cuda_hooks().stream_query(device, s); },
      "device"_a, "stream"_a);
  m.def(
      "_cuda_stream_synchronize",
      [](int device, int64_t s) {
        nb::gil_scoped_release unlocked;  // other Python threads run while this one waits
        th::cuda_hooks().stream_synchronize(device, s);
      },
      "device"_a, "stream"_a);
  m.def(
      "_cuda_stream_priority",
      [](int device, int64_t s) { return th::cuda_hooks().stream_priority(device, s); }, "device"_a,
      "stream"_a);
  m.def(
      "_cuda_stream_priority_range",
      [](int device) {
        const auto [least, greatest] = th::cuda_hooks().stream_priority_range(device);
        return nb::make_tuple(least, greatest);
      },
      "device"_a);
  m.def(
      "_cuda_record_stream",
      [](const th::Tensor& t, int64_t stream) {
        th::cuda_hooks().record_stream(t.storage()->data(), stream);
      },
      "tensor"_a, "stream"_a);
  m.def(
      "_cuda_event_create",
      [](int device, bool timing, bool blocking, bool interprocess) {
        return th::cuda_hooks().event_create(device, timing, blocking, interprocess);
      },
      "device"_a, "enable_timing"_a, "blocking"_a, "interprocess"_a);
  m.def(
      "_cuda_event_destroy", [](int device, int64_t e) { th::cuda_hooks().event_destroy(device, e); },
      "device"_a, "event"_a);
  m.def(
      "_cuda_event_record",
      [](int device, int64_t e, int64_t s) { th::cuda_hooks().event_record(device, e, s); }, "device"_a,
      "event"_a, "stream"_a);
  m.def(
      "_cuda_event_query", [](int device, int64_t e) { return th::cuda_hooks().event_query(device, e); },
      "device"_a, "event"_a);
  m.def(
      "_cuda_event_synchronize",
      [](int device, int64_t e) {
        nb::gil_scoped_release unlocked;
        th::cuda_hooks().event_synchronize(device, e);
      },
      "device"_a, "event"_a);
  m.def(
      "_cuda_event_elapsed_time",
      [](int device, int64_t a, int64_t b) { return th::cuda_hooks().event_elapsed_time(device, a, b); },
      "device"_a, "start"_a, "end"_a);
  m.def(
      "_cuda_stream_wait_event",
      [](int device, int64_t s, int64_t e) { th::cuda_hooks().stream_wait_event(device, s, e); }, "device"_a,
      "stream"_a, "event"_a);
  m.def(
      "_empty_pinned",
      [](const std::vector<int64_t>& sizes, th::ScalarType dtype) { return th::empty_pinned(sizes, dtype); },
      "size"_a, "dtype"_a, "A new CPU tensor in pinned (page-locked) memory.");
  m.def("_is_pinned", [](const th::Tensor& t) { return th::is_pinned(t); }, "tensor"_a);
}

}  // namespace torch
