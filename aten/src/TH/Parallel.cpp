#include "Parallel.h"

#include <atomic>

#include "Exception.h"

namespace th {
namespace {
#ifdef _OPENMP
std::atomic<int> num_threads{omp_get_max_threads()};  // OMP_NUM_THREADS, else the cores, at load
#else
std::atomic<int> num_threads{1};
#endif
}  // namespace

int get_num_threads() { return num_threads.load(std::memory_order_relaxed); }

void set_num_threads(int n) {
  TH_CHECK(n > 0, "set_num_threads expects a positive integer");
#ifdef _OPENMP
  num_threads.store(n, std::memory_order_relaxed);
#endif
}

}  // namespace th
