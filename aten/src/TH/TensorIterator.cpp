#include "TensorIterator.h"

#include <algorithm>
#include <numeric>

#include "Functions.h"
#include "Overlap.h"

namespace th {

IntList broadcast_shapes(const IntList& a, const IntList& b) {
  size_t n = std::max(a.size(), b.size());
  IntList out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    TH_CHECK(da == db || da == 1 || db == 1, "The size of tensor a (", da,
             ") must match the size of tensor b (", db, ") at non-singleton dimension ", i);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

void resize_(const Tensor& t, const IntList& sizes) {
  TensorImpl* impl = t.impl();
  if (impl->sizes == sizes) return;
  IntList strides = contiguous_strides(sizes);
  // checked against a storage as big as any int64 size allows: negative and overflowing sizes raise
  check_in_storage(sizes, strides, t.storage_offset(), t.element_size(), size_t(INT64_MAX));
  const size_t needed = size_t(t.storage_offset() + prod(sizes)) * t.element_size();
  if (needed > impl->storage->nbytes()) {
    impl->storage = std::make_shared<StorageImpl>(needed, t.device());
  }
  impl->sizes = sizes;
  impl->strides = std::move(strides);
}

namespace {
// c10's categories, lowest first: bool, integers, floating, complex.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_complex(higher)) return higher;
  if (is_complex(lower)) return is_floating_point(higher) ? to_complex_type(higher) : lower;  // keeps float64
  if (is_floating_point(higher)) return higher;
  if (higher == ScalarType::Bool || is_floating_point(lower)) return promote_skip_undefined(higher, lower);
  return higher != ScalarType::Undefined ? higher : lower;
}
}  // namespace

ScalarType result_type(const std::vector<Tensor>& inputs) {
  ScalarType dim = ScalarType::Undefined, zero = ScalarType::Undefined, wrapped = ScalarType::Undefined;
  for (const Tensor& t : inputs) {
    ScalarType cur = t.dtype();
    if (t.impl()->wrapped_number) {
      // a Python float is of the default dtype, a Python complex of its complex counterpart
      if (is_floating_point(cur)) cur = get_default_dtype();
      if (is_complex(cur)) cur = to_complex_type(get_default_dtype());
      wrapped = promote_skip_undefined(wrapped, cur);
    } else if (t.dim() == 0) {
      zero = promote_skip_undefined(zero, cur);
    } else {
      dim = promote_skip_undefined(dim, cur);
    }
  }
  return combine_categories(dim, combine_categories(zero, wrapped));
}

// ---- config ----------------------------------------------------------------------------

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  if (outputs_.empty()) outputs_.reserve(2);  // one allocation for the usual one or two
  outputs_.push_back(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  TH_CHECK(t.defined(), "expected a defined tensor as input");
  if (inputs_.empty()) inputs_.reserve(3);  // one allocation for the usual one to three
  inputs_.push_back(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_inputs(bool on) {
  promote_inputs_ = on;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::resize_outputs(bool on) {
  resize_outputs_ = on;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::layout_as_given(bool on) {
  layout_as_given_ = on;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::common_dtype(ScalarType t) {
  common_dtype_ = t;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::output_dtype(ScalarType t) {
  output_dtype_ = t;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::reduce(const IntList& dims, bool keepdim) {
  is_reduction_ = true;
  reduce_dims_ = dims;
  keepdim_ = keepdim;
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TH_CHECK(outputs_.size() + inputs_.size() <= 16, "TensorIterator: too many operands");
  // a conjugate view's values are not its memory's: the bindings resolve it (torch/csrc/Conj.h) and copy_ and
  // fill_ write its physical view, so one reaching here is a missed path, refused rather than misread
  auto unresolved = [](const Tensor& t) { return t.defined() && t.is_conj(); };
  TH_CHECK(std::none_of(inputs_.begin(), inputs_.end(), unresolved) &&
               std::none_of(outputs_.begin(), outputs_.end(), unresolved),
           "internal error: a tensor with the conjugate bit reached a kernel unresolved (call resolve_conj() "
           "on it "
           "first, and please report this)");
  TensorIterator it;
  it.noutputs_ = static_cast<int>(outputs_.size());
  it.compute_shape(*this);
  it.compute_types(*this);
  it.allocate_outputs(*this);
  it.compute_strides();
  it.reorder_and_coalesce();
  return it;
}

// ---- build steps -----------------------------------------------------------------------

void TensorIterator::compute_shape(const TensorIteratorConfig& cfg) {
  if (cfg.is_reduction_) {
    TH_CHECK(cfg.inputs_.size() == 1, "a reduction takes one input");
    shape_ = cfg.inputs_[0].sizes();
  } else if (cfg.inputs_.empty()) {  // e.g. fill_: the output is the shape
    shape_ = cfg.outputs_.at(0).sizes();
  } else {
    for (const Tensor& t : cfg.inputs_) shape_ = broadcast_shapes(shape_, t.sizes());
    if (!cfg.resize_outputs_)
      for (const Tensor& t : cfg.outputs_)
        if (t.defined()) shape_ = broadcast_shapes(shape_, t.sizes());
  }
  // The device: a given output's, else the first input's that is not a CPU scalar. 0-dim CPU
  // inputs (e.g. Python numbers) may join ops on any device, as in PyTorch.
  auto cpu_scalar = [](const Tensor& t) { return t.dim() == 0 && t.device().is_cpu(); };
  device_ = cfg.inputs_.empty() ? cfg.outputs_.at(0).device() : cfg.inputs_[0].device();
  for (const Tensor& t : cfg.inputs_) {
    if (!cpu_scalar(t)) {
      device_ = t.device();
      break;
    }
  }
  for (const Tensor& t : cfg.outputs_) {
    if (t.defined()) device_ = t.device();
  }
  auto mismatch = [&](const Tensor& t) {
    return Error(
        detail::str("Expected all tensors to be on the same device, but found at least two devices, ",
                    device_.str(), " and ", t.device().str(), "!"));
  };
  for (const Tensor& t : cfg.inputs_) {
    if (t.device() != device_ && !cpu_scalar(t)) throw mismatch(t);
  }
  for (const Tensor& t : cfg.outputs_) {
    if (t.defined() && t.device() != device_) throw mismatch(t);
  }
}

void TensorIterator::compute_types(const TensorIteratorConfig& cfg) {
  common_dtype_ = cfg.common_dtype_;
  if (common_dtype_ == ScalarType::Undefined) common_dtype_ = result_type(cfg.inputs_);
  if (common_dtype_ == ScalarType::Undefined) common_dtype_ = cfg.outputs_.at(0).dtype();
  operands_.reserve(cfg.outputs_.size() + cfg.inputs_.size());  // allocate_outputs puts the outputs in front
  for (const Tensor& t : cfg.inputs_) {
    Tensor in = t;
    if (cfg.promote_inputs_ && t.dtype() != common_dtype_) in = to_dtype(t, common_dtype_);
    // a CPU scalar joining an op on another device: move its one element there, queued on the
    // current stream without waiting for it (a small copy from pageable memory is staged before the
    // call returns, so the host tensor may go at once; waiting stalled the host on every `x * 2`).
    // A pinned one is read by the GPU later: that copy waits, so the op sees the value of now.
    if (in.device() != device_) in = to(in, device_, std::nullopt, /*non_blocking=*/!is_pinned(in), false);
    operands_.push_back({in, Tensor(), Tensor(), {}, t});
  }
}

namespace {
/// Upstream's layout of an elementwise op's new output (TensorIteratorBase's fast setup, then
/// reorder_dimensions): when every operand has the result's shape and they are all row-major, all
/// channels-last, or all dense with one set of strides, those strides; else dense strides in the order the
/// operands' strides give the dims (innermost first; for each pair of dims the first operand whose strides
/// there differ and are not broadcast decides, equal strides put the smaller dim inside), so `2.0 / x.T`
/// and `x.T + y` are laid out as x.T is.
IntList output_strides(const IntList& shape, const std::vector<const Tensor*>& operands) {
  const auto nd = static_cast<int64_t>(shape.size());
  const bool same_shape =
      std::all_of(operands.begin(), operands.end(), [&](const Tensor* t) { return t->sizes() == shape; });
  if (same_shape && !operands.empty()) {
    auto all = [&](auto pred) { return std::all_of(operands.begin(), operands.end(), pred); };
    if (all([](const Tensor* t) { return t->is_contiguous(); })) return contiguous_strides(shape);
    for (MemoryFormat f : {MemoryFormat::ChannelsLast, MemoryFormat::ChannelsLast3d})
      if (all([&](const Tensor* t) { return t->is_contiguous(f); })) return format_strides(shape, f);
    const IntList& first = operands[0]->strides();
    if (all([&](const Tensor* t) { return t->strides() == first && non_overlapping_and_dense(*t); }))
      return first;
  }
  std::vector<IntList> strides;  // each operand's strides broadcast to shape (0 in a broadcast dim)
  for (const Tensor* t : operands) {
    IntList st(size_t(nd), 0);
    const int64_t off = nd - t->dim();
    for (int64_t d = 0; d < t->dim(); ++d) {
      const int64_t n = t->sizes()[size_t(d)];
      st[size_t(off + d)] = (n == 1 && shape[size_t(off + d)] != 1) ? 0 : t->strides()[size_t(d)];
    }
    strides.push_back(std::move(st));
  }
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (const IntList& st : strides) {
      const int64_t s0 = st[size_t(d0)], s1 = st[size_t(d1)];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape[size_t(d0)] > shape[size_t(d1)]) return 1;
    }
    return 0;
  };
  std::vector<int64_t> perm(static_cast<size_t>(nd));  // innermost first, from row-major
  for (int64_t i = 0; i < nd; ++i) perm[size_t(i)] = nd - 1 - i;
  for (int64_t i = 1; i < nd; ++i) {  // an insertion sort that looks past ambiguous pairs (upstream's)
    int64_t d1 = i;
    for (int64_t d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[size_t(d0)], perm[size_t(d1)]);
      if (c > 0) {
        std::swap(perm[size_t(d0)], perm[size_t(d1)]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  IntList out(static_cast<size_t>(nd));
  int64_t stride = 1;
  for (int64_t d : perm) {
    out[size_t(d)] = stride;
    stride *= std::max<int64_t>(shape[size_t(d)], 1);
  }
  return out;
}
}  // namespace

void TensorIterator::allocate_outputs(const TensorIteratorConfig& cfg) {
  // For a reduction the kernel writes through a view with a 1 in each reduced dim;
  // the caller's tensor drops those dims unless keepdim.
  IntList kernel_shape = shape_, result_shape = shape_;
  if (cfg.is_reduction_) {
    const auto nd = static_cast<int64_t>(shape_.size());
    std::vector<bool> reduced(shape_.size(), cfg.reduce_dims_.empty());
    for (int64_t d : cfg.reduce_dims_) {
      int64_t w = wrap_dim(d, nd);
      if (nd == 0) continue;
      TH_CHECK(!reduced[w], "dim ", w, " appears multiple times in the list of dims");
      reduced[w] = true;
    }
    result_shape.clear();
    for (int64_t d = 0; d < nd; ++d) {
      if (reduced[d]) kernel_shape[d] = 1;
      if (!reduced[d] || cfg.keepdim_) result_shape.push_back(kernel_shape[d]);
    }
  }
  auto kernel_view = [&](const Tensor& r) {
    return r.sizes() == kernel_shape
               ? r
               : make_view(r, kernel_shape, contiguous_strides(kernel_shape), r.storage_offset());
  };
  // the operands whose strides lay out a new output: upstream's CPU iterator first casts an input of another
  // dtype into a copy that is dense (its own layout where it is dense, else the order its strides give: an
  // expanded input's copy is row-major), so the copy's strides are what it compares; its CUDA one does not
  std::vector<Tensor> cast_layouts;  // metadata only (no storage): the copies' sizes and strides
  auto layout_operands = [&]() {
    cast_layouts.clear();
    std::vector<const Tensor*> ops;
    for (const Tensor& t : cfg.outputs_)
      if (t.defined() && t.sizes() == result_shape) ops.push_back(&t);
    for (const Tensor& t : cfg.inputs_) {
      if (cfg.promote_inputs_ && !cfg.layout_as_given_ && device_.type == DeviceType::CPU && t.dim() > 0 &&
          t.dtype() != common_dtype_ && !non_overlapping_and_dense(t)) {
        // reserved before the first copy (no heap allocation for ops without one), so that no later
        // emplace_back moves the copies that ops already points to
        if (cast_layouts.capacity() < cfg.inputs_.size()) cast_layouts.reserve(cfg.inputs_.size());
        auto copy = std::make_shared<TensorImpl>();
        copy->sizes = t.sizes();
        copy->strides = output_strides(t.sizes(), {&t});
        copy->dtype = common_dtype_;
        cast_layouts.emplace_back(std::move(copy));
        ops.push_back(&cast_layouts.back());
      } else {
        ops.push_back(&t);
      }
    }
    return ops;
  };
  std::vector<Operand> outs;
  outs.reserve(cfg.outputs_.size());
  for (const Tensor& given : cfg.outputs_) {
    ScalarType want = cfg.output_dtype_ != ScalarType::Undefined ? cfg.output_dtype_ : common_dtype_;
    Operand op;
    if (!given.defined()) {
      op.result = empty_tensor(result_shape, want, device_);
      // the layout the operands give: a permutation of dense strides over the same storage, set on the new
      // tensor itself (no second view of it)
      if (!cfg.is_reduction_ && !cfg.inputs_.empty())
        op.result.impl()->strides = output_strides(result_shape, layout_operands());
      op.tensor = kernel_view(op.result);
      outs.push_back(std::move(op));
      continue;
    }
    // an in-place op's self is never resized, empty or not (may_overlap is false for empty tensors)
    const bool aliases_input = std::any_of(cfg.inputs_.begin(), cfg.inputs_.end(), [&](const Tensor& t) {
      return t.is_same(given) || may_overlap(t, given);
    });
    if (given.sizes() != result_shape) {
      TH_CHECK(!aliases_input && cfg.resize_outputs_, "output with shape ", shape_str(given.sizes()),
               " doesn't match the broadcast shape ", shape_str(result_shape));
      // a resized out takes the layout a new output would have (upstream restrides it so): dense in that
      // order over the elements resize_ makes room for
      const bool restride = !cfg.is_reduction_ && !cfg.inputs_.empty();
      const IntList strides = restride ? output_strides(result_shape, layout_operands()) : IntList();
      resize_(given, result_shape);
      if (restride) given.impl()->strides = strides;
    }
    assert_no_internal_overlap(given);
    for (const Tensor& in : cfg.inputs_) {
      bool identical =
          in.data_ptr() == given.data_ptr() && in.strides() == given.strides() && in.sizes() == given.sizes();
      TH_CHECK(!may_overlap(in, given) || (identical && !cfg.is_reduction_),
               "unsupported operation: some elements of the input tensor and the written-to tensor "
               "refer to a single memory location. Please clone() the tensor before performing the "
               "operation.");
    }
    TH_CHECK(can_cast(want, given.dtype()), "result type ", scalar_type_cpp_name(want),
             " can't be cast to the desired output type ", scalar_type_cpp_name(given.dtype()));
    op.result = given;
    if (given.dtype() == want) {
      op.tensor = kernel_view(given);
    } else {  // compute in `want`, cast into the caller's tensor afterwards
      op.tensor = empty_tensor(kernel_shape, want, device_);
      op.writeback = kernel_view(given);
    }
    given.bump_version();
    outs.push_back(std::move(op));
  }
  operands_.insert(operands_.begin(), outs.begin(), outs.end());
}

void TensorIterator::compute_strides() {
  const size_t nd = shape_.size();
  for (Operand& op : operands_) {
    const Tensor& t = op.tensor;
    const size_t offset = nd - t.sizes().size();
    const auto es = static_cast<int64_t>(t.element_size());
    op.strides.assign(nd, 0);
    for (size_t d = 0; d < t.sizes().size(); ++d) {
      if (t.sizes()[d] != 1) op.strides[offset + d] = t.strides()[d] * es;
    }
    std::reverse(op.strides.begin(), op.strides.end());  // innermost first
  }
  std::reverse(shape_.begin(), shape_.end());
}

void TensorIterator::reorder_and_coalesce() {
  const int nd = ndim();
  if (nd <= 1) return;
  // Order dims so that the smallest strides are innermost: the first operand with a
  // non-zero stride in both dims decides (broadcast and reduced dims never do).
  std::vector<int> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  auto more_inner = [&](int a, int b) {
    for (const Operand& op : operands_) {
      int64_t sa = op.strides[a], sb = op.strides[b];
      if (sa == 0 || sb == 0) continue;
      if (sa != sb) return sa < sb;
    }
    return false;
  };
  for (int i = 1; i < nd; ++i) {
    for (int j = i; j > 0 && more_inner(perm[j], perm[j - 1]); --j) std::swap(perm[j], perm[j - 1]);
  }
  auto apply = [&](IntList& v) {
    IntList old = v;
    for (int i = 0; i < nd; ++i) v[i] = old[perm[i]];
  };
  apply(shape_);
  for (Operand& op : operands_) apply(op.strides);

  // Merge neighbours that form one linear run in every operand.
  int prev = 0;
  for (int d = 1; d < nd; ++d) {
    bool merge = shape_[prev] == 1 || shape_[d] == 1;
    if (!merge) {
      merge = true;
      for (const Operand& op : operands_) merge = merge && op.strides[prev] * shape_[prev] == op.strides[d];
    }
    if (merge) {
      if (shape_[prev] == 1)
        for (Operand& op : operands_) op.strides[prev] = op.strides[d];
      shape_[prev] *= shape_[d];
    } else if (++prev != d) {
      for (Operand& op : operands_) op.strides[prev] = op.strides[d];
      shape_[prev] = shape_[d];
    }
  }
  shape_.resize(prev + 1);
  for (Operand& op : operands_) op.strides.resize(prev + 1);
}

bool TensorIterator::is_contiguous() const {
  if (ndim() > 1) return false;
  for (const Operand& op : operands_) {
    if (ndim() == 1 && op.strides[0] != static_cast<int64_t>(op.tensor.element_size())) return false;
  }
  return true;
}

void TensorIterator::remove_operand(int arg) {
  TH_CHECK(arg >= noutputs_ && arg < ntensors(), "remove_operand: ", arg, " is not an input");
  operands_.erase(operands_.begin() + arg);
}

void TensorIterator::cast_outputs() {
  for (int i = 0; i < noutputs_; ++i) {
    Operand& op = operands_[i];
    if (op.writeback.defined()) copy_(op.writeback, op.tensor);
  }
}

}  // namespace th
