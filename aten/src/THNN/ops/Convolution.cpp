// Entry points of the convolution family: conv1d/2d/3d (groups, stride, padding, dilation) forward and
// backward as matrix products over the columns of the input (im2col / col2im kernels per device, TH's
// matmul for the products). torch.nn.functional.conv*d handles unbatched input and 'same'/'valid' padding
// and calls _convolution_nd.
#include <algorithm>

#include <TH/Functions.h>

#include "../Functions.h"
#include "Convolution.h"

namespace th {

TH_DEFINE_STUB(im2col_fn, im2col_stub);
TH_DEFINE_STUB(col2im_fn, col2im_stub);
TH_DEFINE_STUB(winograd_conv_fn, winograd_conv_stub);
TH_DEFINE_STUB(winograd_weight_grad_fn, winograd_weight_grad_stub);

namespace {

/// An int list of one value per spatial dim (a single value is repeated), as PyTorch accepts them.
IntList per_dim(const IntList& v, int64_t dims, const char* what) {
  if (v.size() == 1) return IntList(size_t(dims), v[0]);
  TH_CHECK(int64_t(v.size()) == dims, "expected ", what, " to be a single integer value or a list of ", dims,
           " values to match the convolution dimensions, but got ", what, "=", shape_str(v));
  return v;
}

struct ConvOptions {
  int64_t dims;
  IntList stride, padding, dilation;
};

/// The checks a convolution and a transposed one share (PyTorch's messages), and their per-dim options.
ConvOptions check_options(const Tensor& input, const Tensor& weight, const IntList& stride_,
                          const IntList& padding_, const IntList& dilation_, int64_t groups,
                          const char* name) {
  const int64_t dims = input.dim() - 2;
  TH_CHECK(dims >= 1 && dims <= 3 && weight.dim() == input.dim(), "Expected ", weight.dim(),
           "-dimensional input for ", weight.dim(), "-dimensional weight ", shape_str(weight.sizes()),
           ", but got ", input.dim(), "-dimensional input of size ", shape_str(input.sizes()), " instead");
  TH_CHECK(groups > 0, "non-positive groups is not supported");
  ConvOptions o{dims, per_dim(stride_, dims, "stride"), per_dim(padding_, dims, "padding"),
                per_dim(dilation_, dims, "dilation")};
  for (int64_t d = 0; d < dims; ++d) {
    TH_CHECK(o.stride[size_t(d)] > 0, "non-positive stride is not supported");
    TH_CHECK(o.padding[size_t(d)] >= 0, "negative padding is not supported");
    TH_CHECK(o.dilation[size_t(d)] > 0, "dilation should be greater than zero");
  }
  TH_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ",
           groups, " at dimension 0, but got weight of size ", shape_str(weight.sizes()), " instead");
  TH_CHECK(input.dtype() == weight.dtype(), "Input type (", scalar_type_cpp_name(input.dtype()),
           ") and weight type (", scalar_type_cpp_name(weight.dtype()), ") should be the same");
  TH_CHECK(input.device() == weight.device(), "Input and weight should be on the same device, got ",
           input.device().str(), " and ", weight.device().str());
  TH_CHECK(is_floating_point(input.dtype()), "\"", name, "\" not implemented for '",
           scalar_type_cpp_name(input.dtype()), "'");
  return o;
}

/// The kernel, stride, padding and dilation of spatial dim d of a 3-D geometry (leading dims of size 1 for
/// conv1d/conv2d: kernel 1, stride 1, padding 0, dilation 1); returns the spatial dim of the tensor, or < 0.
int64_t set_window(math::ConvGeometry& g, int64_t d, const Tensor& weight, const ConvOptions& o) {
  const int64_t s = d - (3 - o.dims);
  g.k[d] = s >= 0 ? weight.size(2 + s) : 1;
  g.stride[d] = s >= 0 ? o.stride[size_t(s)] : 1;
  g.pad[d] = s >= 0 ? o.padding[size_t(s)] : 0;
  g.dil[d] = s >= 0 ? o.dilation[size_t(s)] : 1;
  return s;
}

/// PyTorch's checks, and the geometry of one group (leading spatial dims of size 1 for conv1d/conv2d).
math::ConvGeometry geometry(const Tensor& input, const Tensor& weight, const IntList& stride_,
                            const IntList& padding_, const IntList& dilation_, int64_t groups) {
  const ConvOptions o = check_options(input, weight, stride_, padding_, dilation_, groups, "conv");
  TH_CHECK(input.size(1) == weight.size(1) * groups, "Given groups=", groups, ", weight of size ",
           shape_str(weight.sizes()), ", expected input", shape_str(input.sizes()), " to have ",
           weight.size(1) * groups, " channels, but got ", input.size(1), " channels instead");
  math::ConvGeometry g{};
  g.C = weight.size(1);
  bool too_small = false;
  for (int64_t d = 0; d < 3; ++d) {
    const int64_t s = set_window(g, d, weight, o);
    g.in[d] = s >= 0 ? input.size(2 + s) : 1;
    const int64_t span = g.dil[d] * (g.k[d] - 1) + 1;
    g.out[d] = (g.in[d] + 2 * g.pad[d] - span) / g.stride[d] + 1;
    too_small = too_small || g.in[d] + 2 * g.pad[d] < span;
  }
  if (too_small) {
    std::string in_s, k_s;
    for (int64_t d = 3 - o.dims; d < 3; ++d) {
      in_s += (in_s.empty() ? "" : " x ") + std::to_string(g.in[d] + 2 * g.pad[d]);
      k_s += (k_s.empty() ? "" : " x ") + std::to_string(g.dil[d] * (g.k[d] - 1) + 1);
    }
    TH_CHECK(false, "Calculated padded input size per channel: (", in_s, "). Kernel size: (", k_s,
             "). Kernel size can't be greater than actual input size");
  }
  return g;
}

/// PyTorch's checks for a transposed convolution (weight [C_in, C_out / groups, *k]), and the geometry of the
/// convolution it is the transpose of, for one group: that convolution's input is our output (g.in, g.C =
/// C_out / groups channels), its output our input (g.out).
math::ConvGeometry transposed_geometry(const Tensor& input, const Tensor& weight, const IntList& stride_,
                                       const IntList& padding_, const IntList& output_padding_,
                                       const IntList& dilation_, int64_t groups) {
  const ConvOptions o = check_options(input, weight, stride_, padding_, dilation_, groups, "conv_transpose");
  const IntList output_padding = per_dim(output_padding_, o.dims, "output_padding");
  for (int64_t d = 0; d < o.dims; ++d) {
    const int64_t op = output_padding[size_t(d)];
    TH_CHECK(op >= 0 && (op < o.stride[size_t(d)] || op < o.dilation[size_t(d)]),
             "output padding must be smaller than either stride or dilation, but got output_padding: ",
             shape_str(output_padding), ", stride: ", shape_str(o.stride),
             ", dilation: ", shape_str(o.dilation));
  }
  TH_CHECK(input.size(1) == weight.size(0), "Given transposed=1, weight of size ", shape_str(weight.sizes()),
           ", expected input", shape_str(input.sizes()), " to have ", weight.size(0), " channels, but got ",
           input.size(1), " channels instead");
  math::ConvGeometry g{};
  g.C = weight.size(1);
  bool too_small = false;
  for (int64_t d = 0; d < 3; ++d) {
    const int64_t s = set_window(g, d, weight, o);
    g.out[d] = s >= 0 ? input.size(2 + s) : 1;
    const int64_t op = s >= 0 ? output_padding[size_t(s)] : 0;
    g.in[d] = (g.out[d] - 1) * g.stride[d] - 2 * g.pad[d] + g.dil[d] * (g.k[d] - 1) + op + 1;
    too_small = too_small || g.in[d] <= 0;
  }
  if (too_small) {
    std::string in_s, out_s;
    for (int64_t d = 3 - o.dims; d < 3; ++d) {
      in_s += (in_s.empty() ? "" : " x ") + std::to_string(g.out[d]);
      out_s += (out_s.empty() ? "" : " x ") + std::to_string(g.in[d]);
    }
    TH_CHECK(false, "Given input size per channel: (", in_s, "). Calculated output size per channel: (",
             out_s, "). Output size is too small");
  }
  return g;
}

/// The output shape [N, O, *out spatial] for `input` of `dims` spatial dims.
IntList output_shape(const Tensor& input, int64_t O, const math::ConvGeometry& g) {
  IntList s{input.size(0), O};
  for (int64_t d = 3 - (input.dim() - 2); d < 3; ++d) s.push_back(g.out[d]);
  return s;
}

/// Samples per chunk of the batch. A chunk's columns ([rows, B * L]) are one gemm operand: at least about
/// kChunkColumns columns wide for an efficient gemm, and on the CPU no more than kChunkElements elements
/// beyond that, so that they stay in cache between im2col and the gemm; a GPU takes the batch in as few
/// chunks as a bounded columns buffer allows.
int64_t chunk_samples(const Tensor& input, const math::ConvGeometry& g) {
  constexpr int64_t kChunkColumns = 4096, kChunkElements = int64_t(1) << 19,
                    kDeviceElements = int64_t(1) << 26;
  const int64_t L = std::max<int64_t>(g.out_numel(), 1), N = std::max<int64_t>(input.size(0), 1);
  const int64_t sample = std::max<int64_t>(g.rows(), 1) * L;  // columns elements of one sample
  const int64_t elements = input.device().type == DeviceType::CPU ? kChunkElements : kDeviceElements;
  return std::clamp<int64_t>(std::max(kChunkColumns / L, elements / sample), 1, N);
}

/// A 1x1 convolution with unit stride and no padding: the columns of one sample are its input.
bool is_pointwise(const math::ConvGeometry& g) {
  for (int d = 0; d < 3; ++d)
    if (g.k[d] != 1 || g.stride[d] != 1 || g.pad[d] != 0) return false;
  return true;
}

/// The columns [rows, B * L] of channels [c0, c0 + g.C) of the samples of `x` ([B, C, ...]).
Tensor columns(const Tensor& x, int64_t c0, const math::ConvGeometry& g) {
  const int64_t B = x.size(0), L = g.out_numel();
  const Tensor xg = contiguous(x.size(1) == g.C ? x : narrow(x, 1, c0, g.C));
  if (B == 1 && is_pointwise(g)) return reshape(xg, {g.rows(), L});
  Tensor cols = empty_tensor({g.rows(), B * L}, x.dtype(), x.device());
  if (cols.numel() > 0) im2col_stub[x.device().type](xg, cols, g);
  return cols;
}

/// [B, Og, L] (samples n0.., channels k*Og..) of `t` ([N, O, L] contiguous) as one [Og, B * L] matrix: a view
/// for a single sample, else a copy.
Tensor sample_matrix(const Tensor& t, int64_t n0, int64_t B, int64_t k, int64_t Og) {
  const Tensor block = narrow(narrow(t, 0, n0, B), 1, k * Og, Og);
  if (B == 1) return select(block, 0, 0);
  return reshape(contiguous(permute(block, {1, 0, 2})), {Og, -1});
}

/// Fewer input or output channels per group than this, and a convolution stays on im2col: Winograd's
/// transforms then cost more than its 16 small products save. More than kWinogradMaxChannels, and a
/// thread's buffers ([16, channels, tiles]) would outgrow its caches by far; the weight gradient also keeps
/// [groups, 16, O, C] sums per thread, so it takes Winograd only up to kWinogradMaxWeights weights.
constexpr int64_t kWinogradMinChannels = 8, kWinogradMaxChannels = 2048,
                  kWinogradMaxWeights = int64_t(1) << 20;

/// Whether a convolution of geometry g (Og output channels per group) runs as Winograd F(2x2, 3x3) tiles
/// (math/Winograd.h): on the CPU, a 2-D 3x3 kernel of unit stride and dilation over float or double with
/// enough channels. Its gradients take the same path (the input's needs padding <= 2: it is the
/// convolution of the output gradient with padding 2 - padding).
bool use_winograd(const Tensor& input, const math::ConvGeometry& g, int64_t Og) {
  const ScalarType t = input.dtype();
  return input.device().type == DeviceType::CPU && input.dim() == 4 &&
         (t == ScalarType::Float || t == ScalarType::Double) && g.k[1] == 3 && g.k[2] == 3 &&
         g.stride[1] == 1 && g.stride[2] == 1 && g.dil[1] == 1 && g.dil[2] == 1 &&
         g.C >= kWinogradMinChannels && Og >= kWinogradMinChannels && g.C <= kWinogradMaxChannels &&
         Og <= kWinogradMaxChannels && g.out[1] > 0 && g.out[2] > 0;
}

/// The Winograd geometry of the convolution g (2-D: spatial dims 1 and 2) over `groups` groups of N samples.
math::winograd::WinogradGeometry winograd_geometry(const math::ConvGeometry& g, int64_t N, int64_t groups,
                                                   int64_t Og) {
  return {N, groups, g.C, Og, g.in[1], g.in[2], g.out[1], g.out[2], g.pad[1], g.pad[2]};
}

}  // namespace

