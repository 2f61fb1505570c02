// CPU kernel of the unary pointwise family: math/Unary.h's functors over cpu_kernel, and the
// explicitly vectorized exp / tanh / sigmoid (VecKernels.h) for dense float rows.
#include <algorithm>
#include <type_traits>

#include "../Parallel.h"
#include "../math/FunctorDispatch.h"
#include "../ops/Unary.h"
#include "Loops.h"
#include "VecKernels.h"

namespace th {
namespace {

/// The rows of a float32 or 16-bit unary op of any layout through the vectorized kernel: a dense float32 row
/// directly, any other row gathered (widened) into a buffer, computed there and scattered back, so every
/// layout gets the same values as a contiguous tensor.
template <typename T>
void vectorized_rows(TensorIterator& iter, cpu::vec_unary_fn fn, cpu::VecUnary v) {
  iter.parallel_for_each([&](char** data, const int64_t* strides, int64_t n) {
    if (std::is_same_v<T, float> && strides[0] == sizeof(float) && strides[1] == sizeof(float)) {
      fn(v, reinterpret_cast<const float*>(data[1]), reinterpret_cast<float*>(data[0]), n);
      return;
    }
    constexpr int64_t kChunk = 256;
    float buf[kChunk];
    for (int64_t b = 0; b < n; b += kChunk) {
      const int64_t m = std::min(kChunk, n - b);
      for (int64_t k = 0; k < m; ++k)
        buf[k] = float(*reinterpret_cast<const T*>(data[1] + (b + k) * strides[1]));
      fn(v, buf, buf, m);
      for (int64_t k = 0; k < m; ++k) *reinterpret_cast<T*>(data[0] + (b + k) * strides[0]) = T(buf[k]);
    }
  });
}

/// exp / tanh / sigmoid / erf of float32, float16 and bfloat16 (the same dtype in and out): the explicitly
/// vectorized kernel (VecKernels.h), for every layout.
bool vectorized_unary(TensorIterator& iter, math::UnaryOp op) {
  cpu::VecUnary v;
  switch (op) {
    case math::UnaryOp::Exp: v = cpu::VecUnary::Exp; break;
    case math::UnaryOp::Tanh: v = cpu::VecUnary::Tanh; break;
    case math::UnaryOp::Sigmoid: v = cpu::VecUnary::Sigmoid; break;
    case math::UnaryOp::Erf: v = cpu::VecUnary::Erf; break;
    default: return false;
  }
  cpu::vec_unary_fn fn = cpu::vec_unary();
  const ScalarType t = iter.common_dtype();
  if (!fn || iter.dtype(0) != t || iter.dtype(1) != t) return false;
  if (is_reduced_floating_point(t) && iter.is_contiguous()) {  // widened to float a chunk at a time
    auto widened = [&](auto zero) {
      using T = decltype(zero);
      const T* in = reinterpret_cast<const T*>(iter.data_ptr(1));
      T* out = reinterpret_cast<T*>(iter.data_ptr(0));
      const cpu::vec_convert_fn cv = cpu::vec_convert();
      parallel_for(iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
        cpu::for_each_widened<256>(in + begin, end - begin, cv, [&](float* buf, int64_t b, int64_t m) {
          fn(v, buf, buf, m);
          cpu::convert_16bit(buf, out + begin + b, m, cv);
        });
      });
    };
    t == ScalarType::Half ? widened(Half()) : widened(BFloat16());
    return true;
  }
  if (t == ScalarType::Float && iter.is_contiguous()) {
    const float* in = reinterpret_cast<const float*>(iter.data_ptr(1));
    float* out = reinterpret_cast<float*>(iter.data_ptr(0));
    parallel_for(iter.numel(), kGrainSize,
                 [&](int64_t begin, int64_t end) { fn(v, in + begin, out + begin, end - begin); });
    return true;
  }
  switch (t) {
    case ScalarType::Float: vectorized_rows<float>(iter, fn, v); return true;
    case ScalarType::Half: vectorized_rows<Half>(iter, fn, v); return true;
    case ScalarType::BFloat16: vectorized_rows<BFloat16>(iter, fn, v); return true;
    default: return false;
  }
}

void unary_kernel(TensorIterator& iter, math::UnaryOp op) {
  if (vectorized_unary(iter, op)) return;
  math::with_unary_functor(op, [&](auto f) {
    math::dispatch_functor<decltype(f)>(iter.common_dtype(), "unary_cpu", [&](auto tag) {
      cpu::cpu_kernel<typename decltype(tag)::type, 1>(iter, f);
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(unary_stub, CPU, unary_kernel);

}  // namespace th
