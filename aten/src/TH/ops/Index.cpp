// Index-based ops, all built on two kernels (Index.h): take (read at positions) and put_
// (write or accumulate at positions). Each op computes the logical positions it touches with
// ordinary broadcasting arithmetic on int64 tensors, so every device gets every op. Where a device has the
// row kernels (index_select_stub, index_put_rows_stub: the CPU), index_select, index_add_ and
// _index_put_rows_ of a contiguous tensor copy or add whole slices instead, with no position per element.
#include "Index.h"
#include "../Functions.h"
#include "../Load.h"
#include "../Overlap.h"
#include "../TensorIterator.h"
#include "../Warning.h"

#include <utility>

namespace th {

TH_DEFINE_STUB(take_fn, take_stub);
TH_DEFINE_STUB(index_select_fn, index_select_stub);
TH_DEFINE_STUB(index_put_rows_fn, index_put_rows_stub);
TH_DEFINE_STUB(put_fn, put_stub);
TH_DEFINE_STUB(nonzero_fn, nonzero_stub);

// entry points declared by the generated bindings from their schemas
Tensor take(const Tensor& self, const Tensor& index);
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
Tensor nonzero(const Tensor& self);

namespace {

const Scalar one(int64_t(1));

int64_t to_long(const Tensor& t) {
  Tensor c = to(t, Device(), ScalarType::Long, false, false);
  return *reinterpret_cast<const int64_t*>(c.data_ptr());
}

void check_index_dtype(const char* op, const Tensor& index) {
  TH_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, op,
           "(): Expected dtype int32/int64 for index but got: ", scalar_type_cpp_name(index.dtype()));
}

/// upstream's scatter_gather_dtype_check: an empty index may have any dtype (its wording names no dtype)
void check_scatter_gather_index(const char* op, const Tensor& index) {
  TH_CHECK(index.numel() == 0 || index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, op,
           "(): Expected dtype int32/int64 for index");
}

/// How an op treats its indices, with PyTorch's error for each: take/put_ wrap negative ones
/// (IndexError naming the element count), index_select/index_add refuse them (IndexError "index out
/// of range in self"; upstream's index_select along dim 1 of a matrix or more names the index and the
/// dim's size in a RuntimeError, its index_add along the first or last dim of one the dim), gather/scatter
/// refuse them (RuntimeError naming the dim).
enum class IndexRule { Take, Select, SelectDim1, Gather };

/// `index` as contiguous int64 positions in [0, size) (negative ones wrapped where `rule` allows
/// them); raises `rule`'s error for the first (in order) that is out of range.
Tensor checked_positions(const Tensor& index, int64_t size, int64_t dim, IndexRule rule) {
  Tensor idx = contiguous(to_dtype(index, ScalarType::Long));
  if (idx.numel() == 0) return idx;
  const int64_t lo = to_long(amin(idx, {}, false)), hi = to_long(amax(idx, {}, false));
  const int64_t lowest = rule == IndexRule::Take ? -size : 0;
  if (lo < lowest || hi >= size) {
    const Tensor flat = view(idx, {-1});
    const Tensor outside =
        logical_or(lt(flat, wrap_number(Scalar(lowest))), ge(flat, wrap_number(Scalar(size))));
    const int64_t bad = to_long(take(flat, view(narrow(view(nonzero(outside), {-1}), 0, 0, 1), {})));
    switch (rule) {
      case IndexRule::Take:
        throw IndexError(
            detail::str("out of range: tried to access index ", bad, " on a tensor of ", size, " elements."));
      case IndexRule::Select: throw IndexError("index out of range in self");
      case IndexRule::SelectDim1:
        throw Error(detail::str("INDICES element is out of DATA bounds, id=", bad, " axis_dim=", size));
      case IndexRule::Gather:
        throw Error(detail::str("index ", bad, " is out of bounds for dimension ", dim, " with size ", size));
    }
  }
  if (lo < 0) idx = add(idx, mul(lt(idx, wrap_number(Scalar(int64_t(0)))), wrap_number(Scalar(size))), one);
  return idx;
}

/// arange(n) shaped to run along dim `d` of an `ndim`-dim tensor (size 1 elsewhere).
Tensor along(int64_t n, int64_t d, int64_t ndim, Device device) {
  IntList shape(size_t(ndim), 1);
  shape[size_t(d)] = n;
  return view(arange(Scalar(n), ScalarType::Long, device), shape);
}

/// Row-major positions of `shape`'s elements in a tensor of `full` shape, with the positions
/// along `dim` replaced by `index_along_dim` (broadcast to `shape`).
Tensor positions(const IntList& shape, const IntList& full, int64_t dim, const Tensor& index_along_dim) {
  const int64_t nd = int64_t(shape.size());
  IntList cstride = contiguous_strides(full);
  Tensor pos = mul(index_along_dim, wrap_number(Scalar(cstride.empty() ? 1 : cstride[size_t(dim)])));
  for (int64_t d = 0; d < nd; ++d) {
    if (d == dim) continue;
    pos = add(pos,
              mul(along(shape[size_t(d)], d, nd, index_along_dim.device()),
                  wrap_number(Scalar(cstride[size_t(d)]))),
              one);
  }
  return contiguous(expand(pos, shape));
}

Tensor scatter_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, bool accumulate,
                    bool inplace) {
  // the dim first, as upstream checks it before the dtypes
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  check_scatter_gather_index("scatter", index);
  // upstream names scatter in the message for every op of the family (scatter_add, scatter_reduce)
  TH_CHECK(self.dtype() == src.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
  Tensor out = inplace ? self : clone(self, MemoryFormat::Contiguous);  // upstream's: row-major
  if (index.numel() == 0) return out;                                   // upstream checks no shapes then
  TH_CHECK(index.dim() == self.dim() || (self.dim() == 0 && index.dim() <= 1),
           "Index tensor must have the same number of dimensions as self tensor");
  TH_CHECK(src.dim() == index.dim() || (index.dim() <= 1 && src.dim() <= 1),
           "Index tensor must have the same number of dimensions as src tensor");
  for (int64_t k = 0; k < index.dim(); ++k) {
    TH_CHECK(k == d || index.size(k) <= self.size(k), "Size does not match at dimension ", k,
             " expected index ", shape_str(index.sizes()), " to be no larger than self ",
             shape_str(self.sizes()), " apart from dimension ", d);
    TH_CHECK(index.size(k) <= src.size(k), "Size does not match at dimension ", k, " expected index ",
             shape_str(index.sizes()), " to be no larger than src ", shape_str(src.sizes()));
  }
  Tensor idx = checked_positions(index, self.dim() ? self.size(d) : 1, d, IndexRule::Gather);
  Tensor pos = positions(index.sizes(), self.sizes(), d, idx);
  // the part of src that index covers, in index's shape
  Tensor part = src;
  for (int64_t k = 0; k < index.dim(); ++k) part = narrow(part, k, 0, index.size(k));
  Tensor values = contiguous(to_dtype(part, self.dtype()));
  put_(out, pos, values, accumulate);
  return out;
}

}  // namespace