Tensor _convolution_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const IntList& stride, const IntList& padding, const IntList& dilation,
                       int64_t groups) {
  const math::ConvGeometry g = geometry(input, weight, stride, padding, dilation, groups);
  const int64_t O = weight.size(0), Og = O / groups, N = input.size(0), L = g.out_numel();
  const bool has_bias = bias && bias->defined();
  if (has_bias)
    TH_CHECK(bias->dim() == 1 && bias->size(0) == O, "Given weight of size ", shape_str(weight.sizes()),
             ", expected bias to be 1-dimensional with ", O, " elements, but got bias of size ",
             shape_str(bias->sizes()), " instead");
  if (use_winograd(input, g, Og)) {
    Tensor out = empty_tensor(output_shape(input, O, g), input.dtype(), input.device());
    const Tensor b = has_bias ? contiguous(to_dtype(*bias, input.dtype())) : Tensor();
    // false: an operand is not finite, and im2col below computes it
    if (out.numel() == 0 ||
        winograd_conv_stub[input.device().type](contiguous(input), contiguous(weight), b, out,
                                                winograd_geometry(g, N, groups, Og), false))
      return out;
  }
  Tensor out = empty_tensor({N, O, L}, input.dtype(), input.device());
  const Tensor w = contiguous(reshape(weight, {O, g.rows()}));
  const Tensor b = has_bias ? reshape(to_dtype(*bias, input.dtype()), {O, 1}) : Tensor();
  const int64_t chunk = chunk_samples(input, g);
  // per chunk of samples and group: out = w @ columns (+ bias, written first so the gemm adds to it)
  for (int64_t n0 = 0; n0 < N && out.numel() > 0; n0 += chunk) {
    const int64_t B = std::min(chunk, N - n0);
    const Tensor x = narrow(input, 0, n0, B);
    for (int64_t k = 0; k < groups; ++k) {
      const Tensor cols = columns(x, k * g.C, g);
      const Tensor wk = narrow(w, 0, k * Og, Og);
      if (B == 1) {  // one gemm into the sample's output, which holds the bias first
        Tensor dst = select(narrow(narrow(out, 0, n0, 1), 1, k * Og, Og), 0, 0);
        if (has_bias) copy_(dst, expand(narrow(b, 0, k * Og, Og), dst.sizes()));
        addmm_(dst, wk, cols, Scalar(int64_t(has_bias ? 1 : 0)), Scalar(int64_t(1)));
        continue;
      }
      // a gemm per sample straight into its output block (cols [rows, B * L] seen as [B, rows, L]), no
      // transposing copy; the bias added after
      Tensor block = narrow(narrow(out, 0, n0, B), 1, k * Og, Og);
      const Tensor per_sample = as_strided(cols, {B, g.rows(), L}, {L, B * L, 1}, std::nullopt);
      if (has_bias && is_reduced_floating_point(input.dtype())) {  // 16-bit: the bias inside the float32 sum,
        for (int64_t s = 0; s < B; ++s) {                          // rounded once (as B == 1)
          Tensor dst = select(block, 0, s);
          copy_(dst, expand(narrow(b, 0, k * Og, Og), dst.sizes()));
          addmm_(dst, wk, select(per_sample, 0, s), Scalar(int64_t(1)), Scalar(int64_t(1)));
        }
        continue;
      }
      const Tensor wb = expand(unsqueeze(wk, 0), {B, Og, g.rows()});
      if (block.is_contiguous()) {
        bmm_out(block, wb, per_sample);
      } else {
        copy_(block, bmm(wb, per_sample));
      }
      if (has_bias) add_(block, reshape(narrow(b, 0, k * Og, Og), {1, Og, 1}), Scalar(int64_t(1)));
    }
  }
  return reshape(out, output_shape(input, O, g));
}

