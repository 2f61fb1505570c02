// Entry points of the pooling family: max pooling with indices and average pooling, 1-D to 3-D (kernel,
// stride (default: the kernel), padding, dilation, ceil_mode, count_include_pad, divisor_override), forward
// and backward, on batched [N, C, *S] or unbatched [C, *S] input; torch.nn.functional's max_pool*d /
// avg_pool*d call them with the number of spatial dims they expect. Adaptive and fractional max pooling
// below.
#include <TH/Functions.h>

#include "../Functions.h"
#include "Pooling.h"

namespace th {

TH_DEFINE_STUB(max_pool_fn, max_pool_stub);
TH_DEFINE_STUB(fractional_max_pool_fn, fractional_max_pool_stub);
TH_DEFINE_STUB(adaptive_pool_fn, adaptive_pool_stub);
TH_DEFINE_STUB(adaptive_avg_pool_backward_fn, adaptive_avg_pool_backward_stub);
TH_DEFINE_STUB(max_pool_backward_fn, max_pool_backward_stub);
TH_DEFINE_STUB(avg_pool_fn, avg_pool_stub);
TH_DEFINE_STUB(avg_pool_backward_fn, avg_pool_backward_stub);

namespace {

IntList per_dim(const IntList& v, int64_t dims, const IntList& fallback, const char* what) {
  if (v.empty()) return fallback;
  if (v.size() == 1) return IntList(size_t(dims), v[0]);
  TH_CHECK(int64_t(v.size()) == dims, "pooling: ", what, " must either be a single int, or a tuple of ", dims,
           " ints");
  return v;
}

/// PyTorch's pooling output size: floor (or ceil, where the last window starts inside the input or its
/// left padding) of the windows that fit.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span < 0 ? (span - stride + 1) / stride : span / stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

math::ConvGeometry geometry(const Tensor& self, int64_t dims, const IntList& kernel_size,
                            const IntList& stride_, const IntList& padding_, const IntList& dilation_,
                            bool ceil_mode, const char* op) {
  TH_CHECK(self.dim() == dims + 1 || self.dim() == dims + 2, op, ": Expected ", dims + 1, "D or ", dims + 2,
           "D (batch mode) tensor with optional 0 dim batch size for input, but got:", self.dim(), "D");
  const IntList k = per_dim(kernel_size, dims, {}, "kernel_size");
  TH_CHECK(!k.empty(), op, ": kernel_size must either be a single int, or a tuple of ", dims, " ints");
  const IntList s = per_dim(stride_, dims, k, "stride"),
                p = per_dim(padding_, dims, IntList(size_t(dims), 0), "padding"),
                d = per_dim(dilation_, dims, IntList(size_t(dims), 1), "dilation");
  math::ConvGeometry g{};
  g.C = 1;
  bool too_small = false;
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t sd = i - (3 - dims);  // the pooled dim, or < 0 for a padded leading dim
    if (sd < 0) {
      g.in[i] = g.k[i] = g.out[i] = g.stride[i] = g.dil[i] = 1;
      g.pad[i] = 0;
      continue;
    }
    const size_t j = size_t(sd);
    TH_CHECK(k[j] > 0, op, ": kernel_size must be greater than zero, but got ", k[j]);
    TH_CHECK(s[j] > 0, op, ": stride must be greater than zero, but got ", s[j]);
    TH_CHECK(d[j] > 0, op, ": dilation must be greater than zero, but got ", d[j]);
    TH_CHECK(p[j] >= 0 && p[j] <= ((k[j] - 1) * d[j] + 1) / 2,
             "pad should be at most half of effective kernel size, "
             "but got pad=",
             p[j], ", kernel_size=", k[j], " and dilation=", d[j]);
    g.in[i] = self.size(self.dim() - dims + sd);
    g.k[i] = k[j];
    g.stride[i] = s[j];
    g.pad[i] = p[j];
    g.dil[i] = d[j];
    g.out[i] = pooled_size(g.in[i], k[j], p[j], s[j], d[j], ceil_mode);
    too_small = too_small || g.out[i] < 1;
  }
  if (too_small) {
    std::string in_s = std::to_string(self.size(self.dim() - dims - 1)), out_s = in_s;
    for (int64_t i = 3 - dims; i < 3; ++i) {
      in_s += "x" + std::to_string(g.in[i]);
      out_s += "x" + std::to_string(g.out[i]);
    }
    TH_CHECK(false, "Given input size: (", in_s, "). Calculated output size: (", out_s,
             "). Output size is too small");
  }
  TH_CHECK(is_floating_point(self.dtype()), "\"", op, "\" not implemented for '",
           scalar_type_cpp_name(self.dtype()), "'");
  return g;
}

/// The dtype the pooling backward kernels add gradients in: float for 16-bit input (an output's several adds
/// into one element would round each time), else the input's.
ScalarType grad_dtype(const Tensor& self) {
  return is_reduced_floating_point(self.dtype()) ? ScalarType::Float : self.dtype();
}

IntList pooled_shape(const Tensor& self, int64_t dims, const math::ConvGeometry& g) {
  IntList s(self.sizes().begin(), self.sizes().end() - dims);
  for (int64_t i = 3 - dims; i < 3; ++i) s.push_back(g.out[i]);
  return s;
}

}  // namespace

