// CPU kernel of copy_, converting between any two dtypes: memcpy, a dense conversion loop, or a
// strided one.
#include <cstring>

#include "../Parallel.h"
#include "../ops/Copy.h"
#include "Loops.h"

namespace th {
namespace {

/// dst[k] = src[k] for k < n; float <-> 16-bit float through the conversion instructions (`cv`).
template <typename D, typename S>
void convert_dense(const S* src, D* dst, int64_t n, cpu::vec_convert_fn cv) {
  constexpr bool s16 = std::is_same_v<S, Half> || std::is_same_v<S, BFloat16>;
  constexpr bool d16 = std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>;
  if constexpr ((std::is_same_v<D, float> && s16) || (std::is_same_v<S, float> && d16)) {
    cpu::convert_16bit(src, dst, n, cv);
  } else {
    for (int64_t k = 0; k < n; ++k) dst[k] = convert<D>(th::load(src + k));
  }
}

void copy_kernel(TensorIterator& iter) {
  if (iter.dtype(0) == iter.dtype(1) && iter.is_contiguous()) {  // same layout, same type: memcpy
    const int64_t es = static_cast<int64_t>(element_size(iter.dtype(0)));
    char* dst = iter.data_ptr(0);
    const char* src = iter.data_ptr(1);
    parallel_for(iter.numel(), kGrainSize * 2, [&](int64_t begin, int64_t end) {
      std::memcpy(dst + begin * es, src + begin * es, static_cast<size_t>((end - begin) * es));
    });
    return;
  }
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(0), "copy_cpu", [&] {
    using dst_t = scalar_t;
    TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(1), "copy_cpu", [&] {
      if (iter.is_contiguous()) {  // a dense conversion loop the compiler vectorizes (16-bit floats too)
        auto* dst = reinterpret_cast<dst_t*>(iter.data_ptr(0));
        const auto* src = reinterpret_cast<const scalar_t*>(iter.data_ptr(1));
        const cpu::vec_convert_fn cv = cpu::vec_convert();
        parallel_for(iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
          convert_dense(src + begin, dst + begin, end - begin, cv);
        });
        return;
      }
      const cpu::vec_convert_fn cv = cpu::vec_convert();
      iter.parallel_for_each([cv](char** data, const int64_t* strides, int64_t n) {
        auto* dst = reinterpret_cast<dst_t*>(data[0]);
        const auto* src = reinterpret_cast<const scalar_t*>(data[1]);
        if (strides[0] == sizeof(dst_t) &&
            strides[1] == sizeof(scalar_t)) {  // a dense row (a broadcast copy's)
          if constexpr (std::is_same_v<dst_t, scalar_t>)
            std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(dst_t));
          else
            convert_dense(src, dst, n, cv);
          return;
        }
        if (strides[0] == sizeof(dst_t) && strides[1] == 0) {  // one value along the row
          const dst_t v = convert<dst_t>(th::load(src));
          for (int64_t k = 0; k < n; ++k) dst[k] = v;
          return;
        }
        for (int64_t k = 0; k < n; ++k) {
          *reinterpret_cast<dst_t*>(data[0] + k * strides[0]) =
              convert<dst_t>(th::load(reinterpret_cast<const scalar_t*>(data[1] + k * strides[1])));
        }
      });
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(copy_stub, CPU, copy_kernel);

}  // namespace th
