#pragma once
// Explicitly vectorized float kernels, compiled once per CPU capability (cpu/VecImpl.cpp: SSE2,
// AVX2+FMA, AVX-512) and picked at run time, like PyTorch's CPU_CAPABILITY builds. Plain functions
// and C types only here: the variant objects share no inline or template code with the rest of TH,
// so the linker can never mix an AVX-512 copy of a function into the baseline path.
#include <cstdint>

namespace th::cpu {

/// GeluErf: x / 2 * (1 + erf(x / sqrt(2))) in one pass, the operations of THNN/math/Activation.h's
/// gelu_erf(x, erf(gelu_erf_arg(x))) in their order (the same bits as composing them).
enum class VecUnary : int { Exp, Tanh, Sigmoid, Erf, GeluErf };
enum class VecReduce : int { Sum, Max, Min };
enum class VecConvert : int { HalfToFloat, FloatToHalf, BFloat16ToFloat, FloatToBFloat16 };

/// out[i] = op(in[i]) for i < n (contiguous float).
using vec_unary_fn = void (*)(VecUnary op, const float* in, float* out, int64_t n);
/// The reduction of in[0..n) (a float sum accumulates in double; max/min propagate NaN).
using vec_reduce_fn = double (*)(VecReduce op, const float* in, int64_t n);

/// dst[i] = src[i] for i < n, between float and a 16-bit float (its bits), rounding to nearest-even.
using vec_convert_fn = void (*)(VecConvert op, const void* src, void* dst, int64_t n);

/// Called by each variant at load time with its capability level (0 SSE2, 1 AVX2, 2 AVX-512).
void register_vec_kernels(int level, vec_unary_fn unary, vec_reduce_fn reduce, vec_convert_fn convert);
/// The best registered kernels this CPU can run (TH_CPU_CAPABILITY=default|avx2|avx512 caps it).
vec_unary_fn vec_unary();
vec_reduce_fn vec_reduce();
/// The conversion instructions (F16C, AVX-512), or nullptr without them: use the scalar conversions.
vec_convert_fn vec_convert();
/// "DEFAULT", "AVX2" or "AVX512": what vec_unary/vec_reduce run on this machine.
const char* vec_capability();

}  // namespace th::cpu
