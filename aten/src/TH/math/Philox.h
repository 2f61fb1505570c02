#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
// generator, so element i of a random tensor is a pure function of (seed, offset + i) and CPU and
// CUDA kernels share this code and can fill elements in any order, on any number of threads.
#include <cmath>
#include <cstdint>

#include "../Macros.h"

namespace th::math {

struct Philox4 {
  uint32_t v[4];
};

/// Four random 32-bit words for `counter` under `seed`; `stream` picks one of 2^32 independent sets of words
/// for the same counter (a sampler that needs several draws per element, Gamma's rejection loop, takes them
/// from streams 1, 2, ... of its element's counter).
TH_HOST_DEVICE inline Philox4 philox(uint64_t seed, uint64_t counter, uint32_t stream = 0) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = stream,
           c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(0xD2511F53u) * c0, p1 = uint64_t(0xCD9E8D57u) * c2;
    const uint32_t hi0 = uint32_t(p0 >> 32), lo0 = uint32_t(p0), hi1 = uint32_t(p1 >> 32), lo1 = uint32_t(p1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {{c0, c1, c2, c3}};
}

/// A uniform double in [0, 1) from two random words (53 bits).
TH_HOST_DEVICE inline double uniform53(uint32_t hi, uint32_t lo) {
  return double((uint64_t(hi) << 21) ^ uint64_t(lo & 0x1FFFFFu)) * (1.0 / 9007199254740992.0);
}

/// A Gamma(alpha, 1) variate for element `counter` (alpha > 0; 0 for alpha = 0, NaN below or for NaN):
/// Marsaglia and Tsang's squeeze-and-reject method for alpha >= 1, each try from Philox streams of its own
/// (a normal by Box-Muller, a uniform), and Gamma(alpha + 1) U^(1 / alpha) below 1.
TH_HOST_DEVICE inline double random_gamma(double alpha, uint64_t seed, uint64_t counter) {
  if (!(alpha > 0)) return alpha == 0 ? 0.0 : NAN;
  double scale = 1.0;
  if (alpha < 1) {
    const Philox4 r = philox(seed, counter, 0xFFFFFFFFu);
    scale = std::pow(1.0 - uniform53(r.v[0], r.v[1]), 1.0 / alpha);  // U in (0, 1]
    alpha += 1.0;
  }
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (uint32_t attempt = 0; attempt < 100000; ++attempt) {
    const Philox4 r = philox(seed, counter, 2 * attempt + 1), q = philox(seed, counter, 2 * attempt + 2);
    const double x = std::sqrt(-2.0 * std::log(1.0 - uniform53(r.v[0], r.v[1]))) *
                     std::cos(6.283185307179586 * uniform53(r.v[2], r.v[3]));
    const double t = 1.0 + c * x;
    if (t <= 0) continue;
    const double v = t * t * t, u = uniform53(q.v[0], q.v[1]), x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2 || std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v)))
      return scale * d * v;
  }
  return scale * d;  // unreachable in practice (each try is accepted with probability > 0.95)
}

/// A Poisson(rate) variate for element `counter` (rate >= 0; +inf for an infinite rate): for rates below 10,
/// the product of uniforms until it falls below exp(-rate); from 10 on, Hormann's transformed rejection with
/// squeeze (PTRS, "The transformed rejection method for generating Poisson random variables", 1993), each
/// try from its own Philox stream.
TH_HOST_DEVICE inline double random_poisson(double rate, uint64_t seed, uint64_t counter) {
  if (!(rate > 0)) return rate == 0 ? 0.0 : NAN;
  if (std::isinf(rate)) return rate;
  if (rate < 10) {
    const double limit = std::exp(-rate);
    double product = 1.0;
    for (uint32_t k = 0; k < 100000; ++k) {
      const Philox4 r = philox(seed, counter, k + 1);
      product *= uniform53(r.v[0], r.v[1]);
      if (product <= limit) return double(k);
    }
    return rate;  // unreachable in practice
  }
  const double slam = std::sqrt(rate), loglam = std::log(rate), b = 0.931 + 2.53 * slam,
               a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (uint32_t attempt = 0; attempt < 100000; ++attempt) {
    const Philox4 r = philox(seed, counter, attempt + 1);
    const double u = uniform53(r.v[0], r.v[1]) - 0.5, v = uniform53(r.v[2], r.v[3]);
    const double us = 0.5 - std::fabs(u), k = std::floor((2 * a / us + b) * u + rate + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
        -rate + k * loglam - std::lgamma(k + 1))
      return k;
  }
  return std::floor(rate);  // unreachable in practice
}

/// The samplers whose parameter is a tensor (one per element): Gamma(alpha, 1) and Poisson(rate).
enum class ParameterizedKind { Gamma, Poisson };

TH_HOST_DEVICE inline double random_parameterized(ParameterizedKind kind, double p, uint64_t seed,
                                                  uint64_t counter) {
  return kind == ParameterizedKind::Gamma ? random_gamma(p, seed, counter) : random_poisson(p, seed, counter);
}

/// What element i of a random tensor gets: uniform in [a, b), normal(mean a, std b), or an
/// integer in [a, b).
enum class RandomKind { Uniform, Normal, Integer };

TH_HOST_DEVICE inline double random_value(uint64_t seed, uint64_t counter, RandomKind kind, double a,
                                          double b) {
  const Philox4 r = philox(seed, counter);
  const double u = uniform53(r.v[0], r.v[1]);
  if (kind == RandomKind::Uniform) return a + (b - a) * u;
  if (kind == RandomKind::Normal) {  // Box-Muller on two independent uniforms
    const double u2 = uniform53(r.v[2], r.v[3]);
    return a + b * std::sqrt(-2.0 * std::log(1.0 - u)) * std::cos(6.283185307179586 * u2);
  }
  const uint64_t range = static_cast<uint64_t>(b - a);
  const uint64_t bits = (uint64_t(r.v[2]) << 32) | r.v[3];
  return a + double(range ? bits % range : 0);
}

}  // namespace th::math
