// CPU kernels of the convolution family: im2col a row of one sample's columns at a time (rows in parallel),
// col2im an input channel at a time (its kernel rows added in turn, channels in parallel: no two threads
// write one element).
#include <algorithm>
#include <cstring>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Convolution.h"

namespace th {
namespace {

void im2col_kernel(const Tensor& x, const Tensor& cols, const math::ConvGeometry& g) {
  const int64_t B = x.size(0), R = g.rows(), L = g.out_numel();
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "im2col_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(cols.data_ptr());
    parallel_for(B * R, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {  // i = r * B + b: a row of one sample
                     const int64_t r = i / B, b = i % B;
                     g.column_row(src + b * g.C * g.in_numel(), r, dst + (r * B + b) * L);
                   }
                 });
  });
}

void col2im_kernel(const Tensor& cols, const Tensor& grad_x, const math::ConvGeometry& g) {
  const int64_t B = grad_x.size(0), K = g.kernel_numel(), L = g.out_numel(), P = g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "col2im_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* src = reinterpret_cast<const scalar_t*>(cols.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(grad_x.data_ptr());
    parallel_for(B * g.C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(K * L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {  // i = b * C + c
                     scalar_t* plane = dst + i * P;
                     std::fill_n(plane, P, scalar_t(0));
                     const int64_t b = i / g.C, c = i % g.C;
                     for (int64_t kk = 0; kk < K; ++kk) {
                       const int64_t r = c * K + kk;
                       g.add_column_row<scalar_t, A>(src + (r * B + b) * L, r, plane);
                     }
                   }
                 });
  });
}

}  // namespace

TH_REGISTER_KERNEL(im2col_stub, CPU, im2col_kernel);
TH_REGISTER_KERNEL(col2im_stub, CPU, col2im_kernel);

}  // namespace th
