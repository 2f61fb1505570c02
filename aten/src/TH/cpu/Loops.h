#pragma once
// The CPU loop: runs a scalar functor over a TensorIterator, with a contiguous
// fast path the compiler vectorizes. Inputs of type T reach the functor as opmath_t<T> (float for
// the 16-bit floats); a result of that type is stored back as T.
#include <algorithm>
#include <utility>

#include "../Load.h"
#include "../TensorIterator.h"
#include "../math/BindSecond.h"
#include "VecKernels.h"

namespace th::cpu {

/// n values converted between float and a 16-bit float, either way (rounding to nearest-even): the
/// conversion instructions when `cv` (vec_convert()) has them, else the scalar conversions.
template <typename From, typename To>
void convert_16bit(const From* src, To* dst, int64_t n, vec_convert_fn cv) {
  constexpr bool to_float = std::is_same_v<To, float>;
  using H = std::conditional_t<to_float, From, To>;
  static_assert(sizeof(H) == 2 && !std::is_same_v<H, opmath_t<H>>, "one side is a 16-bit float");
  static_assert(std::is_same_v<std::conditional_t<to_float, To, From>, float>, "the other is float");
  constexpr bool half = std::is_same_v<H, Half>;
  if (cv) {
    return cv(to_float ? (half ? VecConvert::HalfToFloat : VecConvert::BFloat16ToFloat)
                       : (half ? VecConvert::FloatToHalf : VecConvert::FloatToBFloat16),
              src, dst, n);
  }
  std::copy_n(src, n, dst);
}

/// f(chunk, offset, m) over consecutive runs of the n 16-bit values at src, each widened to float
/// (at most Chunk at a time, in a stack buffer f may overwrite): the loop of the 16-bit kernels.
template <int64_t Chunk, typename T, typename F>
void for_each_widened(const T* src, int64_t n, vec_convert_fn cv, F&& f) {
  float buf[Chunk];
  for (int64_t b = 0; b < n; b += Chunk) {
    const int64_t m = std::min(Chunk, n - b);
    convert_16bit(src + b, buf, m, cv);
    f(buf, b, m);
  }
}

namespace detail {
/// The type f returns when called with one opmath_t<T> per input.
template <typename F, typename T, size_t... I>
auto result_of(std::index_sequence<I...>) -> decltype(std::declval<F>()((I, std::declval<opmath_t<T>>())...));

/// The element type of the output: f's result, or T when f computes in T's opmath type.
template <typename F, typename T, typename Seq>
using out_type = storage_t<decltype(result_of<F, T>(Seq{})), T>;

/// One input value as the functor takes it.
template <typename T>
inline opmath_t<T> in(const char* p) {
  return static_cast<opmath_t<T>>(th::load(reinterpret_cast<const T*>(p)));
}

template <typename F, typename T, size_t... I>
void apply_row(const F& f, char** data, const int64_t* strides, int64_t n, std::index_sequence<I...> seq) {
  using out_t = out_type<F, T, decltype(seq)>;
  char* out = data[0];
  const int64_t os = strides[0];
  for (int64_t k = 0; k < n; ++k) {
    *reinterpret_cast<out_t*>(out + k * os) = out_t(f(in<T>(data[I + 1] + k * strides[I + 1])...));
  }
}

template <typename F, typename T, size_t... I>
void apply_dense(const F& f, char** data, int64_t n, std::index_sequence<I...> seq) {
  using out_t = out_type<F, T, decltype(seq)>;
  out_t* __restrict out = reinterpret_cast<out_t*>(data[0]);
  for (int64_t k = 0; k < n; ++k)
    out[k] = out_t(f(opmath_t<T>(th::load(reinterpret_cast<const T*>(data[I + 1]) + k))...));
}

/// The dense loop for 16-bit float inputs: chunks of each input are widened to float in one loop,
/// f runs over the float chunks, and the results are narrowed in another, so every step is a
/// simple loop the compiler vectorizes (converting element by element inside f's loop is not).
template <typename F, typename T, size_t... I>
void apply_dense_widened(const F& f, char** data, int64_t n, std::index_sequence<I...> seq) {
  using out_t = out_type<F, T, decltype(seq)>;
  using res_t = decltype(f((I, opmath_t<T>())...));
  constexpr int64_t kChunk = 256;
  const vec_convert_fn cv = vec_convert();
  out_t* __restrict out = reinterpret_cast<out_t*>(data[0]);
  float wide[sizeof...(I)][kChunk];
  res_t res[kChunk];
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t m = std::min(kChunk, n - b);
    (convert_16bit(reinterpret_cast<const T*>(data[I + 1]) + b, wide[I], m, cv), ...);
    for (int64_t k = 0; k < m; ++k) res[k] = f(wide[I][k]...);
    if constexpr (std::is_same_v<out_t, T> && std::is_same_v<res_t, float>) {
      convert_16bit(res, out + b, m, cv);
    } else {
      for (int64_t k = 0; k < m; ++k) out[b + k] = out_t(res[k]);
    }
  }
}

/// Input I of a row: element k, or its one value when bit I of Mask says it is broadcast (stride 0).
template <size_t Mask, size_t I, typename T>
inline opmath_t<T> load(const T* p, opmath_t<T> scalar, int64_t k) {
  if constexpr ((Mask >> I) & 1) {
    return scalar;
  } else {
    return static_cast<opmath_t<T>>(th::load(p + k));
  }
}

/// A contiguous row where the inputs in Mask are broadcast scalars: still a vectorizable loop.
template <size_t Mask, typename F, typename T, size_t... I>
void apply_masked(const F& f, char** data, int64_t n, std::index_sequence<I...> seq) {
  using out_t = out_type<F, T, decltype(seq)>;
  out_t* __restrict out = reinterpret_cast<out_t*>(data[0]);
  const T* ptr[] = {reinterpret_cast<const T*>(data[I + 1])...};
  const opmath_t<T> scalar[] = {in<T>(data[I + 1])...};
  for (int64_t k = 0; k < n; ++k) out[k] = out_t(f(load<Mask, I>(ptr[I], scalar[I], k)...));
}

template <typename F, typename T, size_t... I, size_t... M>
void apply_by_mask(size_t mask, const F& f, char** data, int64_t n, std::index_sequence<I...> seq,
                   std::index_sequence<M...>) {
  ((mask == M ? (apply_masked<M, F, T>(f, data, n, seq), true) : false) || ...);
}

/// One row of the strided loop: specialized when every operand is contiguous or broadcast.
template <typename F, typename T, size_t... I>
void apply_row_fast(const F& f, char** data, const int64_t* strides, int64_t n,
                    std::index_sequence<I...> seq) {
  using out_t = out_type<F, T, decltype(seq)>;
  constexpr size_t arity = sizeof...(I);
  bool simple = strides[0] == int64_t(sizeof(out_t));
  size_t mask = 0;
  ((simple = simple && (strides[I + 1] == int64_t(sizeof(T)) || strides[I + 1] == 0),
    mask |= strides[I + 1] == 0 ? (size_t(1) << I) : 0),
   ...);
  if constexpr (arity > 0 && arity <= 3) {
    if (simple)
      return apply_by_mask<F, T>(mask, f, data, n, seq, std::make_index_sequence<(size_t(1) << arity)>{});
  }
  apply_row<F, T>(f, data, strides, n, seq);
}
}  // namespace detail