std::tuple<Tensor, Tensor, Tensor> _convolution_nd_backward(const Tensor& grad_output, const Tensor& input,
                                                            const Tensor& weight, const IntList& stride,
                                                            const IntList& padding, const IntList& dilation,
                                                            int64_t groups, bool input_grad, bool weight_grad,
                                                            bool bias_grad) {
  const math::ConvGeometry g = geometry(input, weight, stride, padding, dilation, groups);
  const int64_t O = weight.size(0), Og = O / groups, N = input.size(0), L = g.out_numel();
  const Tensor go = reshape(contiguous(to_dtype(grad_output, input.dtype())), {N, O, L});
  const Tensor w = contiguous(reshape(weight, {O, g.rows()}));
  const auto none = [&] { return empty_tensor({0}, input.dtype(), input.device()); };
  Tensor grad_weight = weight_grad ? zeros({O, g.rows()}, input.dtype(), input.device()) : none();
  Tensor grad_input = input_grad ? empty_tensor(input.sizes(), input.dtype(), input.device()) : none();
  if (input_grad && grad_input.numel() > 0 && O == 0) fill_(grad_input, Scalar(int64_t(0)));
  bool cols_input = input_grad, cols_weight = weight_grad;  // the gradients left to the columns' gemms
  if (use_winograd(input, g, Og) && O > 0 && N > 0) {
    const math::winograd::WinogradGeometry wg = winograd_geometry(g, N, groups, Og);
    // each stays on the columns' gemms where the kernel finds an operand that is not finite
    if (weight_grad && O * g.C <= kWinogradMaxWeights)
      cols_weight = !winograd_weight_grad_stub[input.device().type](contiguous(input), go, grad_weight, wg);
    if (input_grad && g.pad[1] <= 2 && g.pad[2] <= 2) {  // grad_out (*) the flipped, transposed weight
      const math::winograd::WinogradGeometry gi{N,        groups,  Og,      g.C,          g.out[1],
                                                g.out[2], g.in[1], g.in[2], 2 - g.pad[1], 2 - g.pad[2]};
      cols_input =
          !winograd_conv_stub[input.device().type](go, contiguous(weight), Tensor(), grad_input, gi, true);
    }
  }
  const int64_t chunk = chunk_samples(input, g);
  // per chunk of samples and group: grad_weight += grad_out @ columns^T; grad_input = col2im(w^T @ grad_out)
  for (int64_t n0 = 0; n0 < N && (cols_input || cols_weight) && O > 0; n0 += chunk) {
    const int64_t B = std::min(chunk, N - n0);
    for (int64_t k = 0; k < groups; ++k) {
      if (cols_weight) {  // the samples' products [B, Og, rows] from their blocks of grad_out and columns,
                          // summed: no transposing copy of grad_out, the samples' gemms on the threads
        Tensor gw = narrow(grad_weight, 0, k * Og, Og);
        const Tensor cols = columns(narrow(input, 0, n0, B), k * g.C, g);
        if (B == 1) {
          addmm_(gw, select(narrow(narrow(go, 0, n0, 1), 1, k * Og, Og), 0, 0), transpose(cols, 0, 1),
                 Scalar(int64_t(1)), Scalar(int64_t(1)));
        } else {
          const Tensor per_sample = as_strided(cols, {B, L, g.rows()}, {L, 1, B * L}, std::nullopt);
          add_(gw,
               sum(bmm(narrow(narrow(go, 0, n0, B), 1, k * Og, Og), per_sample), IntList{0}, false,
                   std::nullopt),
               Scalar(int64_t(1)));
        }
      }
      if (cols_input) {
        const Tensor gok = sample_matrix(go, n0, B, k, Og);                           // [Og, B * L]
        const Tensor grad_cols = mm(transpose(narrow(w, 0, k * Og, Og), 0, 1), gok);  // [rows, B * L]
        Tensor gx = narrow(narrow(grad_input, 0, n0, B), 1, k * g.C, g.C);
        if (is_pointwise(g) && B == 1) {
          copy_(gx, reshape(grad_cols, gx.sizes()));
        } else if (gx.is_contiguous()) {
          col2im_stub[input.device().type](grad_cols, gx, g);
        } else {
          Tensor tmp = empty_tensor(gx.sizes(), input.dtype(), input.device());
          col2im_stub[input.device().type](grad_cols, tmp, g);
          copy_(gx, tmp);
        }
      }
    }
  }
  Tensor grad_bias = bias_grad ? sum(go, IntList{0, 2}, false, std::nullopt) : none();
  return {grad_input, weight_grad ? reshape(grad_weight, weight.sizes()) : grad_weight, grad_bias};
}