std::tuple<Tensor, Tensor> _max_pool_nd(const Tensor& self, int64_t dims, const IntList& kernel_size,
                                        const IntList& stride, const IntList& padding,
                                        const IntList& dilation, bool ceil_mode) {
  const math::ConvGeometry g =
      geometry(self, dims, kernel_size, stride, padding, dilation, ceil_mode, "max_pool");
  const Tensor x = contiguous(self);
  const IntList shape = pooled_shape(self, dims, g);
  Tensor out = empty_tensor(shape, x.dtype(), x.device()),
         idx = empty_tensor(shape, ScalarType::Long, x.device());
  if (out.numel() > 0) max_pool_stub[x.device().type](x, out, idx, g);
  return {out, idx};
}

Tensor _max_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                             const IntList& kernel_size, const IntList& stride, const IntList& padding,
                             const IntList& dilation, bool ceil_mode, const Tensor& indices) {
  const math::ConvGeometry g =
      geometry(self, dims, kernel_size, stride, padding, dilation, ceil_mode, "max_pool");
  Tensor gx = zeros(self.sizes(), grad_dtype(self), self.device());
  if (grad_output.numel() > 0)
    max_pool_backward_stub[self.device().type](contiguous(to_dtype(grad_output, gx.dtype())),
                                               contiguous(indices), gx, g);
  return to_dtype(gx, self.dtype());
}

namespace {

/// The fractional max pooling of the last `dims` (2 or 3) dims of `self` to output_size by windows of
/// kernel_size, with PyTorch's checks and messages (fractional_max_pool2d() / fractional_max_pool3d_out()).
math::ConvGeometry fractional_geometry(const Tensor& self, int64_t dims, const IntList& kernel_size,
                                       const IntList& output_size) {
  const std::string op = dims == 2 ? "fractional_max_pool2d()" : "fractional_max_pool3d_out()";
  TH_CHECK(dims == 2 || dims == 3, "_fractional_max_pool_nd: dims must be 2 or 3, but got ", dims);
  TH_CHECK(self.dim() == dims + 1 || self.dim() == dims + 2, op, ": Expected ", dims + 1, "D or ", dims + 2,
           "D tensor, but got: ", shape_str(self.sizes()));
  TH_CHECK(is_floating_point(self.dtype()), "\"fractional_max_pool\" not implemented for '",
           scalar_type_cpp_name(self.dtype()), "'");
  TH_CHECK(int64_t(kernel_size.size()) == dims, "fractional_max_pool", dims,
           "d: kernel_size must either be a single Int or tuple of ", dims == 2 ? "" : "three ", "Ints");
  TH_CHECK(int64_t(output_size.size()) == dims, "fractional_max_pool", dims,
           "d: output_size must either be a single Int or tuple of ", dims == 2 ? "" : "three ", "Ints");
  static const char* names[3] = {"time", "height", "width"};
  math::ConvGeometry g{};
  g.C = 1;
  for (int64_t i = 0; i < 3; ++i) {
    g.stride[i] = g.dil[i] = 1;
    const int64_t j = i - (3 - dims);
    if (j < 0) {
      g.in[i] = g.k[i] = g.out[i] = 1;
      continue;
    }
    g.in[i] = self.size(self.dim() - dims + j);
    g.k[i] = kernel_size[size_t(j)];
    g.out[i] = output_size[size_t(j)];
    TH_CHECK(g.in[i] > 0, op, ": Expected input to have non-zero size for non-batch dimensions, but got ",
             shape_str(self.sizes()));
    TH_CHECK(g.k[i] > 0, op, ": kernel_size must be greater than zero, but got ", shape_str(kernel_size));
    TH_CHECK(g.out[i] >= 0, op, ": output_size must be non-negative, but got ", shape_str(output_size));
    // 3-D windows must end before the input's last element (PyTorch's strict check); 2-D ones may reach it
    const bool fits = dims == 2 ? g.out[i] + g.k[i] - 1 <= g.in[i] : g.out[i] + g.k[i] - 1 < g.in[i];
    TH_CHECK(fits, op, ": pool ", names[i], " ", g.k[i], " too large relative to input ", names[i], " ",
             g.in[i]);
  }
  return g;
}

}  // namespace

