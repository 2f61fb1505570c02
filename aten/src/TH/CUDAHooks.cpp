#include "CUDAHooks.h"

#include "Exception.h"

namespace th {
namespace {
const CUDAHooks default_hooks;
const CUDAHooks* current = &default_hooks;
}  // namespace

namespace {
[[noreturn]] void no_cuda() {
  throw Error("Torch not compiled with CUDA enabled (configure with USE_CUDA=1 and run `invoke develop`)");
}
}  // namespace

void CUDAHooks::synchronize(int) const { no_cuda(); }
CUDADeviceProperties CUDAHooks::device_properties(int) const { no_cuda(); }
int CUDAHooks::current_device() const { no_cuda(); }
std::pair<int64_t, int64_t> CUDAHooks::fft_plan_cache(int) const { no_cuda(); }
void CUDAHooks::set_fft_plan_cache_max_size(int, int64_t) const { no_cuda(); }
void CUDAHooks::clear_fft_plan_cache(int) const { no_cuda(); }
void CUDAHooks::set_device(int) const { no_cuda(); }
int64_t CUDAHooks::current_stream(int) const { no_cuda(); }
void CUDAHooks::set_current_stream(int, int64_t) const { no_cuda(); }
int64_t CUDAHooks::new_stream(int, int) const { no_cuda(); }
bool CUDAHooks::stream_query(int, int64_t) const { no_cuda(); }
void CUDAHooks::stream_synchronize(int, int64_t) const { no_cuda(); }
int CUDAHooks::stream_priority(int, int64_t) const { no_cuda(); }
std::pair<int, int> CUDAHooks::stream_priority_range(int) const { no_cuda(); }
void CUDAHooks::record_stream(void*, int64_t) const { no_cuda(); }
int64_t CUDAHooks::event_create(int, bool, bool, bool) const { no_cuda(); }
void CUDAHooks::event_destroy(int, int64_t) const { no_cuda(); }
void CUDAHooks::event_record(int, int64_t, int64_t) const { no_cuda(); }
bool CUDAHooks::event_query(int, int64_t) const { no_cuda(); }
void CUDAHooks::event_synchronize(int, int64_t) const { no_cuda(); }
double CUDAHooks::event_elapsed_time(int, int64_t, int64_t) const { no_cuda(); }
void CUDAHooks::stream_wait_event(int, int64_t, int64_t) const { no_cuda(); }

const CUDAHooks& cuda_hooks() { return *current; }

void set_cuda_hooks(const CUDAHooks* hooks) { current = hooks; }

}  // namespace th