Tensor take(const Tensor& self, const Tensor& index) {
  TH_CHECK(index.dtype() == ScalarType::Long, "take(): Expected a long tensor for index, but got ",
           scalar_type_name(index.dtype()));
  TH_CHECK(self.device() == index.device(), "take(): self and index expected to be on the same device");
  TH_CHECK_T(IndexError, self.numel() > 0 || index.numel() == 0,
             "take(): tried to take from an empty tensor");
  Tensor pos = checked_positions(index, self.numel(), -1, IndexRule::Take);
  Tensor out = empty_tensor(index.sizes(), self.dtype(), self.device());
  if (pos.numel() > 0) take_stub[self.device().type](self, pos, out);
  return out;
}

Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  TH_CHECK(index.dtype() == ScalarType::Long, "put_(): Expected a long tensor for index, but got ",
           scalar_type_name(index.dtype()));
  TH_CHECK(source.dtype() == self.dtype(),
           "put_(): self and source expected to have the same dtype, but got ",
           "self.dtype = ", scalar_type_name(self.dtype()),
           " and source.dtype = ", scalar_type_name(source.dtype()));
  TH_CHECK_T(IndexError, source.numel() == index.numel(),
             "put_(): Expected source and index to have the same number of ",
             "elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
  Tensor pos = checked_positions(index, self.numel(), -1, IndexRule::Take);
  if (pos.numel() == 0) return self;
  TH_CHECK(!may_overlap(self, source),
           "unsupported operation: some elements of the input tensor and the "
           "written-to tensor refer to a single memory location.");
  put_stub[self.device().type](self, pos, contiguous(source), accumulate);
  self.bump_version();
  return self;
}