std::tuple<Tensor, Tensor> _fractional_max_pool_nd(const Tensor& self, int64_t dims,
                                                   const IntList& kernel_size, const IntList& output_size,
                                                   const Tensor& random_samples) {
  const math::ConvGeometry g = fractional_geometry(self, dims, kernel_size, output_size);
  const int64_t N = self.dim() == dims + 2 ? self.size(0) : 1, C = self.size(self.dim() - dims - 1);
  // PyTorch's checks and messages; more samples than samples in the batch are allowed (the first N are used)
  TH_CHECK(random_samples.dim() == 3, "Expect _random_samples to be a 3D tensor, but got ",
           shape_str(random_samples.sizes()));
  TH_CHECK(random_samples.dtype() == self.dtype(), "Expect _random_samples to have the same dtype as input");
  TH_CHECK(random_samples.device() == self.device(), "Expect _random_samples to be on the input's device ",
           self.device().str(), ", but got ", random_samples.device().str());
  TH_CHECK(random_samples.size(0) >= N, "Expect _random_samples.size(0) no less then input batch size.");
  TH_CHECK(random_samples.size(1) == C, "Expect _random_samples.size(1) equals to input channel size.");
  TH_CHECK(random_samples.size(2) == dims, "Expect _random_samples.size(2) equals to ", dims, "; got ",
           random_samples.size(2), ".");
  // a sample per plane and (D, H, W): PyTorch's are (W, H) for 2-D and (T, H, W) for 3-D
  const Tensor flat = reshape(to_dtype(narrow(random_samples, 0, 0, N), grad_dtype(self)), {N * C, dims});
  Tensor u = zeros({N * C, 3}, flat.dtype(), self.device());
  if (dims == 3) {
    copy_(u, flat);
  } else {
    Tensor h = select(u, 1, 1), w = select(u, 1, 2);
    copy_(h, select(flat, 1, 1));
    copy_(w, select(flat, 1, 0));
  }
  const Tensor x = contiguous(self);
  IntList shape(self.sizes().begin(), self.sizes().end() - dims);
  shape.insert(shape.end(), output_size.begin(), output_size.end());
  Tensor out = empty_tensor(shape, x.dtype(), x.device()),
         idx = empty_tensor(shape, ScalarType::Long, x.device());
  if (out.numel() > 0) fractional_max_pool_stub[x.device().type](x, u, out, idx, g);
  return {out, idx};
}

Tensor _fractional_max_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                                        const IntList& output_size, const Tensor& indices) {
  IntList kernel(size_t(dims), 1);  // the backward reads only the plane sizes
  const math::ConvGeometry g = fractional_geometry(self, dims, kernel, output_size);
  TH_CHECK(grad_output.sizes() == indices.sizes(), "fractional_max_pool", dims,
           "d_backward(): gradOutput of size ", shape_str(grad_output.sizes()),
           " does not match indices of size ", shape_str(indices.sizes()));
  Tensor gx = zeros(self.sizes(), grad_dtype(self), self.device());
  if (grad_output.numel() > 0)
    max_pool_backward_stub[self.device().type](contiguous(to_dtype(grad_output, gx.dtype())),
                                               contiguous(indices), gx, g);
  return to_dtype(gx, self.dtype());
}

Tensor _avg_pool_nd(const Tensor& self, int64_t dims, const IntList& kernel_size, const IntList& stride,
                    const IntList& padding, bool ceil_mode, bool count_include_pad,
                    std::optional<int64_t> divisor_override) {
  TH_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const math::ConvGeometry g = geometry(self, dims, kernel_size, stride, padding, {}, ceil_mode, "avg_pool");
  const Tensor x = contiguous(self);
  Tensor out = empty_tensor(pooled_shape(self, dims, g), x.dtype(), x.device());
  if (out.numel() > 0)
    avg_pool_stub[x.device().type](x, out, g, count_include_pad, divisor_override.value_or(0));
  return out;
}

