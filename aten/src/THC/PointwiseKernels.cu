// CUDA kernels of fill_, copy_, add/sub/mul: the math/Binary.h functors over gpu_kernel.
#include <TH/Kernels.h>
#include <TH/math/Binary.h>

#include "Loops.cuh"

namespace thc {
namespace {

void fill_kernel(th::TensorIterator& iter, const th::Scalar& value) {
  TH_DISPATCH_ALL_TYPES(iter.dtype(0), "fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();
    gpu_kernel<scalar_t, 0>(iter, [v] __device__() { return v; });
  });
}

void copy_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_ALL_TYPES(iter.dtype(0), "copy_cuda", [&] {
    using dst_t = scalar_t;
    TH_DISPATCH_ALL_TYPES(iter.dtype(1), "copy_cuda", [&] {
      Pointers<2> ptrs{{iter.data_ptr(0), iter.data_ptr(1)}};
      launch<2>(iter, [=] __device__(const int64_t (&off)[2]) {
        *reinterpret_cast<dst_t*>(ptrs.p[0] + off[0]) =
            static_cast<dst_t>(*reinterpret_cast<const scalar_t*>(ptrs.p[1] + off[1]));
      });
    });
  });
}

void add_kernel(th::TensorIterator& iter, const th::Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "add_cuda", [&] {
    gpu_kernel<scalar_t, 2>(iter, th::math::Add<scalar_t>{alpha.to<scalar_t>()});
  });
}

void mul_kernel(th::TensorIterator& iter, const th::Scalar&) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "mul_cuda",
                        [&] { gpu_kernel<scalar_t, 2>(iter, th::math::Mul<scalar_t>{}); });
}

}  // namespace

TH_REGISTER_KERNEL(th::fill_stub, CUDA, fill_kernel);
TH_REGISTER_KERNEL(th::copy_stub, CUDA, copy_kernel);
TH_REGISTER_KERNEL(th::add_stub, CUDA, add_kernel);
TH_REGISTER_KERNEL(th::mul_stub, CUDA, mul_kernel);

}  // namespace thc
