// CPU kernel of the unary pointwise family: math/Unary.h's functors over cpu_kernel, and the
// explicitly vectorized exp / tanh / sigmoid (VecKernels.h) for dense float rows.
#include "../Parallel.h"
#include "../math/FunctorDispatch.h"
#include "../ops/Unary.h"
#include "Loops.h"
#include "VecKernels.h"

namespace th {
namespace {

/// exp / tanh / sigmoid / erf of float32 whose rows are dense (contiguous tensors, and transposed or
/// sliced ones whose inner dim is unit-strided): the explicitly vectorized kernel (VecKernels.h).
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
  if (t != ScalarType::Float) return false;
  if (iter.is_contiguous()) {
    const float* in = reinterpret_cast<const float*>(iter.data_ptr(1));
    float* out = reinterpret_cast<float*>(iter.data_ptr(0));
    parallel_for(iter.numel(), kGrainSize,
                 [&](int64_t begin, int64_t end) { fn(v, in + begin, out + begin, end - begin); });
    return true;
  }
  constexpr int64_t es = sizeof(float);
  if (iter.ndim() == 0 || iter.strides(0)[0] != es || iter.strides(1)[0] != es) return false;
  iter.parallel_for_each([&](char** data, const int64_t*, int64_t n) {
    fn(v, reinterpret_cast<const float*>(data[1]), reinterpret_cast<float*>(data[0]), n);
  });
  return true;
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
