// Random tensors: uniform_, normal_, rand, randn, randint, randperm and the _like forms, drawn
// from a Philox generator (the device's default one unless given), as PyTorch's API has them.
#include <cmath>

#include "../DefaultDevice.h"
#include "../Functions.h"
#include "Random.h"

namespace th {

Tensor view_as_real(const Tensor& self);  // ops/ComplexParts.cpp

TH_DEFINE_STUB(random_fn, random_stub);
TH_DEFINE_STUB(parameterized_random_fn, parameterized_random_stub);

namespace {

Generator generator_for(const std::optional<Generator>& gen, Device device) {
  if (!gen) return default_generator(device);
  TH_CHECK(gen->device().type == device.type, "Expected a '", device_type_name(device.type),
           "' device type for generator but found '", device_type_name(gen->device().type), "'");
  return *gen;
}

/// Fills `self` (any layout) with random values of `kind` and marks the write.
Tensor& fill_random(Tensor& self, const std::optional<Generator>& gen, math::RandomKind kind, double a,
                    double b) {
  if (self.numel() == 0) return self;
  Generator g = generator_for(gen, self.device());
  const uint64_t offset = g.advance(static_cast<uint64_t>(self.numel()));
  if (self.is_contiguous()) {
    random_stub[self.device().type](self, g.seed(), offset, kind, a, b);
    self.bump_version();
  } else {
    Tensor tmp = empty_tensor(self.sizes(), self.dtype(), self.device());
    random_stub[self.device().type](tmp, g.seed(), offset, kind, a, b);
    copy_(self, tmp);
  }
  return self;
}

Tensor fresh(Tensor t) {
  t.storage()->reset_version();
  return t;
}

}  // namespace

namespace {

/// A sample per element of `param` from the sampler of `kind` (the generator advanced by one counter each).
Tensor sample_parameterized(const Tensor& param, const std::optional<Generator>& generator,
                            math::ParameterizedKind kind) {
  Tensor out = empty_tensor(param.sizes(), param.dtype(), param.device());
  if (out.numel() == 0) return out;
  Generator g = generator_for(generator, param.device());
  const uint64_t offset = g.advance(static_cast<uint64_t>(out.numel()));
  parameterized_random_stub[param.device().type](contiguous(param), out, g.seed(), offset, kind);
  return out;
}

}  // namespace

Tensor _standard_gamma(const Tensor& self, const std::optional<Generator>& generator) {
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()), "\"standard_gamma\" not implemented for '",
             scalar_type_cpp_name(self.dtype()), "'");
  return sample_parameterized(self, generator, math::ParameterizedKind::Gamma);
}

Tensor poisson(const Tensor& self, const std::optional<Generator>& generator) {
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()), "\"poisson_",
             self.device().is_cpu() ? "cpu" : "cuda", "\" not implemented for '",
             scalar_type_cpp_name(self.dtype()), "'");
  if (self.numel() > 0) {  // the smallest rate (NaN if any is) read on the host
    const Tensor low = contiguous(to(min(self), Device(), ScalarType::Double, false, false));
    TH_CHECK(*reinterpret_cast<const double*>(low.data_ptr()) >= 0,
             "invalid Poisson rate, expected rate to be non-negative");
  }
  return sample_parameterized(self, generator, math::ParameterizedKind::Poisson);
}

Tensor& uniform_(Tensor& self, double from, double to, const std::optional<Generator>& generator) {
  if (is_complex(self.dtype())) {  // PyTorch's: each part uniform in [from, to)
    Tensor parts = view_as_real(self);
    uniform_(parts, from, to, generator);
    self.bump_version();
    return self;
  }
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()),
             "\"check_uniform_bounds\" not implemented for '", scalar_type_cpp_name(self.dtype()), "'");
  TH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  return fill_random(self, generator, math::RandomKind::Uniform, from, to);
}

Tensor& normal_(Tensor& self, double mean, double std, const std::optional<Generator>& generator) {
  if (is_complex(self.dtype())) {  // PyTorch's: each part N(mean, std^2 / 2), so that E|z - mean|^2 = std^2
    TH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
    Tensor parts = view_as_real(self);
    normal_(parts, mean, std / std::sqrt(2.0), generator);
    self.bump_version();
    return self;
  }
  TH_CHECK_T(NotImplementedError, is_floating_point(self.dtype()), "\"normal_kernel_",
             self.device().is_cpu() ? "cpu" : "cuda", "\" not implemented for '",
             scalar_type_cpp_name(self.dtype()), "'");
  TH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return fill_random(self, generator, math::RandomKind::Normal, mean, std);
}

Tensor rand(const IntList& size, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  Tensor t = empty(size, dtype, device);
  return fresh(uniform_(t, 0.0, 1.0, generator));
}

Tensor randn(const IntList& size, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
             std::optional<Device> device) {
  Tensor t = empty(size, dtype, device);
  return fresh(normal_(t, 0.0, 1.0, generator));
}

Tensor randint(int64_t low, int64_t high, const IntList& size, const std::optional<Generator>& generator,
               std::optional<ScalarType> dtype, std::optional<Device> device) {
  TH_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  Tensor t = empty(size, dtype.value_or(ScalarType::Long), device);
  TH_CHECK(t.dtype() != ScalarType::Bool || (low >= 0 && high <= 2),
           "random_ expects 'from' and 'to' in the range of bool");
  return fresh(fill_random(t, generator, math::RandomKind::Integer, double(low), double(high)));
}

Tensor randint(int64_t high, const IntList& size, const std::optional<Generator>& generator,
               std::optional<ScalarType> dtype, std::optional<Device> device) {
  return randint(0, high, size, generator, dtype, device);
}

Tensor randperm(int64_t n, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
                std::optional<Device> device) {
  TH_CHECK(n >= 0, "n must be non-negative, got", n);
  Device dev = device.value_or(default_device());
  Generator g = generator_for(generator, dev);
  ScalarType dt = dtype.value_or(ScalarType::Long);
  // Fisher-Yates on the CPU with the generator's counters (then moved to the device)
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = i;
  const uint64_t offset = g.advance(static_cast<uint64_t>(n));
  for (int64_t i = n - 1; i > 0; --i) {
    const math::Philox4 r = math::philox(g.seed(), offset + uint64_t(i));
    const int64_t j = int64_t(((uint64_t(r.v[0]) << 32) | r.v[1]) % uint64_t(i + 1));
    std::swap(perm[size_t(i)], perm[size_t(j)]);
  }
  Tensor out = empty_tensor({n}, ScalarType::Long, Device());
  std::copy(perm.begin(), perm.end(), reinterpret_cast<int64_t*>(out.data_ptr()));
  return to(out, dev, dt, false, false);
}

Tensor rand_like(const Tensor& self, const std::optional<Generator>& generator,
                 std::optional<ScalarType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format) {
  Tensor t = empty_like(self, dtype, device, memory_format);
  return fresh(uniform_(t, 0.0, 1.0, generator));
}

Tensor randn_like(const Tensor& self, const std::optional<Generator>& generator,
                  std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  Tensor t = empty_like(self, dtype, device, memory_format);
  return fresh(normal_(t, 0.0, 1.0, generator));
}

}  // namespace th
