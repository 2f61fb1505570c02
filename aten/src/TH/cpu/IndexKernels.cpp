// CPU take / put: positions -> storage offsets through the tensor's strides.
#include "../Load.h"
#include "../Parallel.h"
#include "../ScalarType.h"
#include "../ops/Index.h"

namespace th {
namespace {

void take_kernel(const Tensor& self, const Tensor& index, const Tensor& out) {
  const LogicalToStorage where(self);
  const auto* idx = reinterpret_cast<const int64_t*>(index.data_ptr());
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(self.dtype(), "take_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(self.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(index.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) dst[i] = src[where(idx[i])];
    });
  });
}

void put_kernel(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  const LogicalToStorage where(self);
  const auto* idx = reinterpret_cast<const int64_t*>(index.data_ptr());
  const int64_t n = index.numel();
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(self.dtype(), "put_cpu", [&] {
    auto* dst = reinterpret_cast<scalar_t*>(self.data_ptr());
    const auto* src = reinterpret_cast<const scalar_t*>(source.data_ptr());
    for (int64_t i = 0; i < n; ++i) {  // sequential: duplicates accumulate / the last one wins
      scalar_t& d = dst[where(idx[i])];
      if (accumulate) {
        if constexpr (std::is_same_v<scalar_t, bool>) {
          d = d || src[i];
        } else {
          d = scalar_t(d + src[i]);
        }
      } else {
        d = src[i];
      }
    }
  });
}

Tensor nonzero_kernel(const Tensor& mask, const IntList& sizes) {
  const int64_t n = mask.numel(), nd = int64_t(sizes.size());
  const bool* m = reinterpret_cast<const bool*>(mask.data_ptr());
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += th::load(m + i);
  Tensor out = empty_tensor({count, nd}, ScalarType::Long, Device());
  auto* o = reinterpret_cast<int64_t*>(out.data_ptr());
  for (int64_t i = 0, row = 0; i < n; ++i) {
    if (!th::load(m + i)) continue;
    int64_t rest = i;
    for (int64_t d = nd - 1; d >= 0; --d) {
      o[row * nd + d] = rest % sizes[size_t(d)];
      rest /= sizes[size_t(d)];
    }
    ++row;
  }
  return out;
}
}  // namespace

TH_REGISTER_KERNEL(take_stub, CPU, take_kernel);
TH_REGISTER_KERNEL(put_stub, CPU, put_kernel);
TH_REGISTER_KERNEL(nonzero_stub, CPU, nonzero_kernel);

}  // namespace th
