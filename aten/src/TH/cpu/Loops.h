#pragma once
// The CPU loop: runs a scalar functor over a TensorIterator, with a contiguous
// fast path the compiler vectorizes.
#include <utility>

#include "../TensorIterator.h"

namespace th::cpu {

namespace detail {
/// The type f returns when called with one T per input.
template <typename F, typename T, size_t... I>
auto result_of(std::index_sequence<I...>) -> decltype(std::declval<F>()((I, std::declval<T>())...));

template <typename F, typename T, size_t... I>
void apply_row(const F& f, char** data, const int64_t* strides, int64_t n, std::index_sequence<I...> seq) {
  using out_t = decltype(result_of<F, T>(seq));
  char* out = data[0];
  const int64_t os = strides[0];
  for (int64_t k = 0; k < n; ++k) {
    *reinterpret_cast<out_t*>(out + k * os) =
        f(*reinterpret_cast<const T*>(data[I + 1] + k * strides[I + 1])...);
  }
}

template <typename F, typename T, size_t... I>
void apply_dense(const F& f, char** data, int64_t n, std::index_sequence<I...> seq) {
  using out_t = decltype(result_of<F, T>(seq));
  out_t* __restrict out = reinterpret_cast<out_t*>(data[0]);
  for (int64_t k = 0; k < n; ++k) out[k] = f(reinterpret_cast<const T*>(data[I + 1])[k]...);
}

/// Input I of a row: element k, or its one value when bit I of Mask says it is broadcast (stride 0).
template <size_t Mask, size_t I, typename T>
inline T load(const T* p, T scalar, int64_t k) {
  if constexpr ((Mask >> I) & 1) {
    return scalar;
  } else {
    return p[k];
  }
}

/// A contiguous row where the inputs in Mask are broadcast scalars: still a vectorizable loop.
template <size_t Mask, typename F, typename T, size_t... I>
void apply_masked(const F& f, char** data, int64_t n, std::index_sequence<I...> seq) {
  using out_t = decltype(result_of<F, T>(seq));
  out_t* __restrict out = reinterpret_cast<out_t*>(data[0]);
  const T* ptr[] = {reinterpret_cast<const T*>(data[I + 1])...};
  const T scalar[] = {*reinterpret_cast<const T*>(data[I + 1])...};
  for (int64_t k = 0; k < n; ++k) out[k] = f(load<Mask, I>(ptr[I], scalar[I], k)...);
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
  using out_t = decltype(result_of<F, T>(seq));
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
    using out_t = decltype(detail::result_of<F, T>(Seq{}));
    parallel_for(iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      char* data[Arity + 1];
      data[0] = iter.data_ptr(0) + begin * static_cast<int64_t>(sizeof(out_t));
      for (int i = 1; i <= static_cast<int>(Arity); ++i)
        data[i] = iter.data_ptr(i) + begin * int64_t(sizeof(T));
      detail::apply_dense<F, T>(f, data, end - begin, Seq{});
    });
    return;
  }
  iter.parallel_for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::apply_row_fast<F, T>(f, data, strides, n, Seq{});
  });
}

}  // namespace th::cpu
