// CPU kernels of the reductions: the math/Reduce.h reducers over the iterator (the output has
// stride 0 along reduced dims and holds the identity on entry), and row-wise max/min with indices.
#include <algorithm>

#include "../Parallel.h"
#include "../ops/Reduce.h"
#include "Loops.h"
#include "VecKernels.h"

namespace th {
namespace {

/// Folds two accumulators of reducer R (the lanes and chunks of one reduction).
template <typename T, typename R>
typename R::acc combine(typename R::acc a, typename R::acc b) {
  if constexpr (std::is_same_v<R, math::SumReduce<T>>) {
    return a + b;
  } else if constexpr (std::is_same_v<R, math::ProdReduce<T>>) {
    return a * b;
  } else if constexpr (std::is_same_v<R, math::AllReduce<T>>) {
    return a && b;
  } else if constexpr (std::is_same_v<R, math::AnyReduce<T>>) {
    return a || b;
  } else {
    return R{}(a, b);  // max / min: acc is T
  }
}

/// Reduces a contiguous run: 16 independent lanes the compiler vectorizes, folded every block
/// (for float sums the lanes are double, and short: accurate like a cascade sum).
template <typename T, typename R>
typename R::acc reduce_contiguous(const T* p, int64_t n, R r) {
  using acc = typename R::acc;
  constexpr int64_t kLanes = 16, kBlock = 4096;
  acc total = R::identity();
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t m = std::min(kBlock, n - b0);
    const T* q = p + b0;
    acc lane[kLanes];
    for (int64_t j = 0; j < kLanes; ++j) lane[j] = R::identity();
    int64_t k = 0;
    for (; k + kLanes <= m; k += kLanes)
      for (int64_t j = 0; j < kLanes; ++j) lane[j] = r(lane[j], th::load(q + k + j));
    for (; k < m; ++k) lane[0] = r(lane[0], th::load(q + k));
    for (int64_t j = 0; j < kLanes; ++j) total = combine<T, R>(total, lane[j]);
  }
  return total;
}

/// Reduces n contiguous inputs of type In (T itself, or a 16-bit float that T = float accumulates):
/// 16-bit inputs are widened a chunk at a time (the conversion instructions) and reduced as floats; a sum
/// reads them widened in its lanes (vec_sum16, the same bits without the buffer).
template <typename T, typename In, typename R>
typename R::acc reduce_run(const In* p, int64_t n, R r) {
  if constexpr (std::is_same_v<In, T>) {
    return reduce_contiguous<T>(p, n, r);
  } else {
    if constexpr (std::is_same_v<R, math::SumReduce<float>>) {
      if (const cpu::vec_sum16_fn sum16 = cpu::vec_sum16())
        return
            typename R::acc(sum16(std::is_same_v<In, Half> ? cpu::Vec16::Half : cpu::Vec16::BFloat16, p, n));
    }
    const cpu::vec_reduce_fn vec = cpu::vec_reduce();
    typename R::acc total = R::identity();
    cpu::for_each_widened<1024>(p, n, cpu::vec_convert(), [&](const float* buf, int64_t, int64_t m) {
      if constexpr (std::is_same_v<R, math::SumReduce<float>>) {
        total += vec ? typename R::acc(vec(cpu::VecReduce::Sum, buf, m)) : reduce_contiguous<T>(buf, m, r);
      } else {
        total = combine<T, R>(total, reduce_contiguous<T>(buf, m, r));
      }
    });
    return total;
  }
}

/// The reduction of iter's input (element type In: T, or a 16-bit float accumulated in T = float)
/// into its output of type T, which holds the identity on entry.
template <typename T, typename In, typename R>
void reduce_loop(TensorIterator& iter, R r) {
  using acc = typename R::acc;
  constexpr int64_t es = sizeof(T), es_in = sizeof(In);
  bool full = true;  // every dim reduced: one output element
  for (int d = 0; d < iter.ndim(); ++d) full = full && iter.strides(0)[d] == 0;
  const bool dense = full && iter.ndim() == 1 && iter.strides(1)[0] == es_in;
  if constexpr (std::is_same_v<T, float> && std::is_same_v<In, float>) {  // the explicitly vectorized kernel
    cpu::vec_reduce_fn vec = cpu::vec_reduce();
    const bool sum = std::is_same_v<R, math::SumReduce<T>>, max = std::is_same_v<R, math::MaxReduce<T>>,
               min = std::is_same_v<R, math::MinReduce<T>>;
    if (vec && dense && (sum || max || min)) {
      const cpu::VecReduce op = sum ? cpu::VecReduce::Sum : max ? cpu::VecReduce::Max : cpu::VecReduce::Min;
      const float* in = reinterpret_cast<const float*>(iter.data_ptr(1));
      double total = parallel_reduce<double>(
          iter.numel(), kGrainSize, sum ? 0.0 : double(R::identity()),
          [&](int64_t begin, int64_t end) { return vec(op, in + begin, end - begin); },
          [&](double a, double b) { return sum ? a + b : double(R{}(float(a), float(b))); });
      T* out = reinterpret_cast<T*>(iter.data_ptr(0));
      *out = T(combine<T, R>(acc(*out), acc(total)));
      return;
    }
  }
  if (dense) {  // a contiguous input: split it over threads
    const In* in = reinterpret_cast<const In*>(iter.data_ptr(1));
    acc total = parallel_reduce<acc>(
        iter.numel(), kGrainSize, R::identity(),
        [&](int64_t begin, int64_t end) { return reduce_run<T>(in + begin, end - begin, r); },
        [](acc a, acc b) { return combine<T, R>(a, b); });
    T* out = reinterpret_cast<T*>(iter.data_ptr(0));
    *out = T(combine<T, R>(acc(*out), total));
    return;
  }
  auto load = [](const char* p) { return T(th::load(reinterpret_cast<const In*>(p))); };
  const cpu::vec_convert_fn cv = cpu::vec_convert();
  // float rows summed / maxed / minned by the vectorized kernel (rows of a softmax, x.sum(1))
  cpu::vec_reduce_fn vec_row = nullptr;
  cpu::VecReduce row_op = cpu::VecReduce::Sum;
  if constexpr (std::is_same_v<T, float> && std::is_same_v<In, float>) {
    if (std::is_same_v<R, math::SumReduce<T>> || std::is_same_v<R, math::MaxReduce<T>> ||
        std::is_same_v<R, math::MinReduce<T>>) {
      vec_row = cpu::vec_reduce();
      row_op = std::is_same_v<R, math::SumReduce<T>>   ? cpu::VecReduce::Sum
               : std::is_same_v<R, math::MaxReduce<T>> ? cpu::VecReduce::Max
                                                       : cpu::VecReduce::Min;
    }
  }
  iter.for_each([r, load, cv, vec_row, row_op](char** data, const int64_t* strides, int64_t n) {
    const char* in = data[1];
    if (strides[0] == 0) {  // the inner dim is reduced: one accumulator for the row
      T* out = reinterpret_cast<T*>(data[0]);
      acc a = acc(*out);
      if (strides[1] == es_in && vec_row) {
        a = combine<T, R>(a, acc(vec_row(row_op, reinterpret_cast<const float*>(in), n)));
      } else if (strides[1] == es_in) {
        a = combine<T, R>(a, reduce_run<T>(reinterpret_cast<const In*>(in), n, r));
      } else {
        for (int64_t k = 0; k < n; ++k) a = r(a, load(in + k * strides[1]));
      }
      *out = T(a);
    } else if (strides[0] == es && strides[1] == es_in) {  // an outer dim is reduced: rows fold elementwise
      T* __restrict out = reinterpret_cast<T*>(data[0]);
      const In* __restrict src = reinterpret_cast<const In*>(in);
      if constexpr (std::is_same_v<In, T>) {
        for (int64_t k = 0; k < n; ++k) out[k] = T(r(acc(out[k]), th::load(src + k)));
      } else {
        cpu::for_each_widened<1024>(src, n, cv, [&](const float* buf, int64_t b, int64_t m) {
          for (int64_t k = 0; k < m; ++k) out[b + k] = T(r(acc(out[b + k]), buf[k]));
        });
      }
    } else {
      for (int64_t k = 0; k < n; ++k) {
        T* o = reinterpret_cast<T*>(data[0] + k * strides[0]);
        *o = T(r(acc(*o), load(in + k * strides[1])));
      }
    }
  });
}

void reduce_kernel(TensorIterator& iter, math::ReduceOp op) {
  if (iter.dtype(1) != iter.common_dtype()) {  // float16/bfloat16 summed or multiplied in float
    TH_CHECK(iter.common_dtype() == ScalarType::Float && is_reduced_floating_point(iter.dtype(1)),
             "reduce_cpu: unexpected input dtype ", scalar_type_name(iter.dtype(1)));
    auto widened = [&](auto zero) {
      using In = decltype(zero);
      if (op == math::ReduceOp::Sum) return reduce_loop<float, In>(iter, math::SumReduce<float>{});
      TH_CHECK(op == math::ReduceOp::Prod, "reduce_cpu: a 16-bit input only for sum and prod");
      reduce_loop<float, In>(iter, math::ProdReduce<float>{});
    };
    return iter.dtype(1) == ScalarType::Half ? widened(Half()) : widened(BFloat16());
  }
  math::with_reduce_op(op, [&](auto tag) {
    constexpr math::ReduceOp kOp = decltype(tag)::value;
    auto run = [&](auto zero) {
      using T = decltype(zero);
      reduce_loop<T, T>(iter, math::ReducerOf<kOp, T>{});
    };
    if constexpr (math::kReduceComplex<kOp>) {
      TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "reduce_cpu", [&] { run(scalar_t()); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "reduce_cpu", [&] { run(scalar_t()); });
    }
  });
}

void argreduce_kernel(const Tensor& rows, Tensor& values, Tensor& indices, bool is_max) {
  TH_DISPATCH_ALL_TYPES(rows.dtype(), "argreduce_cpu", [&] {
    const int64_t R = rows.sizes()[0], n = rows.sizes()[1];
    const auto* in = reinterpret_cast<const scalar_t*>(rows.data_ptr());
    auto* val = reinterpret_cast<scalar_t*>(values.data_ptr());
    auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
    for (int64_t r = 0; r < R; ++r) {
      const scalar_t* row = in + r * n;
      int64_t best = 0;
      for (int64_t k = 1; k < n; ++k) {
        if (math::better(row[k], row[best], is_max)) best = k;
      }
      val[r] = row[best];
      idx[r] = best;
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(reduce_stub, CPU, reduce_kernel);
TH_REGISTER_KERNEL(argreduce_stub, CPU, argreduce_kernel);

}  // namespace th
