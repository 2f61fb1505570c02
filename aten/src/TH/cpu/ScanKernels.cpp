// CPU kernel of the scans (cumsum / cumprod): lines in parallel, each accumulating in the math/
// accumulate type (math/Scan.h).
#include <algorithm>

#include "../Parallel.h"
#include "../math/Scan.h"
#include "../ops/Scan.h"
#include "Loops.h"

namespace th {
namespace {

void scan_kernel(const Tensor& in, const Tensor& out, int64_t outer, int64_t n, int64_t inner, bool prod) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(in.dtype(), "cumsum_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(outer * inner, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t line = begin; line < end; ++line)
                     math::scan_line(src, dst, line, n, inner, prod);
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(scan_stub, CPU, scan_kernel);

}  // namespace th