namespace {
/// (outer, inner): the products of self's sizes before and after dim d (the row kernels' [outer, size,
/// inner]).
std::pair<int64_t, int64_t> outer_inner(const Tensor& self, int64_t d) {
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.size(k);
  for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.size(k);
  return {outer, inner};
}

/// self's slices idx (in-range int64) along d written (or added) from source's, where a device has the row
/// kernel, self is contiguous and source has self's other sizes; false (nothing done) elsewhere.
bool put_rows(Tensor& self, int64_t d, const Tensor& idx, const Tensor& source, bool accumulate) {
  if (!self.is_contiguous() || self.is_conj() || source.dim() != self.dim() || may_overlap(self, source) ||
      !index_put_rows_stub.table[int(self.device().type)])
    return false;
  for (int64_t k = 0; k < self.dim(); ++k)
    if (k != d && source.size(k) != self.size(k)) return false;
  const auto [outer, inner] = outer_inner(self, d);
  index_put_rows_stub[self.device().type](self, outer, self.size(d), inner, idx,
                                          contiguous(to_dtype(source, self.dtype())), accumulate);
  self.bump_version();
  return true;
}
}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  // the dim first, as upstream checks it before the dtypes
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  TH_CHECK_T(IndexError, index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TH_CHECK(self.dim() > 0 || index.numel() == 1,
           "index_select(): Index to scalar can have only 1 value, got ", index.numel(), " value(s)");
  TH_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int,
           "index_select(): Expected dtype int32 or int64 for index");  // upstream's own wording
  // upstream's CPU paths for a matrix or more: an empty self (its dim must be non-empty) and dim 1 name the
  // index and the dim's size
  const bool empty_self = self.dim() > 1 && self.numel() == 0 && index.numel() > 0;
  TH_CHECK(!empty_self || self.size(d) > 0, "index_select(): self indexing axis dim should be positive");
  const IndexRule rule = self.dim() > 1 && (d == 1 || empty_self) ? IndexRule::SelectDim1 : IndexRule::Select;
  Tensor idx = checked_positions(view(index, {-1}), self.dim() ? self.size(d) : 1, d, rule);
  if (self.dim() == 0) return take(self, view(idx, {}));
  IntList shape = self.sizes();
  shape[size_t(d)] = idx.numel();
  if (self.is_contiguous() && index_select_stub.table[int(self.device().type)] && !self.is_conj()) {
    // row copies of a contiguous self (an embedding's lookup): no position per element
    const auto [outer, inner] = outer_inner(self, d);
    Tensor out = empty_tensor(shape, self.dtype(), self.device());
    if (out.numel() > 0) index_select_stub[self.device().type](self, outer, self.size(d), inner, idx, out);
    return out;
  }
  IntList ishape(size_t(self.dim()), 1);
  ishape[size_t(d)] = idx.numel();
  return take(self, positions(shape, self.sizes(), d, view(idx, ishape)));
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  // the dim first, as upstream checks it before the dtypes
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  check_scatter_gather_index("gather", index);
  // an empty index: an empty result of its shape, its dims and sizes unchecked (upstream's gather meta)
  if (index.numel() == 0) return empty(index.sizes(), self.dtype(), self.device());
  TH_CHECK(index.dim() == self.dim() || (self.dim() == 0 && index.dim() <= 1),
           "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t k = 0; k < index.dim(); ++k)
    TH_CHECK(k == d || index.size(k) <= self.size(k), "Size does not match at dimension ", k,
             " expected index ", shape_str(index.sizes()), " to be no larger than self ",
             shape_str(self.sizes()), " apart from dimension ", d);
  Tensor idx = checked_positions(index, self.dim() ? self.size(d) : 1, d, IndexRule::Gather);
  if (self.dim() == 0) return take(self, idx);
  return take(self, positions(index.sizes(), self.sizes(), d, idx));
}

