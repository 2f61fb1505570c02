#pragma once
// The attention family's kernels (math/Attention.h): ops/Attention.cpp, cpu/AttentionKernels.cpp,
// THCUNN/AttentionKernels.cu. Every tensor is contiguous with a leading batch-head dim of size BH; mask may
// be undefined; acc, lse, D, dq, dk, dv are of the math type (float for 16-bit and float inputs).
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Attention.h"

namespace th {

/// acc [BH, L, Ev] and lse [BH, L] for q [BH, L, E], k [BH, S, E], v [BH, S, Ev] and the mask (read through
/// a.mask_b / mask_i / mask_j, so a broadcast one is not expanded).
using attention_fn = void(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                          const Tensor& acc, const Tensor& lse, const math::AttentionShape& a);
/// D [BH, L], dq [BH, L, E], dk [BH, S, E], dv [BH, S, Ev] and (if defined) dmask [BH, L, S] from the
/// forward's out [BH, L, Ev] (input dtype), lse and the output gradient dout.
using attention_backward_fn = void(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                                   const Tensor& out, const Tensor& dout, const Tensor& lse, const Tensor& D,
                                   const Tensor& dq, const Tensor& dk, const Tensor& dv, const Tensor& dmask,
                                   const math::AttentionShape& a);

TH_DECLARE_STUB(attention_fn, attention_stub);
TH_DECLARE_STUB(attention_backward_fn, attention_backward_stub);

}  // namespace th
