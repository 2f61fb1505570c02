// CPU take / put: positions -> storage offsets through the tensor's strides.
#include <algorithm>
#include <cstring>
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

void index_select_kernel(const Tensor& self, int64_t outer, int64_t size, int64_t inner, const Tensor& index,
                         const Tensor& out) {
  const auto* idx = reinterpret_cast<const int64_t*>(index.data_ptr());
  const int64_t n = index.numel();
  const size_t row = size_t(inner) * self.element_size();  // bytes of one selected slice
  const char* src = self.data_ptr();
  char* dst = out.data_ptr();
  parallel_for(outer * n, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t r = begin; r < end; ++r) {
                   const int64_t o = r / n, j = r % n;
                   std::memcpy(dst + size_t(r) * row, src + (size_t(o) * size_t(size) + size_t(idx[j])) * row,
                               row);
                 }
               });
}

void index_put_rows_kernel(const Tensor& self, int64_t outer, int64_t size, int64_t inner,
                           const Tensor& index, const Tensor& source, bool accumulate) {
  const auto* idx = reinterpret_cast<const int64_t*>(index.data_ptr());
  const int64_t n = index.numel();
  constexpr int64_t kBlock = 512;  // columns a task sums, over every index in order
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(self.dtype(), "index_add_cpu", [&] {
    auto* dst = reinterpret_cast<scalar_t*>(self.data_ptr());
    const auto* src = reinterpret_cast<const scalar_t*>(source.data_ptr());
    parallel_for(outer * blocks, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * kBlock, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t t = begin; t < end; ++t) {
                     const int64_t o = t / blocks, c0 = (t % blocks) * kBlock,
                                   c1 = std::min(inner, c0 + kBlock);
                     for (int64_t j = 0; j < n; ++j) {
                       scalar_t* d = dst + (o * size + idx[j]) * inner;
                       const scalar_t* v = src + (o * n + j) * inner;
                       if (!accumulate) {
                         std::memcpy(d + c0, v + c0, size_t(c1 - c0) * sizeof(scalar_t));
                         continue;
                       }
                       for (int64_t c = c0; c < c1; ++c) {
                         if constexpr (std::is_same_v<scalar_t, bool>) {
                           d[c] = d[c] || v[c];
                         } else {
                           d[c] = scalar_t(d[c] + v[c]);
                         }
                       }
                     }
                   }
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
TH_REGISTER_KERNEL(index_select_stub, CPU, index_select_kernel);
TH_REGISTER_KERNEL(index_put_rows_stub, CPU, index_put_rows_kernel);
TH_REGISTER_KERNEL(put_stub, CPU, put_kernel);
TH_REGISTER_KERNEL(nonzero_stub, CPU, nonzero_kernel);

}  // namespace th
