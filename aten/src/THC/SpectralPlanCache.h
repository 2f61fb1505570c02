#pragma once
// The cuFFT plan cache of THC/SpectralKernels.cu, for torch.backends.cuda.cufft_plan_cache (through the
// CUDA hooks). Without cuFFT in the build there are no plans: size and max_size read 0.
#include <cstdint>

namespace thc {

/// PyTorch's default cuFFT plan cache size (CUFFT_MAX_PLAN_NUM).
constexpr int64_t kDefaultPlanCacheMaxSize = 4096;

struct PlanCacheInfo {
  int64_t size, max_size;
};
/// How many plans `device`'s cache holds, and the most it keeps.
PlanCacheInfo plan_cache_info(int device);
/// Sets the most plans `device` keeps (the least recently used go first).
void set_plan_cache_max_size(int device, int64_t max_size);
/// Destroys `device`'s cached plans.
void clear_plan_cache(int device);

}  // namespace thc
