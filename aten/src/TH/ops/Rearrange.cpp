// Ops that rearrange or repeat elements: flip, roll, repeat, tile, tril/triu, diag. Each is one
// copy_ (or masked fill) between views of the input and of a fresh result, so every device and
// dtype the copy kernels have gets them, with no kernel of their own.
#include <algorithm>
#include <vector>

#include "../Functions.h"

namespace th {

// entry points declared by the generated bindings from their schemas
Tensor flip(const Tensor& self, const IntList& dims);
Tensor roll(const Tensor& self, const IntList& shifts, const std::optional<IntList>& dims);
Tensor repeat(const Tensor& self, const IntList& repeats);
Tensor tile(const Tensor& self, const IntList& dims);
Tensor tril(const Tensor& self, int64_t diagonal);
Tensor triu(const Tensor& self, int64_t diagonal);
Tensor& tril_(Tensor& self, int64_t diagonal);
Tensor& triu_(Tensor& self, int64_t diagonal);
Tensor diag(const Tensor& self, int64_t diagonal);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value);

namespace {

/// A fresh contiguous tensor shaped, typed and placed like `self`.
Tensor empty_as(const Tensor& self, const IntList& sizes) {
  return empty_tensor(sizes, self.dtype(), self.device());
}

/// `self` with `shift` (already in [1, n)) wrapped around along dim d, into `out`.
void roll_into(Tensor& out, const Tensor& self, int64_t d, int64_t shift) {
  const int64_t n = self.size(d);
  Tensor head = narrow(out, d, 0, shift), tail = narrow(out, d, shift, n - shift);
  copy_(head, narrow(self, d, n - shift, shift));
  copy_(tail, narrow(self, d, 0, n - shift));
}

/// The mask of the elements tril (lower) or triu leaves out, over the last two dims.
Tensor outside_band(const Tensor& self, int64_t diagonal, bool lower, const char* name) {
  TH_CHECK(self.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
  Tensor rows = view(arange(Scalar(self.size(-2)), ScalarType::Long, self.device()), {-1, 1});
  Tensor cols = arange(Scalar(self.size(-1)), ScalarType::Long, self.device());
  Tensor offset = sub(cols, rows, Scalar(int64_t(1)));  // col - row, broadcast to the matrix
  Tensor bound = wrap_number(Scalar(diagonal));
  return lower ? gt(offset, bound) : lt(offset, bound);
}

}  // namespace

Tensor flip(const Tensor& self, const IntList& dims) {
  // A view that walks the flipped dims backwards (negative strides, kept internal), copied out.
  IntList strides = self.strides();
  int64_t offset = self.storage_offset();
  std::vector<bool> seen(size_t(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
    TH_CHECK(!seen[size_t(d)], "dim ", d, " appears multiple times in the list of dims");
    seen[size_t(d)] = true;
    if (self.dim() == 0 || self.size(d) <= 1) continue;
    offset += (self.size(d) - 1) * strides[size_t(d)];
    strides[size_t(d)] = -strides[size_t(d)];
  }
  Tensor out = empty_like(self, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  copy_(out, make_view(self, self.sizes(), strides, offset));
  return out;
}

Tensor roll(const Tensor& self, const IntList& shifts, const std::optional<IntList>& dims) {
  if (!dims || dims->empty()) {
    TH_CHECK(shifts.size() == 1, "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:0");
    return view(roll(reshape(self, {-1}), shifts, IntList{0}), self.sizes());
  }
  TH_CHECK(shifts.size() == dims->size(), "shifts and dimensions must align. shifts: ", shifts.size(),
           ", dims:", dims->size());
  Tensor out = self;
  bool copied = false;
  for (size_t k = 0; k < shifts.size(); ++k) {
    const int64_t d = wrap_dim((*dims)[k], std::max<int64_t>(self.dim(), 1));
    const int64_t n = self.dim() ? self.size(d) : 1;
    const int64_t shift = n ? ((shifts[k] % n) + n) % n : 0;
    if (shift == 0) continue;
    Tensor rolled = empty_as(self, self.sizes());
    roll_into(rolled, out, d, shift);
    out = rolled;
    copied = true;
  }
  return copied ? out : clone(self, MemoryFormat::Contiguous);
}

Tensor repeat(const Tensor& self, const IntList& repeats) {
  const auto nd = int64_t(repeats.size());
  TH_CHECK(nd >= self.dim(),
           "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  // result viewed as [r0, n0, r1, n1, ...]; self broadcast along every r_i and copied in once
  IntList shape(size_t(nd - self.dim()), 1), target, interleaved, source;
  shape.insert(shape.end(), self.sizes().begin(), self.sizes().end());
  for (int64_t i = 0; i < nd; ++i) {
    target.push_back(repeats[size_t(i)] * shape[size_t(i)]);
    interleaved.insert(interleaved.end(), {repeats[size_t(i)], shape[size_t(i)]});
    source.insert(source.end(), {1, shape[size_t(i)]});
  }
  for (int64_t n : target)
    TH_CHECK(n >= 0, "Trying to create tensor with negative dimension ", n, ": ", shape_str(target));
  Tensor out = empty_as(self, target);
  if (out.numel() == 0) return out;
  Tensor slots = view(out, interleaved);
  copy_(slots, expand(reshape(self, source), interleaved));
  return out;
}

Tensor tile(const Tensor& self, const IntList& dims) {
  // missing leading dims count as 1, as in numpy.tile
  IntList repeats(size_t(std::max<int64_t>(self.dim() - int64_t(dims.size()), 0)), 1);
  repeats.insert(repeats.end(), dims.begin(), dims.end());
  return repeat(self, repeats);
}

// a fresh row-major result, whatever self's layout (upstream's tril/triu)
Tensor tril(const Tensor& self, int64_t diagonal) {
  Tensor out = empty_as(self, self.sizes());
  copy_(out, self);
  masked_fill_(out, outside_band(self, diagonal, true, "tril"), Scalar(int64_t(0)));
  out.storage()->reset_version();
  return out;
}

Tensor triu(const Tensor& self, int64_t diagonal) {
  Tensor out = empty_as(self, self.sizes());
  copy_(out, self);
  masked_fill_(out, outside_band(self, diagonal, false, "triu"), Scalar(int64_t(0)));
  out.storage()->reset_version();
  return out;
}

Tensor& tril_(Tensor& self, int64_t diagonal) {
  return masked_fill_(self, outside_band(self, diagonal, true, "tril"), Scalar(int64_t(0)));
}

Tensor& triu_(Tensor& self, int64_t diagonal) {
  return masked_fill_(self, outside_band(self, diagonal, false, "triu"), Scalar(int64_t(0)));
}

Tensor diag(const Tensor& self, int64_t diagonal) {
  TH_CHECK(self.dim() == 1 || self.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ", self.dim(), "D");
  if (self.dim() == 1) {
    // a zero matrix whose `diagonal`-th diagonal (a strided view) receives self
    const int64_t n = self.size(0), m = n + std::abs(diagonal);
    Tensor out = zeros({m, m}, self.dtype(), self.device());
    const int64_t start = diagonal >= 0 ? diagonal : -diagonal * m;
    Tensor band = make_view(out, {n}, {m + 1}, start);
    copy_(band, self);
    return out;
  }
  const int64_t r = self.size(0), c = self.size(1);
  const int64_t n =
      std::max<int64_t>(diagonal >= 0 ? std::min(r, c - diagonal) : std::min(r + diagonal, c), 0);
  const int64_t start = self.storage_offset() + (n == 0          ? 0
                                                 : diagonal >= 0 ? diagonal * self.stride(1)
                                                                 : -diagonal * self.stride(0));
  return clone(make_view(self, {n}, {self.stride(0) + self.stride(1)}, start));
}

}  // namespace th
