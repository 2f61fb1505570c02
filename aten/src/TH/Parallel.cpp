#include "Parallel.h"

#include "Exception.h"

namespace th {

int get_num_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void set_num_threads(int n) {
  TH_CHECK(n > 0, "set_num_threads expects a positive integer");
#ifdef _OPENMP
  omp_set_num_threads(n);
#endif
}

}  // namespace th
