// Entry points of the spectral family: _fft_c2c, _fft_r2c and _fft_c2r as in PyTorch (torch.fft's
// functions in torch/fft/ resize the signal and pick the norm, then call these). normalization is
// PyTorch's fft_norm_mode: 0 none, 1 by 1/sqrt(n), 2 by 1/n, n the number of points transformed.
#include "Spectral.h"

#include <algorithm>
#include <cmath>

#include "../Functions.h"

namespace th {

TH_DEFINE_STUB(fft_c2c_fn, fft_c2c_stub);
TH_DEFINE_STUB(fft_r2c_fn, fft_r2c_stub);
TH_DEFINE_STUB(fft_c2r_fn, fft_c2r_stub);

// entry points declared by the generated bindings from their schemas
Tensor _fft_c2c(const Tensor& self, const IntList& dim, int64_t normalization, bool forward);
Tensor _fft_r2c(const Tensor& self, const IntList& dim, int64_t normalization, bool onesided);
Tensor _fft_c2r(const Tensor& self, const IntList& dim, int64_t normalization, int64_t last_dim_size);

namespace {

/// dim wrapped and checked: distinct dims of self, at least one.
IntList wrapped_dims(const Tensor& self, const IntList& dim) {
  TH_CHECK(!dim.empty(), "FFT: expected at least one dim to transform");
  IntList dims;
  for (int64_t d : dim) dims.push_back(wrap_dim(d, self.dim()));
  IntList sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  TH_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), "FFT dims must be unique");
  return dims;
}

/// The factor of `normalization` for a transform of the signal sizes (self's sizes along dims).
double scale_of(int64_t normalization, const IntList& sizes, const IntList& dims) {
  TH_CHECK(normalization >= 0 && normalization <= 2, "FFT: invalid normalization mode ", normalization);
  double n = 1;
  for (int64_t d : dims) n *= double(sizes[d]);
  if (normalization == 0 || n == 0) return 1.0;
  return normalization == 1 ? 1.0 / std::sqrt(n) : 1.0 / n;
}

}  // namespace

Tensor _fft_c2c(const Tensor& self, const IntList& dim, int64_t normalization, bool forward) {
  TH_CHECK(is_complex(self.dtype()), "_fft_c2c expects a complex input tensor, but got ",
           scalar_type_name(self.dtype()));
  const IntList dims = wrapped_dims(self, dim);
  Tensor out = empty_tensor(self.sizes(), self.dtype(), self.device());
  if (out.numel() == 0) return out;
  fft_c2c_stub[self.device().type](self, out, dims, forward, scale_of(normalization, self.sizes(), dims));
  return out;
}

Tensor _fft_r2c(const Tensor& self, const IntList& dim, int64_t normalization, bool onesided) {
  const ScalarType t = self.dtype();
  TH_CHECK(t == ScalarType::Float || t == ScalarType::Double,
           "_fft_r2c expects a float or double input, but got ", scalar_type_name(t));
  const IntList dims = wrapped_dims(self, dim);
  if (!onesided) {  // the whole spectrum: the complex transform of the real signal
    return _fft_c2c(to_dtype(self, to_complex_type(t)), dims, normalization, true);
  }
  for (int64_t d : dims)
    TH_CHECK(self.size(d) >= 1, "Invalid number of data points (", self.size(d), ") specified");
  IntList sizes = self.sizes();
  sizes[dims.back()] = sizes[dims.back()] / 2 + 1;
  Tensor out = empty_tensor(sizes, to_complex_type(t), self.device());
  if (self.numel() == 0) return out;
  fft_r2c_stub[self.device().type](self, out, dims, scale_of(normalization, self.sizes(), dims));
  return out;
}

Tensor _fft_c2r(const Tensor& self, const IntList& dim, int64_t normalization, int64_t last_dim_size) {
  TH_CHECK(is_complex(self.dtype()), "_fft_c2r expects a complex input tensor, but got ",
           scalar_type_name(self.dtype()));
  TH_CHECK(last_dim_size >= 1, "Invalid number of data points (", last_dim_size, ") specified");
  const IntList dims = wrapped_dims(self, dim);
  const int64_t last = dims.back(), half = last_dim_size / 2 + 1;
  TH_CHECK(self.size(last) >= half, "_fft_c2r: expected at least ", half, " points along dim ", last,
           " for an output of ", last_dim_size, ", but got ", self.size(last));
  const Tensor in = self.size(last) == half ? self : narrow(self, last, 0, half);
  IntList sizes = self.sizes();
  sizes[last] = last_dim_size;
  Tensor out = empty_tensor(sizes, to_real_type(self.dtype()), self.device());
  if (out.numel() == 0) return out;
  fft_c2r_stub[self.device().type](in, out, dims, scale_of(normalization, sizes, dims));
  return out;
}

}  // namespace th
