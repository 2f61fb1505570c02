// copy_ on CUDA between any two dtypes (the destination's and the source's): one kernel per pair,
// converting each element with static_cast.
#include <TH/ops/Copy.h>

#include "Loops.cuh"

namespace thc {
namespace {

void copy_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(0), "copy_cuda", [&] {
    using dst_t = scalar_t;
    TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(1), "copy_cuda", [&] {
      Pointers<2> ptrs{{iter.data_ptr(0), iter.data_ptr(1)}};
      launch<2>(iter, [=] __device__(const int64_t (&off)[2]) {
        *reinterpret_cast<dst_t*>(ptrs.p[0] + off[0]) =
            th::convert<dst_t>(th::load(reinterpret_cast<const scalar_t*>(ptrs.p[1] + off[1])));
      });
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::copy_stub, CUDA, copy_kernel);

}  // namespace thc
