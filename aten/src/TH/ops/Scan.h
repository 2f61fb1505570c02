#pragma once
// The scan family's kernel (cumsum / cumprod, math/Scan.h): ops/Scan.cpp, cpu/ScanKernels.cpp,
// THC/ScanKernels.cu.
#include "../Dispatch.h"
#include "../Tensor.h"

namespace th {

/// Inclusive scan (cumsum / cumprod) of the contiguous [outer, n, inner] `in` into `out` (same shape,
/// contiguous, same dtype) along the middle dim.
using scan_fn = void(const Tensor& in, const Tensor& out, int64_t outer, int64_t n, int64_t inner, bool prod);
TH_DECLARE_STUB(scan_fn, scan_stub);

}  // namespace th
