#pragma once
// The one loop abstraction of the CPU and CUDA backends (PyTorch's TensorIterator):
// broadcasts the operands, promotes dtypes, allocates or resizes outputs, checks in-place
// overlap, reorders and coalesces dimensions, and hands kernels byte strides.
#include <vector>

#include "Parallel.h"
#include "Tensor.h"

namespace th {

class TensorIterator;

/// Describes the operands of one op; build() makes the iterator.
class TensorIteratorConfig {
 public:
  /// An output; an undefined tensor is allocated by build().
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  /// Cast inputs to the common dtype (default). Off for ops that convert, like copy_.
  TensorIteratorConfig& promote_inputs(bool on);
  /// Compute in this dtype instead of the promoted one (e.g. sum(dtype=...)).
  TensorIteratorConfig& common_dtype(ScalarType t);
  /// Allocated outputs get this dtype instead of the common one (e.g. comparisons: bool).
  TensorIteratorConfig& output_dtype(ScalarType t);
  /// Outputs keep their shape and inputs broadcast to it (copy_), instead of out= resizing.
  TensorIteratorConfig& resize_outputs(bool on);
  /// Reduce the single input over `dims` into the output (a 1 in each reduced dim).
  TensorIteratorConfig& reduce(const IntList& dims, bool keepdim);
  /// Lay a new output out by every input's own strides, never by those of the dense copy upstream's CPU
  /// iterator casts an input of another dtype into: for an op that casts its inputs itself (where).
  TensorIteratorConfig& layout_as_given(bool on);
  TensorIterator build();

 private:
  friend class TensorIterator;
  std::vector<Tensor> outputs_, inputs_;
  bool promote_inputs_ = true;
  bool resize_outputs_ = true;
  bool layout_as_given_ = false;
  ScalarType common_dtype_ = ScalarType::Undefined;
  ScalarType output_dtype_ = ScalarType::Undefined;
  bool is_reduction_ = false;
  IntList reduce_dims_;
  bool keepdim_ = false;
};

class TensorIterator {
 public:
  /// Operand `i` (outputs first, then inputs) as the kernel sees it.
  struct Operand {
    Tensor tensor;     // what the kernel reads or writes
    Tensor result;     // outputs: the tensor the caller gets back
    Tensor writeback;  // outputs computed in a temporary: where cast_outputs() copies it
    IntList strides;   // byte strides over the iteration shape, innermost first
    Tensor original;   // inputs: the tensor as the op passed it (before promotion or a device move)
  };

  int ndim() const { return static_cast<int>(shape_.size()); }
  /// Iteration shape, innermost dimension first.
  const IntList& shape() const { return shape_; }
  int64_t numel() const { return prod(shape_); }
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return noutputs_; }
  char* data_ptr(int arg) const { return operands_[arg].tensor.data_ptr(); }
  const IntList& strides(int arg) const { return operands_[arg].strides; }
  ScalarType dtype(int arg = 0) const { return operands_[arg].tensor.dtype(); }
  ScalarType common_dtype() const { return common_dtype_; }
  Device device() const { return device_; }
  /// Output `i` as the caller sees it (complete after cast_outputs()).
  const Tensor& output(int i = 0) const { return operands_[i].result; }
  /// True when the iteration is one dense run over every operand (the SIMD fast path).
  bool is_contiguous() const;
  /// Copies results computed in a temporary back into outputs of another dtype.
  void cast_outputs();

  /// True when input `arg` was passed as a 0-dim CPU tensor (a Python number, a CPU scalar),
  /// which may join an op on any device.
  bool is_cpu_scalar(int arg) const {
    const Tensor& t = operands_[arg].original;
    return t.defined() && t.dim() == 0 && t.device().is_cpu();
  }
  /// True when input `arg` is one element over the whole iteration: every stride 0 or its size 1 (a 0-dim,
  /// one-element or expanded tensor; PyTorch's is_scalar).
  bool is_scalar(int arg) const {
    for (int i = 0; i < ndim(); ++i)
      if (operands_[arg].strides[i] != 0 && shape_[i] != 1) return false;
    return true;
  }
  /// The value of input `arg` (one element in CPU memory: a CPU scalar, or an is_scalar operand of a CPU
  /// iteration) as the op passed it, converted to T: not rounded to the common dtype first (a 16-bit mul/div
  /// reads a Python number at float32, as PyTorch's kernels do).
  template <typename T>
  T original_scalar_value(int arg) const {
    const Tensor& t = operands_[arg].original;
    TH_CHECK(t.defined() && t.device().is_cpu() && t.numel() > 0 && is_scalar(arg),
             "original_scalar_value: operand ", arg, " is not one element in CPU memory");
    return TH_DISPATCH_ALL_TYPES_AND_COMPLEX(t.dtype(), "original_scalar_value", [&] {
      return convert<T>(*reinterpret_cast<const scalar_t*>(t.data_ptr()));
    });
  }
  /// Drops input `arg` (a kernel that read a scalar operand's value itself, then runs on the rest).
  void remove_operand(int arg);

