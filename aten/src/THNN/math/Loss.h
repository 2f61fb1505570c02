#pragma once
// Scalar math of the losses, written once for the CPU and CUDA kernels.
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// One sample of nll_loss: (loss, weight) = (-w * x[t], w) with w the class weight (1 without weights),
/// (0, 0) for an ignored target. `bad` is set for a target outside [0, C).
template <typename T>
TH_HOST_DEVICE void nll_loss_sample(const T* row, int64_t t, const T* weight, int64_t C, int64_t ignore_index,
                                    T& loss, T& w, bool& bad) {
  if (t == ignore_index) {
    loss = T(0);
    w = T(0);
    return;
  }
  if (t < 0 || t >= C) {
    bad = true;
    loss = T(0);
    w = T(0);
    return;
  }
  w = weight ? weight[t] : T(1);
  loss = T(-(opmath_t<T>(w) * opmath_t<T>(row[t])));
}

}  // namespace th::math