/// gather with upstream's sparse_grad=: the gradient here is always dense, so only False is taken.
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  TH_CHECK_T(NotImplementedError, !sparse_grad,
             "gather(sparse_grad=True): sparse gradients are not supported (tensors here are dense); use "
             "sparse_grad=False");
  return gather(self, dim, index);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl(self, dim, index, src, false, false);
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_impl(self, dim, index, src, false, true);
  return self;
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  (void)wrap_dim(dim, std::max<int64_t>(self.dim(), 1));  // the dim before the value, as upstream
  return scatter_impl(self, dim, index, expand(scalar_tensor(value, self.dtype()), index.sizes()), false,
                      false);
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  (void)wrap_dim(dim, std::max<int64_t>(self.dim(), 1));  // the dim before the value, as upstream
  scatter_impl(self, dim, index, expand(scalar_tensor(value, self.dtype()), index.sizes()), false, true);
  return self;
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl(self, dim, index, src, true, false);
}
Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_impl(self, dim, index, src, true, true);
  return self;
}

Tensor& index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha) {
  // the dim first, as upstream checks it before the dtypes
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  check_index_dtype("index_add_", index);
  TH_CHECK_T(IndexError, index.dim() <= 1, "index_add_(): Index is supposed to be a vector");
  TH_CHECK(self.dtype() == source.dtype(), "index_add_(): self (", scalar_type_cpp_name(self.dtype()),
           ") and source (", scalar_type_cpp_name(source.dtype()), ") must have the same scalar type");
  const int64_t n = index.numel();
  TH_CHECK(source.dim() == 0 ? n == 1 : source.size(d) == n, "index_add_(): Number of indices (", n,
           ") should be equal to source.size(dim): (", source.dim() ? source.size(d) : 1, "), for dim: ", d);
  // upstream's kernel for more than one dim checks no index when nothing is added
  if (self.dim() > 1 && (n == 0 || self.numel() == 0)) return self;
  // alpha is read at self's dtype, checked, as upstream's alpha.to<scalar_t>() (1.7 is 1 for an integer
  // self), before the indices; but upstream's kernel for a matrix or more checks the first index before it
  // adds (and so converts alpha) the first slice
  const bool unit = !alpha.is_complex() && alpha.to<double>() == 1.0;
  if (self.dim() > 1 && n > 0 && source.numel() > 0 && !unit) {
    const Tensor first =
        contiguous(to(narrow(view(index, {-1}), 0, 0, 1), Device(), ScalarType::Long, false, false));
    const int64_t i0 = *reinterpret_cast<const int64_t*>(first.data_ptr());
    TH_CHECK_T(IndexError, i0 >= 0 && i0 < self.size(d), "index out of range in self");
  }
  const Tensor a = scalar_tensor(alpha, self.dtype());
  if (n == 0 || source.numel() == 0) return self;
  // its error names the dim on its path for an int64 index, a unit alpha (not True: c10's equal(1)) and
  // the first or last dim of a matrix or more; elsewhere "index out of range in self"
  const bool named = self.dim() > 1 && (d == 0 || d == self.dim() - 1) && index.dtype() == ScalarType::Long &&
                     !alpha.is_bool() &&
                     (unit || (alpha.is_complex() && alpha.to_complex() == complex<double>(1)));
  Tensor idx = checked_positions(view(index, {-1}), self.dim() ? self.size(d) : 1, d,
                                 named ? IndexRule::Gather : IndexRule::Select);
  if (self.dim() == 0) {
    Tensor v = contiguous(to_dtype(mul(view(source, {1}), a), self.dtype()));
    return put_(self, idx, v, true);
  }
  Tensor values = unit ? source : mul(source, a);
  if (put_rows(self, d, idx, values, true)) return self;
  IntList ishape(size_t(self.dim()), 1);
  ishape[size_t(d)] = n;
  Tensor pos = positions(source.sizes(), self.sizes(), d, view(idx, ishape));
  return put_(self, pos, contiguous(to_dtype(values, self.dtype())), true);
}