Tensor _avg_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                             const IntList& kernel_size, const IntList& stride, const IntList& padding,
                             bool ceil_mode, bool count_include_pad,
                             std::optional<int64_t> divisor_override) {
  const math::ConvGeometry g = geometry(self, dims, kernel_size, stride, padding, {}, ceil_mode, "avg_pool");
  Tensor gx = zeros(self.sizes(), grad_dtype(self), self.device());
  if (grad_output.numel() > 0)
    avg_pool_backward_stub[self.device().type](contiguous(to_dtype(grad_output, gx.dtype())), gx, g,
                                               count_include_pad, divisor_override.value_or(0));
  return to_dtype(gx, self.dtype());
}

namespace {

/// The adaptive pooling of the last `dims` dims of `self` to output_size (checks as PyTorch's).
math::AdaptiveGeometry adaptive_geometry(const Tensor& self, int64_t dims, const IntList& output_size) {
  TH_CHECK(dims >= 1 && dims <= 3 && self.dim() >= dims + 1 && int64_t(output_size.size()) == dims,
           "_adaptive_pool_nd: expected ", dims + 1, "D or ", dims + 2, "D input and ", dims,
           " output sizes, but got input of size ", shape_str(self.sizes()), " and output_size ",
           shape_str(output_size));
  TH_CHECK(is_floating_point(self.dtype()), "\"adaptive_pool\" not implemented for '",
           scalar_type_cpp_name(self.dtype()), "'");
  math::AdaptiveGeometry g{};
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t j = i - (3 - dims);
    g.in[i] = j >= 0 ? self.size(self.dim() - dims + j) : 1;
    g.out[i] = j >= 0 ? output_size[size_t(j)] : 1;
    TH_CHECK(g.out[i] >= 0, "adaptive pooling: output_size must be non-negative, but got ",
             shape_str(output_size));
    TH_CHECK(g.in[i] > 0,
             "adaptive pooling: expected input to have non-zero size for non-batch dimensions, but "
             "input has sizes ",
             shape_str(self.sizes()));
  }
  return g;
}

IntList adaptive_shape(const Tensor& self, int64_t dims, const IntList& output_size) {
  IntList s(self.sizes().begin(), self.sizes().end() - dims);
  s.insert(s.end(), output_size.begin(), output_size.end());
  return s;
}

}  // namespace

std::tuple<Tensor, Tensor> _adaptive_pool_nd(const Tensor& self, int64_t dims, const IntList& output_size,
                                             bool is_max) {
  const math::AdaptiveGeometry g = adaptive_geometry(self, dims, output_size);
  const Tensor x = contiguous(self);
  const IntList shape = adaptive_shape(self, dims, output_size);
  Tensor out = empty_tensor(shape, x.dtype(), x.device());
  Tensor idx = is_max ? empty_tensor(shape, ScalarType::Long, x.device())
                      : empty_tensor({0}, ScalarType::Long, x.device());
  if (out.numel() > 0) adaptive_pool_stub[x.device().type](x, out, is_max ? idx : Tensor(), g);
  return {out, idx};
}

Tensor _adaptive_pool_nd_backward(const Tensor& grad_output, const Tensor& self, int64_t dims,
                                  const IntList& output_size, bool is_max, const Tensor& indices) {
  const math::AdaptiveGeometry g = adaptive_geometry(self, dims, output_size);
  Tensor gx = zeros(self.sizes(), grad_dtype(self), self.device());
  if (grad_output.numel() == 0) return to_dtype(gx, self.dtype());
  const Tensor go = contiguous(to_dtype(grad_output, gx.dtype()));
  if (is_max) {  // the max pooling backward: it reads only the plane sizes from the geometry
    math::ConvGeometry cg{};
    for (int i = 0; i < 3; ++i)
      cg.in[i] = g.in[i], cg.out[i] = g.out[i], cg.k[i] = cg.stride[i] = cg.dil[i] = 1;
    max_pool_backward_stub[self.device().type](go, contiguous(indices), gx, cg);
  } else {
    adaptive_avg_pool_backward_stub[self.device().type](go, gx, g);
  }
  return to_dtype(gx, self.dtype());
}

}  // namespace th