/// `t` ([N, C, ...]) as a [N, C, L] view of its samples' channels, made contiguous.
Tensor as_samples(const Tensor& t) { return reshape(contiguous(t), {t.size(0), t.size(1), -1}); }

/// dst (samples n0.. of [N, C, ...], channels c0 .. c0 + g.C) = col2im(cols): in place where that block is
/// contiguous, else through a temporary.
void col2im_into(const Tensor& cols, const Tensor& whole, int64_t n0, int64_t B, int64_t c0,
                 const math::ConvGeometry& g) {
  Tensor dst = narrow(narrow(whole, 0, n0, B), 1, c0, g.C);
  if (dst.is_contiguous()) return col2im_stub[whole.device().type](cols, dst, g);
  Tensor tmp = empty_tensor(dst.sizes(), dst.dtype(), dst.device());
  col2im_stub[whole.device().type](cols, tmp, g);
  copy_(dst, tmp);
}

/// block (samples n0.., channels c0..c0 + C of `whole` [N, Ctot, L]) = m ([C, B * L]) laid back out per
/// sample.
void scatter_samples(const Tensor& m, const Tensor& whole, int64_t n0, int64_t B, int64_t c0, int64_t C) {
  Tensor block = narrow(narrow(whole, 0, n0, B), 1, c0, C);
  copy_(block, permute(reshape(m, {C, B, -1}), {1, 0, 2}));
}

