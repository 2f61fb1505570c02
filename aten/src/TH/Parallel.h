#pragma once
// Intra-op parallelism (OpenMP when the build has it): split [0, n) into one chunk per thread.
// Bodies must not throw (they run inside an OpenMP region); checks happen before the loops.
#include <algorithm>
#include <cstdint>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace th {

/// Below this many elements an op runs on the calling thread.
constexpr int64_t kGrainSize = 32768;

/// Calls f(begin, end) over chunks of [0, n), in parallel when n > grain.
template <typename F>
void parallel_for(int64_t n, int64_t grain, const F& f) {
#ifdef _OPENMP
  if (n > grain && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel
    {
      const int64_t threads = omp_get_num_threads(), tid = omp_get_thread_num();
      const int64_t chunk = (n + threads - 1) / threads, begin = tid * chunk,
                    end = std::min(n, begin + chunk);
      if (begin < end) f(begin, end);
    }
    return;
  }
#endif
  if (n > 0) f(0, n);
}

/// torch.get_num_threads / set_num_threads.
int get_num_threads();
void set_num_threads(int n);

}  // namespace th
