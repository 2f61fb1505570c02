// Entry points of the convolution family: conv1d/2d/3d (groups, stride, padding, dilation) forward and
// backward as matrix products over the columns of the input (im2col / col2im kernels per device, TH's
// matmul for the products). torch.nn.functional.conv*d handles unbatched input and 'same'/'valid' padding
// and calls _convolution_nd.
#include <TH/Functions.h>

#include "../Functions.h"
#include "Convolution.h"

namespace th {

TH_DEFINE_STUB(im2col_fn, im2col_stub);
TH_DEFINE_STUB(col2im_fn, col2im_stub);

namespace {

/// An int list of one value per spatial dim (a single value is repeated), as PyTorch accepts them.
IntList per_dim(const IntList& v, int64_t dims, const char* what) {
  if (v.size() == 1) return IntList(size_t(dims), v[0]);
  TH_CHECK(int64_t(v.size()) == dims, "expected ", what, " to be a single integer value or a list of ", dims,
           " values to match the convolution dimensions, but got ", what, "=", shape_str(v));
  return v;
}

/// PyTorch's checks, and the geometry of one group (leading spatial dims of size 1 for conv1d/conv2d).
math::ConvGeometry geometry(const Tensor& input, const Tensor& weight, const IntList& stride_,
                            const IntList& padding_, const IntList& dilation_, int64_t groups) {
  const int64_t dims = input.dim() - 2;
  TH_CHECK(dims >= 1 && dims <= 3 && weight.dim() == input.dim(), "Expected ", weight.dim(),
           "-dimensional input for ", weight.dim(), "-dimensional weight ", shape_str(weight.sizes()),
           ", but got ", input.dim(), "-dimensional input of size ", shape_str(input.sizes()), " instead");
  TH_CHECK(groups > 0, "non-positive groups is not supported");
  const IntList stride = per_dim(stride_, dims, "stride"), padding = per_dim(padding_, dims, "padding"),
                dilation = per_dim(dilation_, dims, "dilation");
  for (int64_t d = 0; d < dims; ++d) {
    TH_CHECK(stride[size_t(d)] > 0, "non-positive stride is not supported");
    TH_CHECK(padding[size_t(d)] >= 0, "negative padding is not supported");
    TH_CHECK(dilation[size_t(d)] > 0, "dilation should be greater than zero");
  }
  TH_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ",
           groups, " at dimension 0, but got weight of size ", shape_str(weight.sizes()), " instead");
  TH_CHECK(input.size(1) == weight.size(1) * groups, "Given groups=", groups, ", weight of size ",
           shape_str(weight.sizes()), ", expected input", shape_str(input.sizes()), " to have ",
           weight.size(1) * groups, " channels, but got ", input.size(1), " channels instead");
  TH_CHECK(input.dtype() == weight.dtype(), "Input type (", scalar_type_cpp_name(input.dtype()),
           ") and weight type (", scalar_type_cpp_name(weight.dtype()), ") should be the same");
  TH_CHECK(input.device() == weight.device(), "Input and weight should be on the same device, got ",
           input.device().str(), " and ", weight.device().str());
  TH_CHECK(is_floating_point(input.dtype()), "\"conv\" not implemented for '",
           scalar_type_cpp_name(input.dtype()), "'");
  math::ConvGeometry g{};
  g.C = weight.size(1);
  bool too_small = false;
  for (int64_t d = 0; d < 3; ++d) {
    const int64_t s = d - (3 - dims);  // the spatial dim of input, or < 0 for a padded leading dim
    g.in[d] = s >= 0 ? input.size(2 + s) : 1;
    g.k[d] = s >= 0 ? weight.size(2 + s) : 1;
    g.stride[d] = s >= 0 ? stride[size_t(s)] : 1;
    g.pad[d] = s >= 0 ? padding[size_t(s)] : 0;
    g.dil[d] = s >= 0 ? dilation[size_t(s)] : 1;
    const int64_t span = g.dil[d] * (g.k[d] - 1) + 1;
    g.out[d] = (g.in[d] + 2 * g.pad[d] - span) / g.stride[d] + 1;
    too_small = too_small || g.in[d] + 2 * g.pad[d] < span;
  }
  if (too_small) {
    std::string in_s, k_s;
    for (int64_t d = 3 - dims; d < 3; ++d) {
      in_s += (in_s.empty() ? "" : " x ") + std::to_string(g.in[d] + 2 * g.pad[d]);
      k_s += (k_s.empty() ? "" : " x ") + std::to_string(g.dil[d] * (g.k[d] - 1) + 1);
    }
    TH_CHECK(false, "Calculated padded input size per channel: (", in_s, "). Kernel size: (", k_s,
             "). Kernel size can't be greater than actual input size");
  }
  return g;
}

/// The output shape [N, O, *out spatial] for `input` of `dims` spatial dims.
IntList output_shape(const Tensor& input, int64_t O, const math::ConvGeometry& g) {
  IntList s{input.size(0), O};
  for (int64_t d = 3 - (input.dim() - 2); d < 3; ++d) s.push_back(g.out[d]);
  return s;
}

/// The columns [N, rows, L] of channels [c0, c0 + g.C) of every sample.
Tensor columns(const Tensor& input, int64_t c0, const math::ConvGeometry& g) {
  const Tensor x = contiguous(input.size(1) == g.C ? input : narrow(input, 1, c0, g.C));
  Tensor cols = empty_tensor({input.size(0), g.rows(), g.out_numel()}, input.dtype(), input.device());
  if (cols.numel() > 0) im2col_stub[input.device().type](x, cols, g);
  return cols;
}

}  // namespace

