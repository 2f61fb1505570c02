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

const CUDAHooks& cuda_hooks() { return *current; }

void set_cuda_hooks(const CUDAHooks* hooks) { current = hooks; }

}  // namespace th
