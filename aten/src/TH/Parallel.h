#pragma once
// Intra-op parallelism (OpenMP when the build has it): split [0, n) into one chunk per thread.
// A body may throw (a kernel's checked math, e.g. ZeroDivisionError): the first exception of any
// chunk is caught inside the OpenMP region and rethrown on the calling thread once all are done.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace th {

namespace detail {
/// Keeps the first exception thrown by any thread of a parallel region, to rethrow after it.
class FirstException {
 public:
  template <typename F>
  void run(const F& f) noexcept {
    try {
      f();
    } catch (...) {
      if (!taken_.exchange(true)) error_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic<bool> taken_{false};
  std::exception_ptr error_;
};
}  // namespace detail

/// Below this many elements an op runs on the calling thread.
constexpr int64_t kGrainSize = 32768;

/// torch.get_num_threads / set_num_threads: one count for the whole process, as in PyTorch
/// (OpenMP's own setting is per calling thread: a Python thread started later would not see it).
int get_num_threads();
void set_num_threads(int n);

/// Calls f(begin, end) over chunks of [0, n), in parallel when n > grain.
template <typename F>
void parallel_for(int64_t n, int64_t grain, const F& f) {
#ifdef _OPENMP
  const int threads = get_num_threads();
  if (n > grain && threads > 1 && !omp_in_parallel()) {
    detail::FirstException error;
#pragma omp parallel num_threads(threads)
    {
      const int64_t threads = omp_get_num_threads(), tid = omp_get_thread_num();
      const int64_t chunk = (n + threads - 1) / threads, begin = tid * chunk,
                    end = std::min(n, begin + chunk);
      if (begin < end) error.run([&] { f(begin, end); });
    }
    error.rethrow();
    return;
  }
#endif
  if (n > 0) f(0, n);
}

/// Reduces [0, n) in parallel chunks: each chunk gives f(begin, end), the partials are folded
/// in chunk order with combine (deterministic for a given thread count).
template <typename Acc, typename F, typename C>
Acc parallel_reduce(int64_t n, int64_t grain, Acc init, const F& f, const C& combine) {
#ifdef _OPENMP
  const int64_t threads =
      omp_in_parallel() ? 1 : std::min<int64_t>(get_num_threads(), (n + grain - 1) / grain);
  if (threads > 1) {
    Acc partial[64];
    const int64_t nt = std::min<int64_t>(threads, 64), chunk = (n + nt - 1) / nt;
    detail::FirstException error;
#pragma omp parallel for num_threads(static_cast<int>(nt)) schedule(static, 1)
    for (int64_t t = 0; t < nt; ++t) {
      const int64_t begin = t * chunk, end = std::min(n, begin + chunk);
      partial[t] = init;
      if (begin < end) error.run([&] { partial[t] = f(begin, end); });
    }
    error.rethrow();
    Acc total = init;
    for (int64_t t = 0; t < nt; ++t) total = combine(total, partial[t]);
    return total;
  }
#endif
  return n > 0 ? combine(init, f(0, n)) : init;
}

}  // namespace th
