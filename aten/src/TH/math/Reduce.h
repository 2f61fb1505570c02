#pragma once
// Scalar math of the reductions, written once for the CPU and CUDA kernels: each op is an
// identity, a step that folds one value into an accumulator, and `combine`, which merges two
// accumulators (for kernels that reduce in parallel pieces and fold the pieces after).
#include <limits>
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
  TH_HOST_DEVICE acc operator()(acc a, T b) const { return a + acc(b); }
  static TH_HOST_DEVICE acc combine(acc a, acc b) { return a + b; }
};
template <typename T>
struct ProdReduce {
  using acc = acc_t<T>;
  static TH_HOST_DEVICE acc identity() { return acc(1); }
  TH_HOST_DEVICE acc operator()(acc a, T b) const { return a * acc(b); }
  static TH_HOST_DEVICE acc combine(acc a, acc b) { return a * b; }
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

/// Calls f(Reducer<T>{}) for `op` (the one switch both backends share).
template <typename T, typename F>
void with_reducer(ReduceOp op, F&& f) {
  switch (op) {
    case ReduceOp::Sum: return f(SumReduce<T>{});
    case ReduceOp::Prod: return f(ProdReduce<T>{});
    case ReduceOp::Max: return f(MaxReduce<T>{});
    case ReduceOp::Min: return f(MinReduce<T>{});
    case ReduceOp::All: return f(AllReduce<T>{});
    case ReduceOp::Any: return f(AnyReduce<T>{});
  }
}

}  // namespace th::math
