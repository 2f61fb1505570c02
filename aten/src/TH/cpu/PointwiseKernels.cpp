// CPU kernels of the unary and binary op families (math/Unary.h, math/Binary.h) over cpu_kernel.
#include "../Kernels.h"
#include "../Parallel.h"
#include "Loops.h"
#include "VecKernels.h"

namespace th {
namespace {

/// exp / tanh / sigmoid of float32 whose rows are dense (contiguous tensors, and transposed or
/// sliced ones whose inner dim is unit-strided): the explicitly vectorized kernel (VecKernels.h).
bool vectorized_unary(TensorIterator& iter, math::UnaryOp op) {
  cpu::VecUnary v;
  switch (op) {
    case math::UnaryOp::Exp: v = cpu::VecUnary::Exp; break;
    case math::UnaryOp::Tanh: v = cpu::VecUnary::Tanh; break;
    case math::UnaryOp::Sigmoid: v = cpu::VecUnary::Sigmoid; break;
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
    if constexpr (math::kUnaryFloating<decltype(f)>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "unary_cpu",
                                 [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "unary_cpu", [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
    }
  });
}

/// The loop of one binary functor: div reads a CPU scalar at opmath_t (kScalarAtOpmath).
template <typename T, typename F>
void binary_loop(TensorIterator& iter, const F& f) {
  if constexpr (math::kScalarAtOpmath<F>) {
    cpu::cpu_kernel_with_scalars<T>(iter, f);
  } else {
    cpu::cpu_kernel<T, 2>(iter, f);
  }
}

void binary_kernel(TensorIterator& iter, math::BinaryOp op) {
  math::with_binary_functor(op, [&](auto f) {
    using F = decltype(f);
    if constexpr (math::kFloatingOnly<F>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "binary_cpu", [&] { binary_loop<scalar_t>(iter, f); });
    } else if constexpr (math::kIntegralOnly<F>) {
      TH_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "binary_cpu",
                                 [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "binary_cpu", [&] { binary_loop<scalar_t>(iter, f); });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(unary_stub, CPU, unary_kernel);
TH_REGISTER_KERNEL(binary_stub, CPU, binary_kernel);

}  // namespace th