Tensor _convolution_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const IntList& stride, const IntList& padding, const IntList& dilation,
                       int64_t groups) {
  const math::ConvGeometry g = geometry(input, weight, stride, padding, dilation, groups);
  const int64_t O = weight.size(0), Og = O / groups, N = input.size(0);
  std::vector<Tensor> outs;
  for (int64_t k = 0; k < groups; ++k) {
    const Tensor w = reshape(groups == 1 ? weight : narrow(weight, 0, k * Og, Og), {Og, g.rows()});
    outs.push_back(matmul(w, columns(input, k * g.C, g)));  // [N, Og, L]
  }
  Tensor out = groups == 1 ? outs[0] : cat(outs, 1);
  if (bias && bias->defined()) {
    TH_CHECK(bias->dim() == 1 && bias->size(0) == O, "Given weight of size ", shape_str(weight.sizes()),
             ", expected bias to be 1-dimensional with ", O, " elements, but got bias of size ",
             shape_str(bias->sizes()), " instead");
    out = add(out, reshape(to_dtype(*bias, out.dtype()), {1, O, 1}), Scalar(int64_t(1)));
  }
  return reshape(N == 0 ? out : contiguous(out), output_shape(input, O, g));
}

std::tuple<Tensor, Tensor, Tensor> _convolution_nd_backward(const Tensor& grad_output, const Tensor& input,
                                                            const Tensor& weight, const IntList& stride,
                                                            const IntList& padding, const IntList& dilation,
                                                            int64_t groups, bool has_bias) {
  const math::ConvGeometry g = geometry(input, weight, stride, padding, dilation, groups);
  const int64_t O = weight.size(0), Og = O / groups, N = input.size(0), L = g.out_numel();
  const Tensor go = reshape(contiguous(to_dtype(grad_output, input.dtype())), {N, O, L});
  std::vector<Tensor> grad_inputs, grad_weights;
  for (int64_t k = 0; k < groups; ++k) {
    const Tensor gok = groups == 1 ? go : narrow(go, 1, k * Og, Og);  // [N, Og, L]
    const Tensor w = reshape(groups == 1 ? weight : narrow(weight, 0, k * Og, Og), {Og, g.rows()});
    // weight: sum over samples of grad_out[n] @ columns[n]^T
    grad_weights.push_back(
        sum(matmul(gok, transpose(columns(input, k * g.C, g), 1, 2)), IntList{0}, false, std::nullopt));
    // input: col2im of weight^T @ grad_out[n]
    const Tensor grad_cols = contiguous(matmul(transpose(w, 0, 1), gok));  // [N, rows, L]
    IntList gx_shape{N, g.C};
    for (int64_t d = 0; d < 3; ++d) gx_shape.push_back(g.in[d]);
    Tensor gx = empty_tensor(gx_shape, input.dtype(), input.device());
    if (gx.numel() > 0) col2im_stub[input.device().type](grad_cols, gx, g);
    grad_inputs.push_back(gx);
  }
  Tensor grad_input = reshape(groups == 1 ? grad_inputs[0] : cat(grad_inputs, 1), input.sizes());
  Tensor grad_weight = reshape(groups == 1 ? grad_weights[0] : cat(grad_weights, 0), weight.sizes());
  Tensor grad_bias = has_bias ? sum(go, IntList{0, 2}, false, std::nullopt)
                              : empty_tensor({0}, input.dtype(), input.device());
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace th
