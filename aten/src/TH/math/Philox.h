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
