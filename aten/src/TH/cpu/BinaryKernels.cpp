// CPU kernels of the binary pointwise family: add/sub/mul and math/Binary.h's functors over cpu_kernel.
#include "../math/FunctorDispatch.h"
#include "../ops/Binary.h"
#include "Loops.h"

namespace th {
namespace {

/// The fused 16-bit loop (cpu/VecKernels.h's vec_binary16: widen, compute in float, round once, W lanes at a
/// time) of add/sub with alpha 1 or -1, mul and true division, bit for bit the scalar loop f's results: every
/// row whose operands are contiguous or one broadcast element runs it, any other row f. With `as_passed` a
/// second operand of one element is read at float as the op passed it (cpu_kernel_with_scalars' rule).
/// False, with nothing done, where the CPU has no conversion instructions.
template <typename T>
constexpr bool kIs16bit = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <typename T, typename F>
bool fused_16bit(TensorIterator& iter, cpu::VecBinary op, float alpha, bool as_passed, const F& f) {
  const cpu::vec_binary16_fn vec = cpu::vec_binary16();
  if (!vec || iter.ntensors() != 3 || iter.numel() == 0) return false;
  const cpu::Vec16 type = std::is_same_v<T, Half> ? cpu::Vec16::Half : cpu::Vec16::BFloat16;
  constexpr int64_t es = sizeof(T);
  auto value = [](const char* p) { return float(th::load(reinterpret_cast<const T*>(p))); };
  auto simple = [](int64_t stride) { return stride == es || stride == 0; };
  if (as_passed && iter.is_scalar(2)) {
    const float b = iter.original_scalar_value<float>(2);
    iter.remove_operand(2);
    const math::BindSecond<F, float> g{f, b};
    iter.parallel_for_each([&](char** data, const int64_t* s, int64_t n) {
      if (s[0] == es && simple(s[1]))
        return vec(op, type, s[1] ? data[1] : nullptr, value(data[1]), nullptr, b, alpha, data[0], n);
      cpu::detail::apply_row<math::BindSecond<F, float>, T>(g, data, s, n, std::make_index_sequence<1>{});
    });
    return true;
  }
  iter.parallel_for_each([&](char** data, const int64_t* s, int64_t n) {
    if (s[0] == es && simple(s[1]) && simple(s[2]))
      return vec(op, type, s[1] ? data[1] : nullptr, value(data[1]), s[2] ? data[2] : nullptr, value(data[2]),
                 alpha, data[0], n);
    cpu::detail::apply_row<F, T>(f, data, s, n, std::make_index_sequence<2>{});
  });
  return true;
}

/// add's loop (sub is add with alpha negated): the fused 16-bit kernel for alpha 1 or -1.
template <typename T>
void add_loop(TensorIterator& iter, const math::Add<opmath_t<T>>& f) {
  if constexpr (kIs16bit<T>) {
    if ((f.alpha == 1.0f || f.alpha == -1.0f) && fused_16bit<T>(iter, cpu::VecBinary::Add, f.alpha, false, f))
      return;
  }
  cpu::cpu_kernel<T, 2>(iter, f);
}

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "add_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    // alpha is read at the dtype (checked, then rounded: 1e-8 is 0 in float16), as upstream's CPU kernel;
    // its CUDA kernel reads it at opmath_t (THC/BinaryKernels.cu)
    add_loop<scalar_t>(iter, math::Add<op_t>{static_cast<op_t>(alpha.to<scalar_t>())});
  });
}

/// The complex product's loop: rows whose operands are contiguous or one broadcast value run the vectorized
/// product (cpu/VecKernels.h's vec_cmul: the scalar product's bits), others the scalar loop.
template <typename T>
void complex_mul_loop(TensorIterator& iter) {
  const cpu::vec_cmul_fn vec = cpu::vec_cmul();
  if (!vec || iter.ntensors() != 3) return cpu::cpu_kernel_with_scalars<T>(iter, math::Mul<T>{});
  const cpu::VecComplex type =
      std::is_same_v<T, complex<float>> ? cpu::VecComplex::ComplexFloat : cpu::VecComplex::ComplexDouble;
  constexpr int64_t es = sizeof(T);
  auto simple = [](int64_t stride) { return stride == es || stride == 0; };
  iter.parallel_for_each([&](char** data, const int64_t* s, int64_t n) {
    if (s[0] == es && simple(s[1]) && simple(s[2]))
      return vec(type, data[1], !s[1], data[2], !s[2], data[0], n);
    cpu::detail::apply_row<math::Mul<T>, T>(math::Mul<T>{}, data, s, n, std::make_index_sequence<2>{});
  });
}

template <typename T>
void mul_loop(TensorIterator& iter) {
  if constexpr (kIs16bit<T>) {
    if (fused_16bit<T>(iter, cpu::VecBinary::Mul, 1.0f, true, math::Mul<float>{})) return;
  } else if constexpr (is_complex_v<T>) {
    return complex_mul_loop<T>(iter);
  }
  cpu::cpu_kernel_with_scalars<T>(iter, math::Mul<opmath_t<T>>{});
}

void mul_kernel(TensorIterator& iter, const Scalar&) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "mul_cpu", [&] { mul_loop<scalar_t>(iter); });
}

/// The loop of one binary functor: div reads a CPU scalar at opmath_t (kScalarAtOpmath).
template <typename T, typename F>
void binary_loop(TensorIterator& iter, const F& f) {
  if constexpr (std::is_same_v<F, math::DivTrue> && kIs16bit<T>) {
    if (fused_16bit<T>(iter, cpu::VecBinary::Div, 1.0f, true, f)) return;
  }
  if constexpr (math::kScalarAtOpmath<F>) {
    cpu::cpu_kernel_with_scalars<T>(iter, f);
  } else {
    cpu::cpu_kernel<T, 2>(iter, f);
  }
}

void binary_kernel(TensorIterator& iter, math::BinaryOp op) {
  math::with_binary_functor(op, [&](auto f) {
    math::dispatch_functor<decltype(f)>(iter.common_dtype(), "binary_cpu", [&](auto tag) {
      binary_loop<typename decltype(tag)::type>(iter, f);
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(add_stub, CPU, add_kernel);
TH_REGISTER_KERNEL(mul_stub, CPU, mul_kernel);
TH_REGISTER_KERNEL(binary_stub, CPU, binary_kernel);

}  // namespace th