  /// Calls loop(char** data, const int64_t* strides, int64_t n) once per innermost row.
  template <typename Loop>
  void for_each(Loop&& loop) const {
    if (numel() == 0) return;
    for_each_rows(0, ndim() ? numel() / shape_[0] : 1, loop);
  }

  /// for_each split across threads. Only for loops whose output elements are distinct
  /// (elementwise ops, copies), never for reductions, whose rows share outputs.
  template <typename Loop>
  void parallel_for_each(Loop&& loop) const {
    if (numel() == 0) return;
    if (ndim() <= 1) {  // one long row: split it
      const int nt = ntensors();
      parallel_for(numel(), kGrainSize, [&](int64_t begin, int64_t end) {
        char* ptrs[16] = {};
        int64_t strides[16] = {};
        for (int i = 0; i < nt; ++i) {
          strides[i] = ndim() ? operands_[i].strides[0] : 0;
          ptrs[i] = data_ptr(i) + begin * strides[i];
        }
        loop(ptrs, strides, end - begin);
      });
      return;
    }
    const int64_t rows = numel() / shape_[0];
    parallel_for(rows, std::max<int64_t>(1, kGrainSize / shape_[0]),
                 [&](int64_t begin, int64_t end) { for_each_rows(begin, end, loop); });
  }

 private:
  friend class TensorIteratorConfig;

  /// Runs `loop` over rows [begin, end) of the iteration space (a row: all of dim 0).
  template <typename Loop>
  void for_each_rows(int64_t begin, int64_t end, Loop& loop) const {
    const int nt = ntensors();
    char* ptrs[16] = {};
    int64_t inner[16] = {};
    for (int i = 0; i < nt; ++i) inner[i] = ndim() ? operands_[i].strides[0] : 0;
    if (ndim() <= 1) {
      for (int i = 0; i < nt; ++i) ptrs[i] = data_ptr(i);
      loop(ptrs, inner, ndim() ? shape_[0] : 1);
      return;
    }
    int64_t counter[TH_MAX_DIMS] = {0};
    for (int64_t r = begin, d = 1; d < ndim(); ++d) {  // row index -> counters of dims 1..
      counter[d] = r % shape_[d];
      r /= shape_[d];
    }
    for (int64_t row = begin; row < end; ++row) {
      for (int i = 0; i < nt; ++i) {
        ptrs[i] = data_ptr(i);
        for (int d = 1; d < ndim(); ++d) ptrs[i] += counter[d] * operands_[i].strides[d];
      }
      loop(ptrs, inner, shape_[0]);
      for (int d = 1; d < ndim() && ++counter[d] == shape_[d]; ++d) counter[d] = 0;
    }
  }
  void compute_shape(const TensorIteratorConfig& cfg);
  void compute_types(const TensorIteratorConfig& cfg);
  void allocate_outputs(const TensorIteratorConfig& cfg);
  void compute_strides();
  void reorder_and_coalesce();

  std::vector<Operand> operands_;
  int noutputs_ = 0;
  IntList shape_;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device device_;
};

/// PyTorch's result type of an op's inputs: dimensioned tensors decide first, then 0-dim
/// tensors, then Python numbers (wrapped numbers), each only able to raise the category
/// (bool < integer < floating), e.g. int32_tensor * 2.5 -> float32, float32 * 2.0 -> float32.
ScalarType result_type(const std::vector<Tensor>& inputs);
/// The broadcast shape of `a` and `b`, or PyTorch's error if they do not broadcast.
IntList broadcast_shapes(const IntList& a, const IntList& b);
/// Makes `t` have `sizes` (contiguous), reallocating its storage only if it is too small.
void resize_(const Tensor& t, const IntList& sizes);

/// Whether a binary kernel of a 16-bit float reads its second input at opmath_t (float32) rather
/// than at the common dtype: it is a CPU scalar (a Python number, a 0-dim CPU tensor), which
/// PyTorch's mul and div kernels read once, at float32, so that the result is rounded only once.
inline bool scalar_at_opmath(const TensorIterator& iter) {
  return is_reduced_floating_point(iter.common_dtype()) && iter.ntensors() == 3 && iter.is_cpu_scalar(2);
}

}  // namespace th
