// Entry points of the padding family: _pad_nd (constant, reflect, replicate, circular padding of the last
// 1-3 dims, negative amounts cropping) and its backward. torch.nn.functional.pad checks the arguments as
// PyTorch does and calls _pad_nd.
#include <algorithm>
#include <utility>

#include <TH/Functions.h>

#include "../Functions.h"
#include "Padding.h"

namespace th {

TH_DEFINE_STUB(pad_fn, pad_stub);
TH_DEFINE_STUB(pad_backward_fn, pad_backward_stub);

namespace {

math::PadMode pad_mode(const std::string& mode) {
  if (mode == "constant") return math::PadMode::Constant;
  if (mode == "reflect") return math::PadMode::Reflect;
  if (mode == "replicate") return math::PadMode::Replicate;
  TH_CHECK(mode == "circular", "Unrecognised padding mode ", mode);
  return math::PadMode::Circular;
}

/// The geometry of padding the last pad.size() / 2 dims of a tensor of `sizes` (pad: (left, right) of the
/// last dim first, as F.pad), checked as PyTorch does.
math::PadGeometry geometry(const IntList& sizes, const IntList& pad, math::PadMode mode) {
  const int64_t n = int64_t(pad.size()) / 2, dim = int64_t(sizes.size());
  TH_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  TH_CHECK(n >= 1 && n <= 3 && n <= dim,
           "Padding length should be less than or equal to two times the input ",
           "dimension but got padding length ", pad.size(), " and input of dimension ", dim);
  math::PadGeometry g{};
  g.mode = mode;
  for (int64_t k = 0; k < 3; ++k) {
    const int64_t p = 2 - k;  // this geometry dim's pair in `pad`: the last dim's pair comes first
    if (p >= n) {
      g.in[k] = g.out[k] = 1;
      g.left[k] = 0;
      continue;
    }
    const int64_t size = sizes[size_t(dim - 1 - p)], left = pad[size_t(2 * p)],
                  right = pad[size_t(2 * p + 1)];
    g.in[k] = size;
    g.left[k] = left;
    g.out[k] = size + left + right;
    TH_CHECK(g.out[k] >= 0, "The input size ", size, ", plus negative padding ", left, " and ", right,
             " resulted in a negative output size, which is invalid. Check dimension ", dim - 1 - p,
             " of your input.");
    if (mode == math::PadMode::Reflect)
      TH_CHECK(left < size && right < size,
               "Argument #4: Padding size should be less than the corresponding ",
               "input dimension, but got: padding (", left, ", ", right, ") at dimension ", dim - 1 - p,
               " of input ", shape_str(sizes));
    if (mode == math::PadMode::Circular)
      TH_CHECK(left <= size && right <= size, "Padding value causes wrapping around more than once.");
    if (mode != math::PadMode::Constant && g.out[k] > 0)
      TH_CHECK(size > 0, "Expected padded dimension ", dim - 1 - p, " of input ", shape_str(sizes),
               " to be non-empty for ", mode == math::PadMode::Reflect ? "reflect" : "non-constant",
               " padding");
  }
  return g;
}

/// Circular padding crops first, then wraps around what is left (PyTorch's order): the negative amounts of
/// `pad`, as (the input narrowed by them, the pad without them).
std::pair<Tensor, IntList> crop_for_circular(const Tensor& self, const IntList& pad) {
  Tensor x = self;
  IntList rest = pad;
  for (size_t p = 0; p < pad.size() / 2; ++p) {
    const int64_t d = self.dim() - 1 - int64_t(p), lo = std::max<int64_t>(-pad[2 * p], 0),
                  hi = std::max<int64_t>(-pad[2 * p + 1], 0);
    if (lo == 0 && hi == 0) continue;
    TH_CHECK(lo + hi <= x.size(d), "The input size ", x.size(d), ", plus negative padding ", pad[2 * p],
             " and ", pad[2 * p + 1],
             " resulted in a negative output size, which is invalid. Check dimension ", d, " of your input.");
    x = narrow(x, d, lo, x.size(d) - lo - hi);
    rest[2 * p] = std::max<int64_t>(pad[2 * p], 0);
    rest[2 * p + 1] = std::max<int64_t>(pad[2 * p + 1], 0);
  }
  return {x, rest};
}

bool has_negative(const IntList& pad) {
  return std::any_of(pad.begin(), pad.end(), [](int64_t p) { return p < 0; });
}

}  // namespace

Tensor _pad_nd(const Tensor& self, const IntList& pad, const std::string& mode, double value) {
  if (pad_mode(mode) == math::PadMode::Circular && has_negative(pad) && pad.size() % 2 == 0) {
    auto [cropped, rest] = crop_for_circular(self, pad);
    return _pad_nd(cropped, rest, mode, value);
  }
  const math::PadGeometry g = geometry(self.sizes(), pad, pad_mode(mode));
  const int64_t n = int64_t(pad.size()) / 2;
  IntList shape = self.sizes();
  for (int64_t p = 0; p < n; ++p) shape[shape.size() - 1 - size_t(p)] = g.out[2 - p];
  Tensor out = empty_tensor(shape, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor x = contiguous(self);
  pad_stub[self.device().type](x, out, g, Scalar(value));
  return out;
}

Tensor _pad_nd_backward(const Tensor& grad_output, const IntList& input_size, const IntList& pad,
                        const std::string& mode) {
  if (is_reduced_floating_point(grad_output.dtype()) && mode != "constant")  // add in float, round once
    return to_dtype(_pad_nd_backward(to_dtype(grad_output, ScalarType::Float), input_size, pad, mode),
                    grad_output.dtype());
  if (pad_mode(mode) == math::PadMode::Circular && has_negative(pad) && pad.size() % 2 == 0) {
    // the gradient of the cropped input, put back in place with zeros where the crop cut
    const Tensor full = empty_tensor(input_size, grad_output.dtype(), grad_output.device());
    auto [cropped, rest] = crop_for_circular(full, pad);
    IntList uncrop(pad.size());
    for (size_t k = 0; k < pad.size(); ++k) uncrop[k] = std::max<int64_t>(-pad[k], 0);
    return _pad_nd(_pad_nd_backward(grad_output, cropped.sizes(), rest, mode), uncrop, "constant", 0.0);
  }
  const math::PadGeometry g = geometry(input_size, pad, pad_mode(mode));
  if (g.mode ==
      math::PadMode::Constant) {  // the adjoint of constant padding is padding by the negated amounts
    IntList negated(pad.size());
    for (size_t k = 0; k < pad.size(); ++k) negated[k] = -pad[k];
    return _pad_nd(grad_output, negated, mode, 0.0);
  }
  const int64_t n = int64_t(pad.size()) / 2, dim = int64_t(input_size.size());
  Tensor grad = contiguous(grad_output);
  // one padded dim at a time, the last first: [outer, L, inner] -> [outer, size, inner]
  for (int64_t p = 0; p < n; ++p) {
    const int64_t d = dim - 1 - p, k = 2 - p;
    IntList shape = grad.sizes();
    shape[size_t(d)] = g.in[k];
    Tensor next = empty_tensor(shape, grad.dtype(), grad.device());
    if (next.numel() > 0 && grad.numel() > 0) {
      pad_backward_stub[grad.device().type](grad, next, d, g.left[k], g.mode);
    } else if (next.numel() > 0) {
      fill_(next, Scalar(int64_t(0)));
    }
    grad = next;
  }
  return grad;
}

}  // namespace th
