// Entry points of the upsample family: _resample_1d resamples one dim (nearest, nearest-exact, linear, cubic;
// antialiased: linear, cubic, lanczos)
// and _resample_1d_backward is its gradient. torch.nn.functional.interpolate checks the arguments as PyTorch
// does and resamples the spatial dims one after another (every mode is separable).
#include <TH/Functions.h>

#include "../Functions.h"
#include "Upsample.h"

namespace th {

TH_DEFINE_STUB(resample_fn, resample_stub);
TH_DEFINE_STUB(resample_backward_fn, resample_backward_stub);

namespace {

math::ResampleMode resample_mode(const std::string& mode, bool antialias) {
  if (antialias) {
    if (mode == "linear") return math::ResampleMode::LinearAntialias;
    if (mode == "cubic") return math::ResampleMode::CubicAntialias;
    TH_CHECK(mode == "lanczos", "_resample_1d: antialias takes the modes linear, cubic or lanczos, not '",
             mode, "'");
    return math::ResampleMode::LanczosAntialias;
  }
  if (mode == "nearest") return math::ResampleMode::Nearest;
  if (mode == "nearest-exact") return math::ResampleMode::NearestExact;
  if (mode == "linear") return math::ResampleMode::Linear;
  TH_CHECK(mode == "cubic", "_resample_1d: unknown mode '", mode,
           "' (nearest, nearest-exact, linear or cubic; lanczos with antialias)");
  return math::ResampleMode::Cubic;
}

struct Lines {
  int64_t outer = 1, inner = 1;
};

Lines lines_of(const IntList& sizes, int64_t d) {
  Lines l;
  for (int64_t k = 0; k < d; ++k) l.outer *= sizes[size_t(k)];
  for (size_t k = size_t(d) + 1; k < sizes.size(); ++k) l.inner *= sizes[k];
  return l;
}

}  // namespace

Tensor _resample_1d(const Tensor& self, int64_t dim, int64_t output_size, const std::string& mode,
                    bool align_corners, double scale, bool antialias) {
  const math::ResampleMode kind = resample_mode(mode, antialias);
  TH_CHECK(is_floating_point(self.dtype()) || self.dtype() == ScalarType::Byte ||
               kind == math::ResampleMode::Nearest || kind == math::ResampleMode::NearestExact,
           "\"upsample_", mode, antialias ? "_aa" : "", "\" not implemented for '",
           scalar_type_name(self.dtype()), "'");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t in = self.size(d);
  TH_CHECK(output_size > 0 && in > 0, "Input and output sizes should be greater than 0, but got input (", in,
           ") and output (", output_size, ")");
  IntList shape = self.sizes();
  shape[size_t(d)] = output_size;
  Tensor out = empty_tensor(shape, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const math::Resample1d r{in, output_size, scale, align_corners, kind};
  const Lines l = lines_of(shape, d);
  resample_stub[self.device().type](contiguous(self), out, r, l.outer, l.inner);
  return out;
}

Tensor _resample_1d_backward(const Tensor& grad_output, int64_t dim, int64_t input_size,
                             const std::string& mode, bool align_corners, double scale, bool antialias) {
  if (is_reduced_floating_point(grad_output.dtype()))  // add in float, round once
    return to_dtype(_resample_1d_backward(to_dtype(grad_output, ScalarType::Float), dim, input_size, mode,
                                          align_corners, scale, antialias),
                    grad_output.dtype());
  const int64_t d = wrap_dim(dim, grad_output.dim());
  IntList shape = grad_output.sizes();
  shape[size_t(d)] = input_size;
  Tensor grad_in = empty_tensor(shape, grad_output.dtype(), grad_output.device());
  if (grad_in.numel() == 0) return grad_in;
  const math::Resample1d r{input_size, grad_output.size(d), scale, align_corners,
                           resample_mode(mode, antialias)};
  const Lines l = lines_of(shape, d);
  resample_backward_stub[grad_output.device().type](contiguous(grad_output), grad_in, r, l.outer, l.inner);
  return grad_in;
}

}  // namespace th