Tensor& _index_put_rows_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         bool accumulate) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  TH_CHECK(self.dim() > 0, "_index_put_rows_: self must have a dim");
  TH_CHECK(self.dtype() == source.dtype(), "_index_put_rows_: source must have self's dtype");
  TH_CHECK(source.dim() == self.dim() && source.size(d) == index.numel(),
           "_index_put_rows_: source must have self's dims, with len(index) slices along dim");
  for (int64_t k = 0; k < self.dim(); ++k)
    TH_CHECK(k == d || source.size(k) == self.size(k),
             "_index_put_rows_: source must have self's other sizes");
  Tensor idx = checked_positions(view(index, {-1}), self.size(d), d, IndexRule::Select);
  if (index.numel() == 0 || put_rows(self, d, idx, source, accumulate)) return self;
  IntList ishape(size_t(self.dim()), 1);
  ishape[size_t(d)] = index.numel();
  Tensor pos = positions(source.sizes(), self.sizes(), d, view(idx, ishape));
  return put_(self, pos, contiguous(source), accumulate);
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  Tensor out = clone(self, MemoryFormat::Contiguous);  // upstream's: row-major
  return index_add_(out, dim, index, source, alpha);
}

Tensor nonzero(const Tensor& self) {
  Tensor mask = contiguous(to(self, self.device(), ScalarType::Bool, false, false));
  Tensor rows = nonzero_stub[self.device().type](mask, self.sizes());
  // upstream's layout: [n, ndim] column-major, each coordinate contiguous (nonzero(as_tuple=True)'s parts)
  return rows.dim() == 2 && rows.size(1) > 1 ? transpose(contiguous(transpose(rows, 0, 1)), 0, 1) : rows;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TH_CHECK(mask.dtype() == ScalarType::Bool,
           "masked_fill_ only supports boolean masks, but got mask with dtype ",
           scalar_type_name(mask.dtype()));
  // upstream fills a row-major clone of the (broadcast) self
  Tensor r = where(mask, scalar_tensor(value, self.dtype()), self);
  return r.is_contiguous() ? r : contiguous(r);
}

Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value) {
  Tensor r = masked_fill(self, mask, value);
  TH_CHECK(r.sizes() == self.sizes(), "masked_fill_: mask of shape ", shape_str(mask.sizes()),
           " cannot be broadcast to self of shape ", shape_str(self.sizes()));
  if (!has_internal_overlap(self)) return copy_(self, r);
  // upstream's kernel writes the value into each selected element and no other: through an expanded self,
  // every element sharing a selected one's memory shows it (and upstream warns)
  TH_WARN(
      "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing "
      "this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar");
  const Tensor at = nonzero(contiguous(expand(mask, self.sizes())));  // [n, ndim]
  if (at.size(0) == 0) return self;
  Tensor pos = zeros({at.size(0)}, ScalarType::Long, self.device());
  int64_t span = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    pos = add(pos, mul(select(at, 1, d), wrap_number(Scalar(self.stride(d)))), one);
    span += (self.size(d) - 1) * self.stride(d);
  }
  Tensor memory = as_strided(self, {span}, {1}, self.storage_offset());
  const Tensor fill = to(scalar_tensor(value, self.dtype()), self.device(), self.dtype(), false, false);
  put_(memory, pos, contiguous(expand(fill, pos.sizes())), false);
  return self;
}

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  TH_CHECK(mask.dtype() == ScalarType::Bool, "masked_select: expected BoolTensor for mask");
  const IntList shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor where_true = nonzero(reshape(contiguous(expand(mask, shape)), {-1}));
  return take(expand(self, shape), contiguous(view(where_true, {-1})));
}

}  // namespace th
