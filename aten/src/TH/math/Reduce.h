#pragma once
// Scalar math of the reductions, written once for the CPU and CUDA kernels: each op is an
// identity, a step that folds one value into an accumulator, and `combine`, which merges two
// accumulators (for kernels that reduce in parallel pieces and fold the pieces after).
#include <limits>
#include <tuple>
#include <type_traits>

#include "../Half.h"
#include "../Macros.h"
#include "Binary.h"

namespace th::math {

enum class ReduceOp { Sum, Prod, Max, Min, All, Any };

template <typename T>
using acc_t = typename acc_type<T>::type;

template <typename T>
struct SumReduce {
  using acc = acc_t<T>;
  static TH_HOST_DEVICE acc identity() { return acc(0); }
  TH_HOST_DEVICE acc operator()(acc a, T b) const { return wrapping_add(a, acc(b)); }
  static TH_HOST_DEVICE acc combine(acc a, acc b) { return wrapping_add(a, b); }
};
template <typename T>
struct ProdReduce {
  using acc = acc_t<T>;
  static TH_HOST_DEVICE acc identity() { return acc(1); }
  TH_HOST_DEVICE acc operator()(acc a, T b) const { return wrapping_mul(a, acc(b)); }
  static TH_HOST_DEVICE acc combine(acc a, acc b) { return wrapping_mul(a, b); }
};
/// max/min propagate NaN (like torch.amax).
template <typename T>
struct MaxReduce {
  using acc = T;
  static TH_HOST_DEVICE T identity() {
    return std::numeric_limits<T>::has_infinity ? T(-std::numeric_limits<T>::infinity())
                                                : std::numeric_limits<T>::lowest();
  }
  TH_HOST_DEVICE T operator()(T a, T b) const { return maximum(a, b); }
  static TH_HOST_DEVICE T combine(T a, T b) { return maximum(a, b); }
};
template <typename T>
struct MinReduce {
  using acc = T;
  static TH_HOST_DEVICE T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
  }
  TH_HOST_DEVICE T operator()(T a, T b) const { return minimum(a, b); }
  static TH_HOST_DEVICE T combine(T a, T b) { return minimum(a, b); }
};
template <typename T>
struct AllReduce {
  using acc = bool;
  static TH_HOST_DEVICE bool identity() { return true; }
  TH_HOST_DEVICE bool operator()(bool a, T b) const { return a && bool(b); }
  static TH_HOST_DEVICE bool combine(bool a, bool b) { return a && b; }
};
template <typename T>
struct AnyReduce {
  using acc = bool;
  static TH_HOST_DEVICE bool identity() { return false; }
  TH_HOST_DEVICE bool operator()(bool a, T b) const { return a || bool(b); }
  static TH_HOST_DEVICE bool combine(bool a, bool b) { return a || b; }
};

/// Whether `candidate` replaces `best` in an arg-max/min scan: strictly better, or the first NaN
/// (the first occurrence wins ties; NaN wins everything, as in torch.max).
template <typename T>
TH_HOST_DEVICE bool better(T candidate, T best, bool is_max) {
  if constexpr (is_floating_v<T>) {
    if (best != best) return false;
    if (candidate != candidate) return true;
  }
  return is_max ? candidate > best : candidate < best;
}

/// The reducer of `Op` for element type T: `ReducerOf<ReduceOp::Sum, float>` is SumReduce<float>
/// (the tuple lists them in ReduceOp's order).
template <ReduceOp Op, typename T>
using ReducerOf =
    std::tuple_element_t<static_cast<int>(Op), std::tuple<SumReduce<T>, ProdReduce<T>, MaxReduce<T>,
                                                          MinReduce<T>, AllReduce<T>, AnyReduce<T>>>;
static_assert(std::is_same_v<ReducerOf<ReduceOp::Any, int>, AnyReduce<int>>,
              "ReducerOf follows ReduceOp's order");

/// Calls f(std::integral_constant<ReduceOp, op>{}): `op` as a compile-time constant (the one
/// switch over the ops that both backends share).
template <typename F>
void with_reduce_op(ReduceOp op, F&& f) {
  switch (op) {
    case ReduceOp::Sum: return f(std::integral_constant<ReduceOp, ReduceOp::Sum>{});
    case ReduceOp::Prod: return f(std::integral_constant<ReduceOp, ReduceOp::Prod>{});
    case ReduceOp::Max: return f(std::integral_constant<ReduceOp, ReduceOp::Max>{});
    case ReduceOp::Min: return f(std::integral_constant<ReduceOp, ReduceOp::Min>{});
    case ReduceOp::All: return f(std::integral_constant<ReduceOp, ReduceOp::All>{});
    case ReduceOp::Any: return f(std::integral_constant<ReduceOp, ReduceOp::Any>{});
  }
}

/// The reductions complex tensors have (sums and products; max and min have no order to use).
template <ReduceOp Op>
constexpr bool kReduceComplex = Op == ReduceOp::Sum || Op == ReduceOp::Prod;

/// Calls f(Reducer<T>{}) for `op`.
template <typename T, typename F>
void with_reducer(ReduceOp op, F&& f) {
  with_reduce_op(op, [&](auto tag) { f(ReducerOf<decltype(tag)::value, T>{}); });
}

}  // namespace th::math