/// out = f(in...) elementwise: `Arity` inputs of element type T, the output of f's result type.
/// Runs on several threads above kGrainSize elements (f must not throw).
template <typename T, size_t Arity, typename F>
void cpu_kernel(TensorIterator& iter, const F& f) {
  using Seq = std::make_index_sequence<Arity>;
  if (iter.is_contiguous()) {
    using out_t = detail::out_type<F, T, Seq>;
    parallel_for(iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      char* data[Arity + 1];
      data[0] = iter.data_ptr(0) + begin * static_cast<int64_t>(sizeof(out_t));
      for (int i = 1; i <= static_cast<int>(Arity); ++i)
        data[i] = iter.data_ptr(i) + begin * int64_t(sizeof(T));
      if constexpr (!std::is_same_v<T, opmath_t<T>> && Arity > 0) {
        detail::apply_dense_widened<F, T>(f, data, end - begin, Seq{});
      } else {
        detail::apply_dense<F, T>(f, data, end - begin, Seq{});
      }
    });
    return;
  }
  iter.parallel_for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::apply_row_fast<F, T>(f, data, strides, n, Seq{});
  });
}

/// out = f(a, b) as cpu_kernel<T, 2>, except that for the 16-bit floats a b that is one element over the
/// whole iteration (a Python number, a 0-dim, one-element or expanded tensor: PyTorch's CPU kernels test
/// is_scalar) is read once at opmath_t<T> (float32) as the op passed it, not rounded to T first, as PyTorch's
/// mul and div kernels read it: the operand is dropped and the rest runs as a unary loop. Two tensors run
/// math::on_tensors(f) (div_trunc's quotient rounded to T, as upstream's).
template <typename T, typename F>
void cpu_kernel_with_scalars(TensorIterator& iter, const F& f) {
  if constexpr (!std::is_same_v<T, opmath_t<T>>) {
    if (iter.ntensors() == 3 && iter.numel() > 0 && iter.is_scalar(2)) {
      const auto b = iter.original_scalar_value<opmath_t<T>>(2);
      iter.remove_operand(2);
      return cpu_kernel<T, 1>(iter, math::BindSecond<F, opmath_t<T>>{f, b});
    }
  }
  cpu_kernel<T, 2>(iter, math::on_tensors<T>(f));
}

}  // namespace th::cpu