Tensor _convolution_transpose_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                                 const IntList& stride, const IntList& padding, const IntList& output_padding,
                                 const IntList& dilation, int64_t groups) {
  const math::ConvGeometry g =
      transposed_geometry(input, weight, stride, padding, output_padding, dilation, groups);
  const int64_t N = input.size(0), Cin = weight.size(0), Cin_g = Cin / groups, Cout = g.C * groups;
  const bool has_bias = bias && bias->defined();
  if (has_bias)
    TH_CHECK(bias->dim() == 1 && bias->size(0) == Cout, "Given transposed=1, weight of size ",
             shape_str(weight.sizes()), ", expected bias to be 1-dimensional with ", Cout,
             " elements, but got bias of size ", shape_str(bias->sizes()), " instead");
  IntList shape{N, Cout};
  for (int64_t d = 3 - (input.dim() - 2); d < 3; ++d) shape.push_back(g.in[d]);
  Tensor out = empty_tensor(shape, input.dtype(), input.device());
  if (out.numel() == 0) return out;
  const Tensor w = contiguous(reshape(weight, {Cin, g.rows()}));
  const Tensor x = as_samples(input);
  const int64_t chunk = chunk_samples(input, g);
  // per chunk and group: the columns w^T @ x, summed back into the output by col2im (conv's input gradient)
  for (int64_t n0 = 0; n0 < N; n0 += chunk) {
    const int64_t B = std::min(chunk, N - n0);
    for (int64_t k = 0; k < groups; ++k) {
      const Tensor cols =
          mm(transpose(narrow(w, 0, k * Cin_g, Cin_g), 0, 1), sample_matrix(x, n0, B, k, Cin_g));
      col2im_into(cols, out, n0, B, k * g.C, g);
    }
  }
  if (has_bias) {
    IntList bshape(size_t(out.dim()), 1);
    bshape[1] = Cout;
    add_(out, reshape(to_dtype(*bias, out.dtype()), bshape), Scalar(int64_t(1)));
  }
  return out;
}

