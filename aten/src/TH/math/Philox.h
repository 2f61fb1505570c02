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

/// Four random 32-bit words for `counter` under `seed`.
TH_HOST_DEVICE inline Philox4 philox(uint64_t seed, uint64_t counter) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = 0, c3 = 0;
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

/// What element i of a random tensor gets: uniform in [a, b), normal(mean a, std b), or an
/// integer in [a, b).
enum class RandomKind { Uniform, Normal, Integer };

TH_HOST_DEVICE inline double random_value(uint64_t seed, uint64_t counter, RandomKind kind, double a,
                                          double b) {
  const Philox4 r = philox(seed, counter);
  const double u =
      double((uint64_t(r.v[0]) << 21) ^ uint64_t(r.v[1] & 0x1FFFFFu)) * (1.0 / 9007199254740992.0);
  if (kind == RandomKind::Uniform) return a + (b - a) * u;
  if (kind == RandomKind::Normal) {  // Box-Muller on two independent uniforms
    const double u2 =
        double((uint64_t(r.v[2]) << 21) ^ uint64_t(r.v[3] & 0x1FFFFFu)) * (1.0 / 9007199254740992.0);
    return a + b * std::sqrt(-2.0 * std::log(1.0 - u)) * std::cos(6.283185307179586 * u2);
  }
  const uint64_t range = static_cast<uint64_t>(b - a);
  const uint64_t bits = (uint64_t(r.v[2]) << 32) | r.v[3];
  return a + double(range ? bits % range : 0);
}

}  // namespace th::math