std::tuple<Tensor, Tensor, Tensor> _convolution_transpose_nd_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight, const IntList& stride,
    const IntList& padding, const IntList& output_padding, const IntList& dilation, int64_t groups,
    bool input_grad, bool weight_grad, bool bias_grad) {
  const math::ConvGeometry g =
      transposed_geometry(input, weight, stride, padding, output_padding, dilation, groups);
  const int64_t N = input.size(0), Cin = weight.size(0), Cin_g = Cin / groups, L = g.out_numel();
  const Tensor go = contiguous(to_dtype(grad_output, input.dtype()));
  const Tensor w = contiguous(reshape(weight, {Cin, g.rows()}));
  const Tensor x = as_samples(input);
  const auto none = [&] { return empty_tensor({0}, input.dtype(), input.device()); };
  Tensor grad_weight = weight_grad ? zeros({Cin, g.rows()}, input.dtype(), input.device()) : none();
  Tensor grad_input = input_grad ? empty_tensor({N, Cin, L}, input.dtype(), input.device()) : none();
  if (input_grad && grad_input.numel() > 0 && g.rows() == 0) fill_(grad_input, Scalar(int64_t(0)));
  const int64_t chunk = chunk_samples(input, g);
  // per chunk and group: the columns of the output gradient (im2col: a convolution's input), then
  // grad_input = w @ columns and grad_weight += x @ columns^T
  for (int64_t n0 = 0; n0 < N && (input_grad || weight_grad) && g.rows() > 0; n0 += chunk) {
    const int64_t B = std::min(chunk, N - n0);
    for (int64_t k = 0; k < groups; ++k) {
      const Tensor cols = columns(narrow(go, 0, n0, B), k * g.C, g);  // [rows, B * L]
      if (input_grad) {
        const Tensor wk = narrow(w, 0, k * Cin_g, Cin_g);
        if (B == 1) {
          Tensor dst = select(narrow(narrow(grad_input, 0, n0, 1), 1, k * Cin_g, Cin_g), 0, 0);
          addmm_(dst, wk, cols, Scalar(int64_t(0)), Scalar(int64_t(1)));
        } else {
          scatter_samples(mm(wk, cols), grad_input, n0, B, k * Cin_g, Cin_g);
        }
      }
      if (weight_grad) {
        Tensor gw = narrow(grad_weight, 0, k * Cin_g, Cin_g);
        addmm_(gw, sample_matrix(x, n0, B, k, Cin_g), transpose(cols, 0, 1), Scalar(int64_t(1)),
               Scalar(int64_t(1)));
      }
    }
  }
  IntList reduce_dims{0};
  for (int64_t d = 2; d < go.dim(); ++d) reduce_dims.push_back(d);
  Tensor grad_bias = bias_grad ? sum(go, reduce_dims, false, std::nullopt) : none();
  return {input_grad ? reshape(grad_input, input.sizes()) : grad_input,
          weight_grad ? reshape(grad_weight, weight.sizes()) : grad_weight, grad_bias};
}

namespace {

/// The geometry of unfold / fold: 2-D sliding blocks of size `kernel` over a [C, H, W] plane (PyTorch's
/// checks).
math::ConvGeometry block_geometry(int64_t C, int64_t H, int64_t W, const IntList& kernel,
                                  const IntList& dilation, const IntList& padding, const IntList& stride) {
  const IntList k = per_dim(kernel, 2, "kernel_size"), d = per_dim(dilation, 2, "dilation"),
                p = per_dim(padding, 2, "padding"), s = per_dim(stride, 2, "stride");
  for (size_t i = 0; i < 2; ++i) {
    TH_CHECK(k[i] > 0, "kernel size should be greater than zero, but got kernel_height: ", k[0],
             " kernel_width: ", k[1]);
    TH_CHECK(d[i] > 0, "dilation should be greater than zero, but got dilation_height: ", d[0],
             " dilation_width: ", d[1]);
    TH_CHECK(p[i] >= 0, "padding should be non-negative, but got pad_height: ", p[0], " pad_width: ", p[1]);
    TH_CHECK(s[i] > 0, "stride should be greater than zero, but got stride_height: ", s[0],
             " stride_width: ", s[1]);
  }
  math::ConvGeometry g{};
  g.C = C;
  const int64_t in[3] = {1, H, W};
  for (int64_t i = 0; i < 3; ++i) {
    g.in[i] = in[i];
    g.k[i] = i ? k[size_t(i - 1)] : 1;
    g.dil[i] = i ? d[size_t(i - 1)] : 1;
    g.pad[i] = i ? p[size_t(i - 1)] : 0;
    g.stride[i] = i ? s[size_t(i - 1)] : 1;
    g.out[i] = (g.in[i] + 2 * g.pad[i] - (g.dil[i] * (g.k[i] - 1) + 1)) / g.stride[i] + 1;
  }
  TH_CHECK(g.out[1] >= 1 && g.out[2] >= 1 && H + 2 * g.pad[1] >= g.dil[1] * (g.k[1] - 1) + 1 &&
               W + 2 * g.pad[2] >= g.dil[2] * (g.k[2] - 1) + 1,
           "Given input with spatial size (", H, ", ", W, "), kernel_size=(", k[0], ", ", k[1],
           "), dilation=(", d[0], ", ", d[1], "), padding=(", p[0], ", ", p[1],
           "), calculated shape of the array of sliding blocks as (", g.out[1], ", ", g.out[2],
           "), but its components must be at least one.");
  return g;
}

}  // namespace

Tensor im2col(const Tensor& self, const IntList& kernel_size, const IntList& dilation, const IntList& padding,
              const IntList& stride) {
  TH_CHECK(self.dim() == 3 || self.dim() == 4,
           "Expected 3D or 4D (batch mode) tensor for input with possibly 0 ",
           "batch size and non-zero dimensions for input, but got: ", shape_str(self.sizes()));
  TH_CHECK(is_floating_point(self.dtype()) || self.dtype() == ScalarType::Bool,
           "\"im2col\" not implemented for '", scalar_type_name(self.dtype()), "'");
  const Tensor x = self.dim() == 4 ? contiguous(self) : unsqueeze(contiguous(self), 0);
  const int64_t N = x.size(0);
  const math::ConvGeometry g =
      block_geometry(x.size(1), x.size(2), x.size(3), kernel_size, dilation, padding, stride);
  Tensor out = empty_tensor({N, g.rows(), g.out_numel()}, self.dtype(), self.device());
  for (int64_t n = 0; n < N && out.numel() > 0; ++n)  // one sample's columns are [rows, L]: out[n]
    im2col_stub[self.device().type](narrow(x, 0, n, 1), select(out, 0, n), g);
  return self.dim() == 4 ? out : select(out, 0, 0);
}

Tensor col2im(const Tensor& self, const IntList& output_size, const IntList& kernel_size,
              const IntList& dilation, const IntList& padding, const IntList& stride) {
  TH_CHECK(self.dim() == 2 || self.dim() == 3,
           "Expected 2D or 3D (batch mode) tensor for input with possibly 0 ",
           "batch size and non-zero dimensions for input, but got: ", shape_str(self.sizes()));
  TH_CHECK(is_floating_point(self.dtype()) || self.dtype() == ScalarType::Bool,
           "\"col2im\" not implemented for '", scalar_type_name(self.dtype()), "'");
  const Tensor cols = self.dim() == 3 ? contiguous(self) : unsqueeze(contiguous(self), 0);
  const IntList size = per_dim(output_size, 2, "output_size");
  const IntList k = per_dim(kernel_size, 2, "kernel_size");
  TH_CHECK(k[0] > 0 && k[1] > 0, "kernel size should be greater than zero, but got kernel_height: ", k[0],
           " kernel_width: ", k[1]);
  TH_CHECK(cols.size(1) % (k[0] * k[1]) == 0, "Expected size of input's dimension 1 to be divisible by the ",
           "product of kernel_size, but got input.size(1)=", cols.size(1), " and kernel_size=(", k[0], ", ",
           k[1], ")");
  const int64_t N = cols.size(0), C = cols.size(1) / (k[0] * k[1]);
  const math::ConvGeometry g = block_geometry(C, size[0], size[1], kernel_size, dilation, padding, stride);
  TH_CHECK(cols.size(2) == g.out_numel(), "Given output_size=(", size[0], ", ", size[1], "), kernel_size=(",
           k[0], ", ", k[1], "), dilation=(", per_dim(dilation, 2, "dilation")[0], ", ",
           per_dim(dilation, 2, "dilation")[1], "), padding=(", per_dim(padding, 2, "padding")[0], ", ",
           per_dim(padding, 2, "padding")[1], "), stride=(", per_dim(stride, 2, "stride")[0], ", ",
           per_dim(stride, 2, "stride")[1],
           "), expected size of input's dimension 2 to match the calculated number of sliding blocks ",
           g.out[1], " * ", g.out[2], " = ", g.out_numel(), ", but got input.size(2)=", cols.size(2), ".");
  Tensor out = empty_tensor({N, C, size[0], size[1]}, self.dtype(), self.device());
  for (int64_t n = 0; n < N && out.numel() > 0; ++n)
    col2im_stub[self.device().type](select(cols, 0, n), narrow(out, 0, n, 1), g);
  return self.dim() == 3 ? out : select(out, 0, 0);
}

}  // namespace th
